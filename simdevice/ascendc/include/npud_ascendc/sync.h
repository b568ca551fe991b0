// sync.h: pipeline synchronisation inside one core.
//
// On the NPU the MTE2 (GM->UB), vector, cube and MTE3 (UB->GM) pipes run concurrently
// and kernels order them with barriers and set/wait flags (SetFlag/WaitFlag of a
// HardEvent, or of a TQueSync<src, dst> object). A block here executes its
// instructions one after another on one thread, so every one of these is already
// satisfied: they all do nothing. (Missing synchronisation therefore never shows up on
// the CPU, as in upstream's CPU mode.) Synchronisation between the cores of a mix
// kernel's group (CrossCoreSetFlag / CrossCoreWaitFlag) is in mix_group.h, between
// the blocks of a launch (SyncAll, IBSet / IBWait, ...) in cross_block.h.
#ifndef NPUD_ASCENDC_SYNC_H_
#define NPUD_ASCENDC_SYNC_H_

#include <cstdint>

// Hardware pipes and event ids are compiler built-ins upstream, hence global.
enum pipe_t : uint8_t {
  PIPE_S = 0,
  PIPE_V,
  PIPE_M,
  PIPE_MTE1,
  PIPE_MTE2,
  PIPE_MTE3,
  PIPE_ALL,
  PIPE_MTE4,
  PIPE_MTE5,
  PIPE_V2,
  PIPE_FIX,
};

enum event_t : uint8_t {
  EVENT_ID0 = 0,
  EVENT_ID1,
  EVENT_ID2,
  EVENT_ID3,
  EVENT_ID4,
  EVENT_ID5,
  EVENT_ID6,
  EVENT_ID7,
};

namespace AscendC {

using TEventID = int8_t;

enum class HardEvent : uint8_t {
  MTE2_MTE1,
  MTE1_MTE2,
  MTE1_M,
  M_MTE1,
  MTE2_V,
  V_MTE2,
  MTE3_V,
  V_MTE3,
  M_V,
  V_M,
  V_V,
  MTE3_MTE1,
  MTE1_MTE3,
  MTE1_V,
  MTE2_M,
  M_MTE2,
  V_MTE1,
  M_FIX,
  FIX_M,
  MTE3_MTE2,
  MTE2_MTE3,
  S_V,
  V_S,
  S_MTE2,
  MTE2_S,
  S_MTE3,
  MTE3_S,
  MTE2_FIX,
  FIX_MTE2,
  FIX_S,
  M_S,
  FIX_MTE3,
  MTE1_FIX,
  FIX_MTE1,
  FIX_FIX,
  MAX,
};

template <pipe_t pipe>
inline void PipeBarrier() {}

template <HardEvent event>
inline void SetFlag(int32_t /*event_id*/) {}

template <HardEvent event>
inline void WaitFlag(int32_t /*event_id*/) {}

// SetFlag/WaitFlag with the two pipes as class parameters. A pipe cannot wait on
// itself; upstream rejects that at compile time, and so does this.
template <pipe_t src, pipe_t dst>
class TQueSync {
 public:
  static_assert(src != dst, "TQueSync: the source and destination pipes must differ");
  void SetFlag(TEventID /*id*/) {}
  void WaitFlag(TEventID /*id*/) {}
};

}  // namespace AscendC

#endif  // NPUD_ASCENDC_SYNC_H_
