#include "util/build_id.h"

#include <elf.h>
#include <link.h>

#include <cstdint>
#include <cstring>

namespace ej::util {

namespace {

// Notes are 4-byte aligned records: namesz, descsz, type, then the name and the descriptor.
std::string build_id_in(const char* notes, std::size_t size)
{
  std::size_t at = 0;
  while (at + sizeof(ElfW(Nhdr)) <= size) {
    ElfW(Nhdr) header;
    std::memcpy(&header, notes + at, sizeof header);
    const std::size_t name_at = at + sizeof header;
    const std::size_t desc_at = name_at + ((header.n_namesz + 3) & ~std::size_t{3});
    const std::size_t next = desc_at + ((header.n_descsz + 3) & ~std::size_t{3});
    if (next > size) {
      return {};
    }
    if (header.n_type == NT_GNU_BUILD_ID && header.n_namesz == 4 &&
        std::memcmp(notes + name_at, "GNU", 4) == 0) {
      static constexpr char k_hex[] = "0123456789abcdef";
      std::string out;
      for (std::size_t i = 0; i < header.n_descsz; ++i) {
        const auto byte = static_cast<unsigned char>(notes[desc_at + i]);
        out += k_hex[byte >> 4];
        out += k_hex[byte & 0x0f];
      }
      return out;
    }
    at = next;
  }
  return {};
}

int find_in_executable(dl_phdr_info* info, std::size_t, void* out)
{
  // The first object dl_iterate_phdr reports is the executable itself.
  for (ElfW(Half) i = 0; i < info->dlpi_phnum; ++i) {
    const auto& header = info->dlpi_phdr[i];
    if (header.p_type == PT_NOTE) {
      const auto* notes = reinterpret_cast<const char*>(info->dlpi_addr + header.p_vaddr);
      *static_cast<std::string*>(out) = build_id_in(notes, header.p_memsz);
      if (!static_cast<std::string*>(out)->empty()) {
        break;
      }
    }
  }
  return 1; // stop after the executable
}

} // namespace

std::string executable_build_id()
{
  std::string id;
  dl_iterate_phdr(find_in_executable, &id);
  return id;
}

} // namespace ej::util
