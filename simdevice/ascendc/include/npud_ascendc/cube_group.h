// cube_group.h: Cube group management on the 910B family (dav-2201): KfcWorkspace,
// CubeResGroupHandle and CreateCubeResGroup, through which vector cores (clients)
// send messages to cube cores (servers) of any block of a mix launch.
//
// The message table lives in the kernel's GM workspace (zeroed by the kernel's
// caller), with the reference's layout, since kernels address it: a group of
// aicSize = blockSize / 2 cube cores (blocks blockStart / 2 ...) and msgQueueSize
// queues, aivPerAic = ceil(msgQueueSize / aicSize) queues per cube core (the last
// one may have fewer). Each cube core owns aivPerAic * 4 messages: 4 rows (the queue
// depth) of one message per queue. Queue q is column q % aivPerAic of cube core
// q / aivPerAic; its vector core allocates down its column, cycling after row 3.
// The cube core reads row by row, column by column, skipping queues that quit.
//
// A message is the kernel's own struct, a multiple of 64 bytes, starting with a
// CubeGroupMsgHead {state, aivID}: FREE (the vector core may allocate it), VALID
// (the cube core runs the callback on it), QUIT (the queue ends), FAKE (merged into
// an earlier message; the callback frees it with FreeMessage(msg, FAKE) and skips it
// with SetSkipMsg). A message's body is stored before its state, so a core that
// sees the state sees the body. Waits (AllocMessage, Wait, the cube core's receive,
// FreeMessage(msg, state)) let the launch's other blocks run (cross_block.h's
// WaitUntil) and fail the block when nothing can ever change the state.
//
// CreateCubeResGroup on a cube core of the group runs the server: it builds the
// compute object (MatmulApiType) and the callback object, calls Init, then receives
// messages until every queue of its column set has quit, and returns. Elsewhere it
// returns the handle at once. PipeMode::MTE3_MODE stages the message in the last
// 1600 + sizeof(message) bytes of the UB, as the reference's vector cores do.
#ifndef NPUD_ASCENDC_CUBE_GROUP_H_
#define NPUD_ASCENDC_CUBE_GROUP_H_

#include <cstdint>
#include <cstring>

#include "npud_ascendc/block_context.h"
#include "npud_ascendc/check.h"
#include "npud_ascendc/cross_block.h"
#include "npud_ascendc/group_barrier.h"
#include "npud_ascendc/qualifiers.h"

namespace AscendC {

enum class CubeMsgState : uint8_t { FREE = 0, VALID, QUIT, FAKE };

struct CubeGroupMsgHead {
  volatile CubeMsgState msgState = CubeMsgState::FREE;
  volatile uint8_t aivID;
};

// Dispatch on a message's function id in callbacks: IsEqual<a, b>::Type is void
// only when a == b.
template <int32_t ActualFuncId, int32_t ExpectFuncId>
struct IsEqual {};
template <int32_t FuncId>
struct IsEqual<FuncId, FuncId> {
  using Type = void;
};

// The GM area the groups' message tables are cut from, in order of creation.
class KfcWorkspace {
 public:
  __aicore__ inline explicit KfcWorkspace(GM_ADDR workspace) : msgStart_(workspace) {}
  __aicore__ inline void UpdateKfcWorkspace(uint32_t offset) { msgStart_ += offset; }
  __aicore__ inline GM_ADDR GetKfcWorkspace() { return msgStart_; }
  __aicore__ inline ~KfcWorkspace() = default;
  KfcWorkspace() = delete;

 private:
  GM_ADDR msgStart_;
};

}  // namespace AscendC

namespace npud::ascendc {

inline constexpr uint32_t kCubeMsgDepth = 4;         // messages per queue
inline constexpr uint32_t kCubeMsgUbReserve = 1600;  // 32 bytes x 50 vector cores

template <class T>
AscendC::CubeMsgState LoadMsgState(const T* msg) {
  return static_cast<AscendC::CubeMsgState>(__atomic_load_n(
      reinterpret_cast<const volatile uint8_t*>(&msg->head.msgState), __ATOMIC_ACQUIRE));
}
template <class T>
void StoreMsgState(T* msg, AscendC::CubeMsgState state) {
  __atomic_store_n(reinterpret_cast<volatile uint8_t*>(&msg->head.msgState),
                   static_cast<uint8_t>(state), __ATOMIC_RELEASE);
}

}  // namespace npud::ascendc

namespace AscendC {

template <class CubeMsgType>
class CubeResGroupHandle;

template <int groupID, class MatmulApiType, template <class, class> class CallBack,
          class CubeMsgType>
CubeResGroupHandle<CubeMsgType> CreateCubeResGroup(KfcWorkspace& desc, uint8_t blockStart,
                                                   uint8_t blockSize, uint8_t msgQueueSize,
                                                   GM_ADDR tiling);

template <class CubeMsgType>
class CubeResGroupHandle {
 public:
  __aicore__ inline CubeResGroupHandle() = default;
  __aicore__ inline CubeResGroupHandle(GM_ADDR workspace, uint8_t blockStart, uint8_t blockSize,
                                       uint8_t msgQueueSize, uint8_t /*evtIDIn*/) {
    using ::npud::ascendc::Fail;
    if (blockStart % 2 != 0 || blockSize % 2 != 0 || blockSize == 0) {
      Fail("CubeResGroupHandle: blockStart %u and blockSize %u must be even (blockSize > 0)",
           blockStart, blockSize);
    }
    aicStart_ = blockStart / 2;
    aicSize_ = blockSize / 2;
    aivSize_ = msgQueueSize;
    aivPerAic_ = static_cast<uint8_t>((aivSize_ + aicSize_ - 1) / aicSize_);
    const int lastAic = aivSize_ - (aicSize_ - 1) * aivPerAic_;
    if (msgQueueSize == 0 || lastAic <= 0) {
      Fail("CubeResGroupHandle: %u queues leave the last of %u cube cores none", msgQueueSize,
           aicSize_);
    }
    msgSize_ = static_cast<uint16_t>(aivPerAic_ * aicSize_ * ::npud::ascendc::kCubeMsgDepth);
    msgHead_ = reinterpret_cast<__gm__ CubeMsgType*>(workspace);
    if ASCEND_IS_AIC {
      const int64_t aic = GetBlockIdx();
      aivNumForCurAic_ =
          static_cast<uint8_t>(aic == aicStart_ + aicSize_ - 1 ? lastAic : aivPerAic_);
      aivWorkState_ = (uint64_t{1} << aivNumForCurAic_) - 1;
      if (aic >= aicStart_ && aic < aicStart_ + aicSize_) {
        msgHead_ += (aic - aicStart_) * aivPerAic_ * ::npud::ascendc::kCubeMsgDepth;
      }
    }
    msgCurrent_ = msgHead_;
  }

  // Vector cores: take queue queueIdIn, column queueIdIn % aivPerAic of cube core
  // queueIdIn / aivPerAic.
  __aicore__ inline void AssignQueue(uint8_t queueIdIn) {
    if (queueIdIn >= aivSize_) {
      ::npud::ascendc::Fail("AssignQueue(%u): the group has queues 0..%u", queueIdIn, aivSize_ - 1);
    }
    if ASCEND_IS_AIV {
      const uint8_t aic = queueIdIn / aivPerAic_;
      const uint8_t column = queueIdIn % aivPerAic_;
      queueId_ = queueIdIn;
      aivNumForCurAic_ =
          aic != aicSize_ - 1 ? aivPerAic_ : static_cast<uint8_t>(aivSize_ - aic * aivPerAic_);
      msgHead_ += aic * aivPerAic_ * ::npud::ascendc::kCubeMsgDepth + column;
      msgCurrent_ = msgHead_;
      msgPos_ = 0;
    }
  }

  // Vector cores: the queue's next message once the cube core has freed it.
  template <PipeMode pipeMode = PipeMode::SCALAR_MODE>
  __aicore__ inline __gm__ CubeMsgType* AllocMessage() {
    if ASCEND_IS_AIV {
      __gm__ CubeMsgType* msg = msgCurrent_;
      ::npud::ascendc::WaitUntil("CubeResGroupHandle::AllocMessage", [&] {
        return ::npud::ascendc::LoadMsgState(msg) == CubeMsgState::FREE;
      });
      msgPos_ = msgPos_ == ::npud::ascendc::kCubeMsgDepth - 1 ? 0 : msgPos_ + 1;
      msgCurrent_ = msgHead_ + msgPos_ * aivPerAic_;
      return msg;
    }
    return msgCurrent_;
  }

  // Vector cores: writes msgInput (its head's state too, VALID as callers set it) to
  // msg, the body first; returns msg's offset from the queue's first message.
  template <PipeMode pipeMode = PipeMode::SCALAR_MODE>
  __aicore__ inline uint16_t PostMessage(__gm__ CubeMsgType* msg, CubeMsgType& msgInput) {
    static_assert(sizeof(CubeMsgType) >= sizeof(CubeGroupMsgHead), "a message starts with a head");
    if ASCEND_IS_AIV {
      const uint8_t* from = reinterpret_cast<const uint8_t*>(&msgInput);
      if constexpr (pipeMode == PipeMode::MTE3_MODE) {
        // Staged in the UB, as the reference's MTE3 copy is.
        const NpudBlockContext* ctx = ::npud::ascendc::Context();
        if (ctx != nullptr &&
            ctx->ub_size >= ::npud::ascendc::kCubeMsgUbReserve + sizeof(CubeMsgType)) {
          uint8_t* staged = ctx->ub_base + ctx->ub_size - ::npud::ascendc::kCubeMsgUbReserve -
                            sizeof(CubeMsgType);
          std::memcpy(staged, from, sizeof(CubeMsgType));
          from = staged;
        }
      }
      uint8_t* to = reinterpret_cast<uint8_t*>(msg);
      std::memcpy(to + 1, from + 1, sizeof(CubeMsgType) - 1);
      ::npud::ascendc::StoreMsgState(msg, static_cast<CubeMsgState>(from[0]));
    }
    return static_cast<uint16_t>(msg - msgHead_);
  }

  // Cube cores: the message is done.
  __aicore__ inline uint16_t FreeMessage(__gm__ CubeMsgType* msg) {
    if ASCEND_IS_AIC {
      ::npud::ascendc::StoreMsgState(msg, CubeMsgState::FREE);
    }
    return static_cast<uint16_t>(msg - msgHead_);
  }
  // Cube cores: once the message is in waitState (FAKE, for merged messages), done.
  __aicore__ inline uint16_t FreeMessage(__gm__ CubeMsgType* msg, CubeMsgState waitState) {
    if (waitState == CubeMsgState::QUIT || waitState == CubeMsgState::FREE) {
      ::npud::ascendc::Fail("FreeMessage: the state to wait for may not be QUIT or FREE");
    }
    if ASCEND_IS_AIC {
      ::npud::ascendc::WaitUntil("CubeResGroupHandle::FreeMessage",
                                 [&] { return ::npud::ascendc::LoadMsgState(msg) == waitState; });
      ::npud::ascendc::StoreMsgState(msg, CubeMsgState::FREE);
    }
    return static_cast<uint16_t>(msg - msgHead_);
  }

  // Vector cores: this queue's message is merged into another one.
  __aicore__ inline uint16_t PostFakeMsg(__gm__ CubeMsgType* msg) {
    if ASCEND_IS_AIV {
      ::npud::ascendc::StoreMsgState(msg, CubeMsgState::FAKE);
    }
    return static_cast<uint16_t>(msg - msgHead_);
  }

  // Vector cores: the queue ends; its cube core stops reading it.
  __aicore__ inline void SetQuit(__gm__ CubeMsgType* msg) {
    if ASCEND_IS_AIV {
      msg->head.aivID = static_cast<uint8_t>(queueId_ % aivPerAic_);
      ::npud::ascendc::StoreMsgState(msg, CubeMsgState::QUIT);
    }
  }

  // Cube cores, in a callback: the next skipCnt messages of the row are merged into
  // this one and are not read (the row may not be left).
  __aicore__ inline void SetSkipMsg(uint8_t skipCnt) {
    if ASCEND_IS_AIC {
      if (aivWork_ + skipCnt >= aivNumForCurAic_) {
        ::npud::ascendc::Fail(
            "SetSkipMsg(%u): queue %u of a row of %u cannot skip past the row's end", skipCnt,
            aivWork_, aivNumForCurAic_);
      }
      aivWork_ = static_cast<uint8_t>(aivWork_ + skipCnt);
      msgPos_ = static_cast<uint16_t>(msgPos_ + skipCnt);
    }
  }

  // Vector cores: whether the cube core has freed the message at `offset`; with
  // sync, waits until it has.
  template <bool sync = true>
  __aicore__ inline bool Wait(uint16_t offset) {
    if ASCEND_IS_AIV {
      __gm__ CubeMsgType* msg = msgHead_ + offset;
      if constexpr (sync) {
        ::npud::ascendc::WaitUntil("CubeResGroupHandle::Wait", [&] {
          return ::npud::ascendc::LoadMsgState(msg) == CubeMsgState::FREE;
        });
        return true;
      } else {
        return ::npud::ascendc::LoadMsgState(msg) == CubeMsgState::FREE;
      }
    }
    return true;
  }

 private:
  template <int groupID, class MatmulApiType, template <class, class> class CallBack, class T>
  friend CubeResGroupHandle<T> CreateCubeResGroup(KfcWorkspace&, uint8_t, uint8_t, uint8_t,
                                                  GM_ADDR);

  bool InGroup() const {
    const int64_t aic = GetBlockIdx();
    return aic >= aicStart_ && aic < aicStart_ + aicSize_;
  }
  // The cube core's next message: the next queue of the row, or the first of the
  // next row (after row 3, row 0), skipping queues that quit.
  void Advance() {
    do {
      if (aivWork_ + 1 >= aivNumForCurAic_) {
        const uint32_t row = msgPos_ / aivPerAic_;
        msgPos_ = row == ::npud::ascendc::kCubeMsgDepth - 1
                      ? 0
                      : static_cast<uint16_t>((row + 1) * aivPerAic_);
        aivWork_ = 0;
      } else {
        ++msgPos_;
        ++aivWork_;
      }
      msgCurrent_ = msgHead_ + msgPos_;
    } while (aivWorkState_ != 0 && (aivWorkState_ & (uint64_t{1} << aivWork_)) == 0);
  }
  // The cube core's server loop.
  template <class Compute, class Callbacks>
  void Serve(Compute& mm, Callbacks& callbacks) {
    while (aivWorkState_ != 0) {
      __gm__ CubeMsgType* msg = msgCurrent_;
      ::npud::ascendc::WaitUntil("CubeResGroupHandle (cube core waiting for a message)", [&] {
        return ::npud::ascendc::LoadMsgState(msg) != CubeMsgState::FREE;
      });
      if (::npud::ascendc::LoadMsgState(msg) == CubeMsgState::QUIT) {
        aivWorkState_ &= ~(uint64_t{1} << msg->head.aivID);
      } else {
        callbacks.Call(mm, msg, *this);
      }
      Advance();
    }
  }

  uint8_t aicStart_ = 0;
  uint8_t aicSize_ = 0;
  uint8_t aivSize_ = 0;
  uint8_t aivPerAic_ = 0;
  uint8_t aivNumForCurAic_ = 0;
  uint8_t queueId_ = 0;
  __gm__ CubeMsgType* msgHead_ = nullptr;     // cube core: its table; vector core: its queue
  __gm__ CubeMsgType* msgCurrent_ = nullptr;  // the next message to allocate / read
  uint16_t msgPos_ = 0;        // cube core: messages from msgHead_; vector core: rows
  uint16_t msgSize_ = 0;       // messages in the group's table
  uint64_t aivWorkState_ = 0;  // cube core: the queues that have not quit
  uint8_t aivWork_ = 0;        // cube core: the queue (column) msgCurrent_ is in

 public:
  // The group's table size in messages (the workspace it takes).
  uint16_t MessageCount() const { return msgSize_; }
};

template <int groupID, class MatmulApiType, template <class, class> class CallBack,
          class CubeMsgType>
CubeResGroupHandle<CubeMsgType> CreateCubeResGroup(KfcWorkspace& desc, uint8_t blockStart,
                                                   uint8_t blockSize, uint8_t msgQueueSize,
                                                   GM_ADDR tiling) {
  if (sizeof(CubeMsgType) % 64 != 0) {
    ::npud::ascendc::Fail(
        "CreateCubeResGroup: the message type has %zu bytes, not a multiple of 64",
        sizeof(CubeMsgType));
  }
  CubeResGroupHandle<CubeMsgType> handle(desc.GetKfcWorkspace(), blockStart, blockSize,
                                         msgQueueSize, 0);
  desc.UpdateKfcWorkspace(static_cast<uint32_t>(handle.MessageCount() * sizeof(CubeMsgType)));
  if ASCEND_IS_AIV {
    return handle;
  }
  if (!handle.InGroup()) return handle;
  MatmulApiType mm;
  CallBack<MatmulApiType, CubeMsgType> callbacks;
  callbacks.Init(callbacks, mm, tiling);
  handle.Serve(mm, callbacks);
  return handle;
}

}  // namespace AscendC

#endif  // NPUD_ASCENDC_CUBE_GROUP_H_
