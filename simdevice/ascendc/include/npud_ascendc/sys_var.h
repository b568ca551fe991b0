// sys_var.h: the core's system registers and its state at kernel start.
//
//   GetSystemCycle()            the system counter, 50 MHz as on the 910B (from the
//                               host's monotonic clock)
//   GetArchVersion(v)           0x220 (the 910B's AI Core, dav-2201)
//   GetDataBlockSizeInBytes()   32
//   GetProgramCounter()         the caller's return address
//   GetUBSizeInBytes(), GetVecLen()  0, as upstream's for this architecture (the
//                               sizes are Ascend 950 registers)
//   InitSocState()              normal mask mode, all lanes, no atomic copies
//   Async<EngineType, fn>(args) fn(args...) on that core type only
//   cache control               DataCacheCleanAndInvalid (a fence: GM polls between
//                               them see other blocks' writes), DataCachePreload,
//                               ICachePreLoad, DataSyncBarrier: no cache here, no-ops
//   SetSysWorkspace(ws)         the block's system workspace pointer, which
//                               GetSysWorkSpacePtr() returns (nullptr until set:
//                               nothing launches kernels with the framework's
//                               HAVE_WORKSPACE setup here)
//   GetUserWorkspace(ws)        ws past the system workspace that host tiling
//                               reserves (GetLibApiWorkSpaceSize), nullptr for a
//                               launch without a workspace
#ifndef NPUD_ASCENDC_SYS_VAR_H_
#define NPUD_ASCENDC_SYS_VAR_H_

#include <chrono>
#include <cstdint>

#include "npud_ascendc/block_context.h"
#include "npud_ascendc/qualifiers.h"
#include "npud_ascendc/sys_workspace_size.h"
#include "npud_ascendc/tensor.h"
#include "npud_ascendc/vector_mask.h"

namespace AscendC {

inline int64_t GetSystemCycle() {
  const auto now = std::chrono::steady_clock::now().time_since_epoch();
  return std::chrono::duration_cast<std::chrono::nanoseconds>(now).count() / 20;
}
inline void GetArchVersion(uint32_t& coreVersion) { coreVersion = 0x220; }
constexpr int16_t GetDataBlockSizeInBytes() { return 32; }
inline int64_t GetProgramCounter() {
  return static_cast<int64_t>(reinterpret_cast<uintptr_t>(__builtin_return_address(0)) &
                              0xFFFFFFFFFFFFull);
}
constexpr uint32_t GetUBSizeInBytes() { return 0; }
constexpr uint32_t GetVecLen() { return 0; }

inline void InitSocState() {
  SetMaskNorm();
  ResetMask();
  ::npud::ascendc::tls_block.atomic = ::npud::ascendc::AtomicMode::kNone;
}

enum class EngineType : uint8_t { AIC, AIV };
template <EngineType engine, auto funPtr, class... Args>
void Async(Args... args) {
  const bool cube = ::npud::ascendc::CoreType() == NPUD_CORE_TYPE_CUBE;
  if ((engine == EngineType::AIC) == cube) funPtr(args...);
}

enum CacheLine { SINGLE_CACHE_LINE, ENTIRE_DATA_CACHE };
enum DcciDst { CACHELINE_ALL, CACHELINE_UB, CACHELINE_OUT, CACHELINE_ATOMIC };
enum class MemDsbT : uint8_t { ALL, DDR, UB, SEQ };

}  // namespace AscendC

namespace npud::ascendc {
// There is no data cache to clean, but a kernel that polls GM between cache
// operations (a flag another block sets) relies on each read going to memory: a
// full fence that is also a compiler barrier keeps the loads in the loop, and the
// loop itself (a side-effect-free loop may otherwise be assumed to end, and go).
inline void GmFence() {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  __asm__ __volatile__("" ::: "memory");
}
}  // namespace npud::ascendc

namespace AscendC {

template <class T, CacheLine entireType, DcciDst dcciDst>
void DataCacheCleanAndInvalid(const GlobalTensor<T>&) {
  ::npud::ascendc::GmFence();
}
template <class T, CacheLine entireType, DcciDst dcciDst>
void DataCacheCleanAndInvalid(const LocalTensor<T>&) {
  ::npud::ascendc::GmFence();
}
template <class T, CacheLine entireType>
void DataCacheCleanAndInvalid(const GlobalTensor<T>&) {
  ::npud::ascendc::GmFence();
}
template <class T>
void DataCachePreload(const GlobalTensor<uint64_t>&, const T) {}
inline void ICachePreLoad(const int64_t) {}
inline int64_t GetICachePreloadStatus() { return 0; }
template <MemDsbT arg>
void DataSyncBarrier() {}

inline void SetSysWorkspace(GM_ADDR workspace) {
  ::npud::ascendc::tls_block.sys_workspace = workspace;
}
// Kernels test the result against nullptr to skip work when launched without a
// workspace, so none stays none rather than becoming an offset from null.
inline GM_ADDR GetUserWorkspace(GM_ADDR workspace) {
  return workspace == nullptr ? nullptr : workspace + ::npud::ascendc::kSysWorkspaceSize;
}

}  // namespace AscendC

// Outside AscendC, as upstream declares it.
inline __gm__ uint8_t* GetSysWorkSpacePtr() { return ::npud::ascendc::tls_block.sys_workspace; }

#endif  // NPUD_ASCENDC_SYS_VAR_H_
