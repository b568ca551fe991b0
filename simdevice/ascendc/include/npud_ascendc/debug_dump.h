// debug_dump.h: DumpAccChkPoint (DumpTensor from an offset) and PrintTimeStamp.
//
//   DumpAccChkPoint(tensor, index, countOff, dumpSize)
//       DumpTensor's output (printf.h) for tensor[countOff], dumpSize elements (at most
//       what is left of the tensor), with desc = index. As upstream, a dump of more than
//       30 KB of data prints nothing.
//   PrintTimeStamp(descId)
//       "descId is <id>, rsv is 0, timeStamp is <cycle>, pcPtr is <pc>, entry is
//       <cycle the block began>.\n", cycles of GetSystemCycle's clock, pcPtr the
//       caller's address (GetProgramCounter's). Off unless the kernel is compiled with
//       ASCENDC_TIME_STAMP_ON, as upstream; ASCENDC_DUMP=0 turns both off.
// Checks (trap kind 1): countOff lies within the tensor.
#ifndef NPUD_ASCENDC_DEBUG_DUMP_H_
#define NPUD_ASCENDC_DEBUG_DUMP_H_

#include <chrono>
#include <cstdint>

#include "npud_ascendc/block_context.h"
#include "npud_ascendc/check.h"
#include "npud_ascendc/printf.h"
#include "npud_ascendc/tensor.h"

namespace npud::ascendc {

inline constexpr uint64_t kDumpAccChkPointMaxBytes = 30 * 1024;

#if defined(ASCENDC_TIME_STAMP_ON)
NPUD_ASCENDC_HIDDEN inline constexpr bool kTimeStamps = kDeviceOutput;
#else
NPUD_ASCENDC_HIDDEN inline constexpr bool kTimeStamps = false;
#endif

}  // namespace npud::ascendc

namespace AscendC {

template <class T>
void DumpAccChkPoint(const LocalTensor<T>& tensor, uint32_t index, uint32_t countOff,
                     uint32_t dumpSize) {
  if (countOff > tensor.GetSize()) {
    ::npud::ascendc::Fail("DumpAccChkPoint: offset %u is beyond the tensor (%u elements)", countOff,
                          tensor.GetSize());
  }
  if (uint64_t{dumpSize} * sizeof(T) > ::npud::ascendc::kDumpAccChkPointMaxBytes) return;
  DumpTensor(tensor[countOff], index, dumpSize);
}

template <class T>
void DumpAccChkPoint(const GlobalTensor<T>& tensor, uint32_t index, uint32_t countOff,
                     uint32_t dumpSize) {
  if (uint64_t{dumpSize} * sizeof(T) > ::npud::ascendc::kDumpAccChkPointMaxBytes) return;
  DumpTensor(tensor[countOff], index, dumpSize);
}

// Not inlined: pcPtr is the address this call returns to, as a call site's.
[[gnu::noinline]] inline void PrintTimeStamp(uint32_t descId) {
  if constexpr (::npud::ascendc::kTimeStamps) {
    const int64_t now = std::chrono::duration_cast<std::chrono::nanoseconds>(
                            std::chrono::steady_clock::now().time_since_epoch())
                            .count() /
                        20;
    const uint64_t pc =
        reinterpret_cast<uintptr_t>(__builtin_return_address(0)) & 0xFFFFFFFFFFFFull;
    ::npud::ascendc::EmitFormatted(
        "descId is %u, rsv is 0, timeStamp is %lld, pcPtr is %llu, entry is %lld.\n", descId,
        static_cast<long long>(now), static_cast<unsigned long long>(pc),
        static_cast<long long>(::npud::ascendc::tls_block.entry_cycle));
  } else {
    static_cast<void>(descId);
  }
}

}  // namespace AscendC

#endif  // NPUD_ASCENDC_DEBUG_DUMP_H_
