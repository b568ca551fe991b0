#include "simdevice/address_reservation.h"

#include <sys/mman.h>

#include <cerrno>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "common/acl_status.h"
#include "spdlog/spdlog.h"

namespace npud::sim {
namespace {

constexpr int kReserveFlags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;

}  // namespace

absl::StatusOr<uint64_t> ReserveAddressSpace(uint64_t span, uint64_t preferred_base) {
  void* base = MAP_FAILED;
  if (preferred_base != 0) {
    base = mmap(reinterpret_cast<void*>(preferred_base), span, PROT_NONE,
                kReserveFlags | MAP_FIXED_NOREPLACE, -1, 0);
    if (base != MAP_FAILED && reinterpret_cast<uint64_t>(base) != preferred_base) {
      munmap(base, span);  // Old kernels treat the flag as a hint.
      base = MAP_FAILED;
    }
    if (base == MAP_FAILED) {
      spdlog::warn("address space could not be reserved at {:#x}; using another range",
                   preferred_base);
    }
  }
  if (base == MAP_FAILED) base = mmap(nullptr, span, PROT_NONE, kReserveFlags, -1, 0);
  if (base == MAP_FAILED) {
    return AclError(
        kRtMemoryAllocation,
        absl::StrCat("cannot reserve ", span, " bytes of address space: ", std::strerror(errno)));
  }
  return reinterpret_cast<uint64_t>(base);
}

void FenceAddressRange(uint64_t address, uint64_t length) {
  // A fresh PROT_NONE mapping over the range drops whatever was there (an
  // anonymous page or a shared file mapping) in one step.
  void* p =
      mmap(reinterpret_cast<void*>(address), length, PROT_NONE, kReserveFlags | MAP_FIXED, -1, 0);
  if (p == MAP_FAILED) {
    spdlog::error("cannot fence {:#x}+{}: {}", address, length, std::strerror(errno));
  }
}

}  // namespace npud::sim
