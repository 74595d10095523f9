# The libraries ej links, as the targets ej_dep_<name>. With EJ_STATIC_DEPS (the default, where every
# archive is installed), those Debian ships as static archives are linked into ej statically: a
# command then loads 3 shared objects instead of 28 and starts in half the time (issue 16;
# tests/perf/journal_bench prints the ratio to `git --version`). Kerberos (libgit2's HTTPS
# negotiate authentication) has no archive: it is opened on first use (cmake/static/gssapi_on_demand.cpp);
# the CA certificates libgit2 reads at start-up are read at the first TLS handshake
# (cmake/static/ca_on_demand.cpp).
set(ej_static_archives sqlite3 git2 ssh2 cmark-gfm cmark-gfm-extensions re2 pugixml nettle mbedtls mbedx509
  mbedcrypto http_parser pcre2-8 crypto z)
set(ej_static_ok ${EJ_STATIC_DEPS})
if(EJ_STATIC_DEPS)
  foreach(name ${ej_static_archives})
    find_library(EJ_ARCHIVE_${name} NAMES lib${name}.a)
    if(NOT EJ_ARCHIVE_${name})
      message(STATUS "EJ_STATIC_DEPS: no lib${name}.a; linking the shared libraries instead")
      set(ej_static_ok OFF)
    endif()
  endforeach()
endif()

foreach(dep sqlite git fmt nettle re2 pugixml cmark)
  add_library(ej_dep_${dep} INTERFACE)
endforeach()
if(ej_static_ok)
  message(STATUS "EJ_STATIC_DEPS: linking SQLite, libgit2, libssh2, RE2, pugixml, cmark-gfm, nettle and fmt statically")
  target_link_libraries(ej_dep_sqlite INTERFACE ${EJ_ARCHIVE_sqlite3} ${CMAKE_DL_LIBS} Threads::Threads m)
  target_include_directories(ej_dep_sqlite INTERFACE ${SQLite3_INCLUDE_DIRS})
  # libgit2 as `pkg-config --static --libs libgit2` lists it, its ssh through libssh2 and OpenSSL.
  # Kerberos last: the linker takes from it what libgit2 left undefined.
  add_library(ej_gssapi_on_demand STATIC ${PROJECT_SOURCE_DIR}/cmake/static/gssapi_on_demand.cpp)
  # The CA bundle is parsed at the first TLS handshake, not when libgit2 starts
  # (cmake/static/ca_on_demand.cpp): between libgit2, which calls it, and mbedTLS, which it calls.
  add_library(ej_ca_on_demand STATIC ${PROJECT_SOURCE_DIR}/cmake/static/ca_on_demand.cpp)
  target_link_options(ej_dep_git INTERFACE
    "LINKER:--wrap=mbedtls_x509_crt_parse_file,--wrap=mbedtls_x509_crt_parse_path"
    "LINKER:--wrap=mbedtls_x509_crt_free,--wrap=mbedtls_ssl_handshake")
  target_link_libraries(ej_dep_git INTERFACE ${EJ_ARCHIVE_git2} ej_ca_on_demand ${EJ_ARCHIVE_mbedtls} ${EJ_ARCHIVE_mbedx509}
    ${EJ_ARCHIVE_mbedcrypto} ${EJ_ARCHIVE_http_parser} ${EJ_ARCHIVE_ssh2} ${EJ_ARCHIVE_crypto} ${EJ_ARCHIVE_pcre2-8}
    ${EJ_ARCHIVE_z} ej_gssapi_on_demand rt ${CMAKE_DL_LIBS} Threads::Threads)
  target_include_directories(ej_dep_git INTERFACE ${LIBGIT2_INCLUDE_DIRS} ${LIBSSH2_INCLUDE_DIRS})
  # Debian ships fmt as a shared library only: its one translation unit is compiled here.
  add_library(ej_fmt_static STATIC ${PROJECT_SOURCE_DIR}/cmake/static/fmt_format.cpp)
  target_include_directories(ej_fmt_static PUBLIC $<TARGET_PROPERTY:fmt::fmt,INTERFACE_INCLUDE_DIRECTORIES>)
  target_link_libraries(ej_dep_fmt INTERFACE ej_fmt_static)
  target_include_directories(ej_dep_fmt INTERFACE $<TARGET_PROPERTY:fmt::fmt,INTERFACE_INCLUDE_DIRECTORIES>)
  target_link_libraries(ej_dep_nettle INTERFACE ${EJ_ARCHIVE_nettle})
  target_include_directories(ej_dep_nettle INTERFACE ${NETTLE_INCLUDE_DIRS})
  target_link_libraries(ej_dep_re2 INTERFACE ${EJ_ARCHIVE_re2} Threads::Threads)
  target_include_directories(ej_dep_re2 INTERFACE ${RE2_INCLUDE_DIRS})
  target_link_libraries(ej_dep_pugixml INTERFACE ${EJ_ARCHIVE_pugixml})
  target_include_directories(ej_dep_pugixml INTERFACE $<TARGET_PROPERTY:pugixml::pugixml,INTERFACE_INCLUDE_DIRECTORIES>)
  target_link_libraries(ej_dep_cmark INTERFACE ${EJ_ARCHIVE_cmark-gfm-extensions} ${EJ_ARCHIVE_cmark-gfm})
  target_include_directories(ej_dep_cmark INTERFACE ${CMARK_GFM_INCLUDE_DIRS})
  # libstdc++ and libgcc too: with fmt static nothing else needs them shared.
  add_link_options($<$<LINK_LANGUAGE:CXX>:-static-libstdc++> $<$<LINK_LANGUAGE:CXX>:-static-libgcc>)
else()
  target_link_libraries(ej_dep_sqlite INTERFACE SQLite::SQLite3)
  target_link_libraries(ej_dep_git INTERFACE PkgConfig::LIBGIT2 PkgConfig::LIBSSH2)
  target_link_libraries(ej_dep_fmt INTERFACE fmt::fmt)
  target_link_libraries(ej_dep_nettle INTERFACE PkgConfig::NETTLE)
  target_link_libraries(ej_dep_re2 INTERFACE PkgConfig::RE2)
  target_link_libraries(ej_dep_pugixml INTERFACE pugixml::pugixml)
  target_link_libraries(ej_dep_cmark INTERFACE PkgConfig::CMARK_GFM ${CMARK_GFM_EXTENSIONS})
endif()
