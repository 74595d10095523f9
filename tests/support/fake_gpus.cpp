#include "support/fake_gpus.h"

#include "support/temp_dir.h"

namespace ej::test {

std::string fake_nvml_library()
{
  return EJ_FAKE_NVML;
}

std::filesystem::path write_fake_nvidia_smi(const std::filesystem::path& dir, const std::string& uuid)
{
  write_text(dir / "nvidia-smi",
             "#!/bin/sh\n"
             "case \"$*\" in\n"
             "  *--loop-ms*) while :; do echo '0, " +
                 uuid +
                 ", 1410, 3201, 300.5, 71, 99, 0x0000000000000000' || exit 0; sleep 0.01; done ;;\n"
                 "  *--query-gpu=*) echo '0, NVIDIA H200, " +
                 uuid +
                 ", 570.86.15, 143771, 3, 1980, 3201, 75.3, 700.00, 31, Enabled, Enabled, Disabled, 0x0' ;;\n"
                 "  *) echo '| NVIDIA-SMI 570.86.15  Driver Version: 570.86.15  CUDA Version: 12.8 |' ;;\n"
                 "esac\n");
  std::filesystem::permissions(dir / "nvidia-smi", std::filesystem::perms::owner_all);
  return dir;
}

} // namespace ej::test
