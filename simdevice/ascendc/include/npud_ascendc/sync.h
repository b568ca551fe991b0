// sync.h: pipeline synchronisation inside one core.
//
// On the NPU the MTE2 (GM->UB), vector, cube and MTE3 (UB->GM) pipes run concurrently
// and kernels order them with barriers and set/wait flags (SetFlag/WaitFlag of a
// HardEvent, or of a TQueSync<src, dst> object). A block here executes its
// instructions one after another on one thread, so the data each pipe sees is always
// ordered. The flags keep their hardware meaning all the same: each (source pipe,
// destination pipe, event id) is a counter of the core that SetFlag raises and
// WaitFlag takes; a WaitFlag with nothing to take, which would stop the NPU's core
// for good, fails the block naming the event. (Data races a missing flag would cause
// on the NPU do not show on the CPU, as in upstream's CPU mode.) Synchronisation
// between cores is in cross_core_flags.h and mix_group.h, between the blocks of a
// launch in cross_block.h.
#ifndef NPUD_ASCENDC_SYNC_H_
#define NPUD_ASCENDC_SYNC_H_

#include <cstdint>

#include "npud_ascendc/block_context.h"
#include "npud_ascendc/check.h"

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

// Every pipe's earlier instructions are done when the next one starts.
template <pipe_t pipe>
inline void PipeBarrier() {}

}  // namespace AscendC

namespace npud::ascendc {

constexpr uint32_t kPipes = static_cast<uint32_t>(PIPE_FIX) + 1;
constexpr uint32_t kEventIds = 8;

// The (source, destination) pipes of a HardEvent.
struct PipePair {
  pipe_t src;
  pipe_t dst;
};
constexpr PipePair PipesOf(AscendC::HardEvent event) {
  using E = AscendC::HardEvent;
  switch (event) {
    case E::MTE2_MTE1:
      return {PIPE_MTE2, PIPE_MTE1};
    case E::MTE1_MTE2:
      return {PIPE_MTE1, PIPE_MTE2};
    case E::MTE1_M:
      return {PIPE_MTE1, PIPE_M};
    case E::M_MTE1:
      return {PIPE_M, PIPE_MTE1};
    case E::MTE2_V:
      return {PIPE_MTE2, PIPE_V};
    case E::V_MTE2:
      return {PIPE_V, PIPE_MTE2};
    case E::MTE3_V:
      return {PIPE_MTE3, PIPE_V};
    case E::V_MTE3:
      return {PIPE_V, PIPE_MTE3};
    case E::M_V:
      return {PIPE_M, PIPE_V};
    case E::V_M:
      return {PIPE_V, PIPE_M};
    case E::V_V:
      return {PIPE_V, PIPE_V};
    case E::MTE3_MTE1:
      return {PIPE_MTE3, PIPE_MTE1};
    case E::MTE1_MTE3:
      return {PIPE_MTE1, PIPE_MTE3};
    case E::MTE1_V:
      return {PIPE_MTE1, PIPE_V};
    case E::MTE2_M:
      return {PIPE_MTE2, PIPE_M};
    case E::M_MTE2:
      return {PIPE_M, PIPE_MTE2};
    case E::V_MTE1:
      return {PIPE_V, PIPE_MTE1};
    case E::M_FIX:
      return {PIPE_M, PIPE_FIX};
    case E::FIX_M:
      return {PIPE_FIX, PIPE_M};
    case E::MTE3_MTE2:
      return {PIPE_MTE3, PIPE_MTE2};
    case E::MTE2_MTE3:
      return {PIPE_MTE2, PIPE_MTE3};
    case E::S_V:
      return {PIPE_S, PIPE_V};
    case E::V_S:
      return {PIPE_V, PIPE_S};
    case E::S_MTE2:
      return {PIPE_S, PIPE_MTE2};
    case E::MTE2_S:
      return {PIPE_MTE2, PIPE_S};
    case E::S_MTE3:
      return {PIPE_S, PIPE_MTE3};
    case E::MTE3_S:
      return {PIPE_MTE3, PIPE_S};
    case E::MTE2_FIX:
      return {PIPE_MTE2, PIPE_FIX};
    case E::FIX_MTE2:
      return {PIPE_FIX, PIPE_MTE2};
    case E::FIX_S:
      return {PIPE_FIX, PIPE_S};
    case E::M_S:
      return {PIPE_M, PIPE_S};
    case E::FIX_MTE3:
      return {PIPE_FIX, PIPE_MTE3};
    case E::MTE1_FIX:
      return {PIPE_MTE1, PIPE_FIX};
    case E::FIX_MTE1:
      return {PIPE_FIX, PIPE_MTE1};
    case E::FIX_FIX:
      return {PIPE_FIX, PIPE_FIX};
    case E::MAX:
      break;
  }
  return {PIPE_ALL, PIPE_ALL};
}

inline const char* PipeName(pipe_t pipe) {
  static constexpr const char* kNames[] = {"S",   "V",    "M",    "MTE1", "MTE2", "MTE3",
                                           "ALL", "MTE4", "MTE5", "V2",   "FIX"};
  return pipe < kPipes ? kNames[pipe] : "?";
}

// The running core's counter of (src, dst, id), allocated with its first flag.
inline uint16_t& PipeFlag(const char* op, pipe_t src, pipe_t dst, int32_t id) {
  if (src >= kPipes || dst >= kPipes || src == PIPE_ALL || dst == PIPE_ALL) {
    Fail("%s: not an event between two pipes", op);
  }
  if (id < 0 || id >= static_cast<int32_t>(kEventIds)) {
    Fail("%s<%s_%s>(%d): event ids are 0..%u", op, PipeName(src), PipeName(dst), id, kEventIds - 1);
  }
  uint16_t*& flags = tls_block.pipe_flags;
  if (flags == nullptr) flags = new uint16_t[kPipes * kPipes * kEventIds]();
  return flags[(src * kPipes + dst) * kEventIds + static_cast<uint32_t>(id)];
}

inline void RaisePipeFlag(pipe_t src, pipe_t dst, int32_t id) {
  uint16_t& flag = PipeFlag("SetFlag", src, dst, id);
  if (flag == UINT16_MAX) {
    Fail("SetFlag<%s_%s>(%d): raised %u times without a WaitFlag", PipeName(src), PipeName(dst), id,
         UINT16_MAX);
  }
  ++flag;
}

inline void TakePipeFlag(pipe_t src, pipe_t dst, int32_t id) {
  uint16_t& flag = PipeFlag("WaitFlag", src, dst, id);
  if (flag == 0) {
    Fail(
        "WaitFlag<%s_%s>(%d) with no SetFlag of that event before it: on the NPU the %s pipe "
        "would wait forever",
        PipeName(src), PipeName(dst), id, PipeName(dst));
  }
  --flag;
}

}  // namespace npud::ascendc

namespace AscendC {

template <HardEvent event>
inline void SetFlag(int32_t event_id) {
  constexpr ::npud::ascendc::PipePair pipes = ::npud::ascendc::PipesOf(event);
  static_assert(pipes.src != PIPE_ALL, "SetFlag: not a HardEvent");
  ::npud::ascendc::RaisePipeFlag(pipes.src, pipes.dst, event_id);
}

template <HardEvent event>
inline void WaitFlag(int32_t event_id) {
  constexpr ::npud::ascendc::PipePair pipes = ::npud::ascendc::PipesOf(event);
  static_assert(pipes.src != PIPE_ALL, "WaitFlag: not a HardEvent");
  ::npud::ascendc::TakePipeFlag(pipes.src, pipes.dst, event_id);
}

// SetFlag/WaitFlag with the two pipes as class parameters (the same counters as the
// HardEvent of those pipes). A pipe cannot wait on itself; upstream rejects that at
// compile time, and so does this.
template <pipe_t src, pipe_t dst>
class TQueSync {
 public:
  static_assert(src != dst, "TQueSync: the source and destination pipes must differ");
  void SetFlag(TEventID id) { ::npud::ascendc::RaisePipeFlag(src, dst, id); }
  void WaitFlag(TEventID id) { ::npud::ascendc::TakePipeFlag(src, dst, id); }
};

}  // namespace AscendC

#endif  // NPUD_ASCENDC_SYNC_H_
