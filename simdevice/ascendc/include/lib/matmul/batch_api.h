// lib/matmul/batch_api.h: the batch calls of AscendC::Matmul (IterateBatch,
// IterateNBatch, SetBatchNum, GetBatchTensorC, SetWorkspace), a base of the Matmul
// class in lib/matmul_intf.h, which computes the batches (its RunBatches, with the
// operand places of lib/matmul/batch_layout.h).
//
// batchA matrices of A times batchB of B: the fewer are broadcast (batch j of C takes
// A's j / (batchC / batchA)). Each batch is a singleCoreM x singleCoreN x singleCoreK
// product over the whole walk of base blocks, plus the bias row of batch j
// (isBiasBatch) or the one bias row. The asynchronous forms run synchronously.
#ifndef NPUD_LIB_MATMUL_BATCH_API_H_
#define NPUD_LIB_MATMUL_BATCH_API_H_

#include <cstdint>
#include <type_traits>

#include "kernel_operator.h"

namespace AscendC::npud_matmul {

template <class Derived, class TC>
class BatchApi {
 public:
  template <bool kSync = true, bool kWaitIterateBatch = false>
  void IterateBatch(const GlobalTensor<TC>& c, uint32_t batchA, uint32_t batchB,
                    bool enSequentialWrite, const uint32_t matrixStrideA = 0,
                    const uint32_t matrixStrideB = 0, const uint32_t /*matrixStrideC*/ = 0,
                    const bool /*enPartialSum*/ = false, const uint8_t enAtomic = 0) {
    Self().RunBatches(c.GetPhyAddr(), 0, batchA, batchB, enSequentialWrite, matrixStrideA,
                      matrixStrideB, enAtomic);
  }
  // In the UB the batches lie one after the other, each dense.
  template <bool kSync = true>
  void IterateBatch(const LocalTensor<TC>& c, uint32_t batchA, uint32_t batchB,
                    bool /*enSequentialWrite*/, const uint32_t matrixStrideA = 0,
                    const uint32_t matrixStrideB = 0, const uint32_t /*matrixStrideC*/ = 0,
                    const bool /*enPartialSum*/ = false, const uint8_t enAtomic = 0) {
    Self().RunBatches(c.Data(), 0, batchA, batchB, true, matrixStrideA, matrixStrideB, enAtomic);
  }
  // The cube-only form, with the counts of SetBatchNum (a template taking a bool only,
  // so that IterateBatch(c, 3, 3, false) is the form above).
  template <class PartialSum, std::enable_if_t<std::is_same_v<PartialSum, bool>, int> = 0>
  void IterateBatch(const GlobalTensor<TC>& c, PartialSum /*enPartialSum*/, uint8_t enAtomic,
                    bool enSequentialWrite, const uint32_t matrixStrideA = 0,
                    const uint32_t matrixStrideB = 0, const uint32_t /*matrixStrideC*/ = 0) {
    Self().RunBatches(c.GetPhyAddr(), 0, batch_a_, batch_b_, enSequentialWrite, matrixStrideA,
                      matrixStrideB, enAtomic);
  }
  void SetBatchNum(int32_t batchA, int32_t batchB) {
    batch_a_ = static_cast<uint32_t>(batchA);
    batch_b_ = static_cast<uint32_t>(batchB);
  }
  // batchLoop rounds of IterateBatch over consecutive batches, C into the workspace
  // (SetWorkspace) at its layout's places.
  template <bool kSync = true, bool kWaitIterateBatch = false>
  void IterateNBatch(const uint32_t batchLoop, uint32_t batchA, uint32_t batchB,
                     bool enSequentialWrite, const uint32_t matrixStrideA = 0,
                     const uint32_t matrixStrideB = 0, const uint32_t /*matrixStrideC*/ = 0) {
    if (workspace_ == nullptr) {
      ::npud::ascendc::Fail("Matmul::IterateNBatch: SetWorkspace comes first");
    }
    for (uint32_t round = 0; round < batchLoop; ++round) {
      Self().RunBatches(static_cast<TC*>(workspace_), round, batchA, batchB, enSequentialWrite,
                        matrixStrideA, matrixStrideB, 0);
    }
  }
  // After IterateNBatch the results are in the workspace already.
  template <bool kSync = true>
  GlobalTensor<TC> GetBatchTensorC(uint32_t /*batchA*/, uint32_t /*batchB*/,
                                   bool /*enSequentialWrite*/ = false) {
    GlobalTensor<TC> out;
    out.SetGlobalBuffer(static_cast<TC*>(workspace_));
    return out;
  }
  template <bool kSync = true>
  void GetBatchTensorC(const LocalTensor<TC>& /*c*/, uint32_t /*batchA*/, uint32_t /*batchB*/,
                       bool /*enSequentialWrite*/ = false) {}
  void WaitIterateBatch() {}

  // The GM scratch the NPU's asynchronous forms stage C in; IterateNBatch writes there.
  template <class T>
  void SetWorkspace(const GlobalTensor<T>& workspace) {
    workspace_ = workspace.GetPhyAddr();
  }
  template <class T>
  void SetWorkspace(__gm__ const T* addr, int /*size*/) {
    workspace_ = const_cast<T*>(addr);
  }

 private:
  Derived& Self() { return static_cast<Derived&>(*this); }

  uint32_t batch_a_ = 1, batch_b_ = 1;
  void* workspace_ = nullptr;
};

}  // namespace AscendC::npud_matmul

#endif  // NPUD_LIB_MATMUL_BATCH_API_H_
