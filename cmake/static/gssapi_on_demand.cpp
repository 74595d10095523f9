// libgit2's Kerberos (SPNEGO) authentication of HTTPS remotes, opened on first use. With libgit2
// linked statically (EJ_STATIC_DEPS, cmake/static_deps.cmake), linking libgssapi_krb5 as well would load
// seven shared objects into every ej command for a feature few remotes ask for; these eight functions, all
// libgit2 calls, load it when it first asks and forward. Without it, they fail as GSS-API does,
// and libgit2 says the authentication failed.
#include <cstddef>
#include <cstdint>
#include <dlfcn.h>
#include <mutex>

namespace {

using OM_uint32 = std::uint32_t;
constexpr OM_uint32 k_gss_failure = 13U << 16; // GSS_S_FAILURE, a routine error

void* library()
{
  static void* const handle = [] {
    void* opened = ::dlopen("libgssapi_krb5.so.2", RTLD_NOW | RTLD_LOCAL);
    return opened != nullptr ? opened : ::dlopen("libgssapi.so.3", RTLD_NOW | RTLD_LOCAL);
  }();
  return handle;
}

template <typename Function> Function* find(const char* name)
{
  void* handle = library();
  return handle != nullptr ? reinterpret_cast<Function*>(::dlsym(handle, name)) : nullptr;
}

struct Buffer {
  std::size_t length;
  void* value;
};

// The OID of GSS_C_NT_HOSTBASED_SERVICE (1.2.840.113554.1.2.1.4, RFC 2744), which libgit2 reads
// before any call: compared by value by the library.
struct Oid {
  OM_uint32 length;
  const void* elements;
};
const Oid k_hostbased_service{10, "\x2a\x86\x48\x86\xf7\x12\x01\x02\x01\x04"};

} // namespace

#define EJ_FORWARD(name, params, args)                                                                       \
  extern "C" OM_uint32 name params                                                                           \
  {                                                                                                          \
    using Function = OM_uint32 params;                                                                       \
    static Function* const real = find<Function>(#name);                                                     \
    if (real == nullptr) {                                                                                   \
      *minor = 0;                                                                                            \
      return k_gss_failure;                                                                                  \
    }                                                                                                        \
    return real args;                                                                                        \
  }

extern "C" {
const Oid* GSS_C_NT_HOSTBASED_SERVICE = &k_hostbased_service;
}

EJ_FORWARD(gss_release_buffer, (OM_uint32 * minor, Buffer* buffer), (minor, buffer))
EJ_FORWARD(gss_release_name, (OM_uint32 * minor, void** name), (minor, name))
EJ_FORWARD(gss_release_oid_set, (OM_uint32 * minor, void** set), (minor, set))
EJ_FORWARD(gss_indicate_mechs, (OM_uint32 * minor, void** set), (minor, set))
EJ_FORWARD(gss_delete_sec_context, (OM_uint32 * minor, void** context, Buffer* token),
           (minor, context, token))
EJ_FORWARD(gss_import_name, (OM_uint32 * minor, Buffer* name, const void* type, void** output),
           (minor, name, type, output))
EJ_FORWARD(gss_display_status,
           (OM_uint32 * minor, OM_uint32 status, int type, const void* mech, OM_uint32* context,
            Buffer* text),
           (minor, status, type, mech, context, text))
EJ_FORWARD(gss_init_sec_context,
           (OM_uint32 * minor, void* credential, void** context, void* target, const void* mech,
            OM_uint32 flags, OM_uint32 time, void* bindings, Buffer* input, const void** actual_mech,
            Buffer* output, OM_uint32* returned_flags, OM_uint32* time_valid),
           (minor, credential, context, target, mech, flags, time, bindings, input, actual_mech, output,
            returned_flags, time_valid))

#undef EJ_FORWARD
