#include "simdevice/executor/host_cpu_share.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <string>

#include "absl/strings/str_cat.h"

namespace npud::sim {

int NiceForCpuWeight(double weight) {
  if (!(weight > 0)) return 19;
  // CFS's weight table: nice n weighs 1024 / 1.25^n.
  const long nice = std::lround(-std::log(weight) / std::log(1.25));
  return static_cast<int>(std::clamp(nice, -20L, 19L));
}

absl::Status SetCpuWeight(pid_t pid, double weight) {
  {
    std::ifstream enabled("/proc/sys/kernel/sched_autogroup_enabled");
    int on = 0;
    if (!(enabled >> on) || on == 0) {
      return absl::FailedPreconditionError(
          "the kernel's autogroups are off (kernel.sched_autogroup_enabled)");
    }
  }
  const std::string path = absl::StrCat("/proc/", pid, "/autogroup");
  std::ofstream out(path);
  out << NiceForCpuWeight(weight) << std::flush;
  if (!out) {
    const int err = errno;
    if (err == EPERM || err == EACCES) {
      return absl::PermissionDeniedError(
          absl::StrCat("a CPU weight of ", weight, " needs CAP_SYS_NICE"));
    }
    return absl::InternalError(absl::StrCat(path, ": ", std::strerror(err)));
  }
  return absl::OkStatus();
}

}  // namespace npud::sim
