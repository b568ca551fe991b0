// Kernels for cube group management (npud_ascendc/cube_group.h): vector cores of
// several blocks send messages to cube cores of others through a KfcWorkspace, and
// the cube cores' callbacks log what they served (cube_group_test.cc).
#include "kernel_operator.h"

using namespace AscendC;

namespace {

// A message: the head, then the kernel's own fields; 64 bytes.
struct TestMsg {
  CubeGroupMsgHead head;
  uint8_t funcId;
  uint8_t skipCnt;
  uint32_t value;
  uint32_t queue;
  uint32_t pad[13];
};
static_assert(sizeof(TestMsg) == 64, "messages are 64-byte multiples");

// The cube core's compute object: where it logs, and how much.
struct Logger {
  __gm__ int32_t* log = nullptr;  // per cube core: [0] count, then the values served
  int32_t bias = 0;
};

template <class Compute, class Msg>
struct LogCallbacks {
  // tiling: {bias, log address low, log address high}.
  static void Init(LogCallbacks& /*self*/, Compute& mm, GM_ADDR tiling) {
    const __gm__ uint32_t* t = reinterpret_cast<const __gm__ uint32_t*>(tiling);
    mm.bias = static_cast<int32_t>(t[0]);
    const uint64_t base = t[1] | (static_cast<uint64_t>(t[2]) << 32);
    mm.log = reinterpret_cast<__gm__ int32_t*>(base) + GetBlockIdx() * 64;
  }
  static void Call(Compute& mm, __gm__ Msg* msg, CubeResGroupHandle<Msg>& handle) {
    mm.log[1 + mm.log[0]++] = static_cast<int32_t>(msg->value) + mm.bias;
    if (msg->funcId == 1) {
      // Merged: the next skipCnt queues sent FAKE messages.
      handle.FreeMessage(msg, CubeMsgState::VALID);
      for (uint32_t i = 1; i <= msg->skipCnt; ++i) handle.FreeMessage(msg + i, CubeMsgState::FAKE);
      handle.SetSkipMsg(msg->skipCnt);
    } else {
      handle.FreeMessage(msg);
    }
  }
};

TestMsg Message(uint8_t funcId, uint8_t skipCnt, uint32_t value, uint32_t queue) {
  TestMsg m{};
  m.head.msgState = CubeMsgState::VALID;
  m.head.aivID = static_cast<uint8_t>(queue);
  m.funcId = funcId;
  m.skipCnt = skipCnt;
  m.value = value;
  m.queue = queue;
  return m;
}

}  // namespace

// Two cube cores (blocks 0 and 1) serve four queues, one per vector core; the table
// starts 256 bytes into the workspace. Vector core q sends `count` messages of
// value q * 100 + i (odd queues through MTE3, staged in the UB), waits for the last,
// and quits.
// ends[core] is where each core's KfcWorkspace ended up, relative to the workspace.
extern "C" __global__ __mix__(1, 2) void cube_group_serve(GM_ADDR workspace, GM_ADDR tiling,
                                                          __gm__ int64_t* ends, uint32_t count) {
  KfcWorkspace desc(workspace);
  desc.UpdateKfcWorkspace(256);
  auto handle = CreateCubeResGroup<1, Logger, LogCallbacks, TestMsg>(desc, 0, 4, 4, tiling);
  const int64_t slot = ASCEND_IS_AIC ? GetBlockIdx() : 2 + GetBlockIdx();
  ends[slot] = desc.GetKfcWorkspace() - workspace;
  if ASCEND_IS_AIV {
    const uint32_t q = static_cast<uint32_t>(GetBlockIdx());
    handle.AssignQueue(static_cast<uint8_t>(q));
    uint16_t offset = 0;
    for (uint32_t i = 0; i < count; ++i) {
      TestMsg m = Message(0, 0, q * 100 + i, q);
      if (q % 2 == 0) {
        offset = handle.PostMessage(handle.AllocMessage(), m);
      } else {
        offset = handle.PostMessage<PipeMode::MTE3_MODE>(
            handle.AllocMessage<PipeMode::MTE3_MODE>(), m);
        // MTE3 messages pass through the UB's last 1600 + 64 bytes (a 192 KiB UB).
        LocalTensor<uint32_t> staged(TPosition::VECCALC, 196608 - 1600 - 64, 16);
        if (staged.GetValue(1) != m.value) ends[6 + q] = -2;
      }
    }
    handle.Wait(offset);
    if (!handle.Wait<false>(offset)) ends[6 + q] = -1;  // freed already: must say so
    handle.SetQuit(handle.AllocMessage());
  }
}

// One cube core (block 0) serves four queues (the vector cores of blocks 0 and 1).
// Round 1: queue 0 sends a message merged with the next two (funcId 1, skipCnt 2),
// queues 1 and 2 send FAKE messages, queue 3 its own; round 2: every queue its own. Each vector core
// waits for its messages and records done[q] = 1 per round it saw through.
extern "C" __global__ __mix__(1, 2) void cube_group_merge(GM_ADDR workspace, GM_ADDR tiling,
                                                          __gm__ int32_t* done) {
  KfcWorkspace desc(workspace);
  auto handle = CreateCubeResGroup<2, Logger, LogCallbacks, TestMsg>(desc, 0, 2, 4, tiling);
  if ASCEND_IS_AIV {
    const uint32_t q = static_cast<uint32_t>(GetBlockIdx());
    handle.AssignQueue(static_cast<uint8_t>(q));
    __gm__ TestMsg* msg = handle.AllocMessage();
    uint16_t offset;
    if (q == 0) {
      TestMsg m = Message(1, 2, 1000, q);
      offset = handle.PostMessage(msg, m);
    } else if (q == 3) {
      TestMsg m = Message(0, 0, 1003, q);
      offset = handle.PostMessage(msg, m);
    } else {
      offset = handle.PostFakeMsg(msg);
    }
    handle.Wait(offset);
    done[q] += 1;
    TestMsg m = Message(0, 0, 2000 + q, q);
    offset = handle.PostMessage(handle.AllocMessage(), m);
    handle.Wait(offset);
    done[q] += 1;
    handle.SetQuit(handle.AllocMessage());
  }
}

// A vector core that never quits: its cube core waits for ever, which must fail.
extern "C" __global__ __mix__(1, 2) void cube_group_no_quit(GM_ADDR workspace, GM_ADDR tiling) {
  KfcWorkspace desc(workspace);
  auto handle = CreateCubeResGroup<3, Logger, LogCallbacks, TestMsg>(desc, 0, 2, 2, tiling);
  if ASCEND_IS_AIV {
    handle.AssignQueue(static_cast<uint8_t>(GetBlockIdx()));
    if (GetBlockIdx() == 0) handle.SetQuit(handle.AllocMessage());
  }
}

NPUD_KERNEL_REGISTER_AS(cube_group_serve, NPUD_CORE_TYPE_MIX);
NPUD_KERNEL_REGISTER_AS(cube_group_merge, NPUD_CORE_TYPE_MIX);
NPUD_KERNEL_REGISTER_AS(cube_group_no_quit, NPUD_CORE_TYPE_MIX);
