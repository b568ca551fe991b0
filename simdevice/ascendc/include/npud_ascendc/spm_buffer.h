// spm_buffer.h: TPipe's SPM buffer, GM a kernel spills unified-buffer data to when the
// UB is short (the L1 form, InitSpmBuffer(size), does not exist on the Atlas A2).
//
//   pipe.InitSpmBuffer(workspace, bytes)      the buffer: workspace's GM, bytes long
//   pipe.WriteSpmBuffer(local, params, off)   DataCopy(spm + off, local, params) UB->GM
//   pipe.WriteSpmBuffer(local, n, off)        n elements, as whole 32-byte blocks
//   pipe.ReadSpmBuffer(local, params | n, off)  the way back, GM->UB
//
// The offset counts elements of T, as the reference's A2 implementation adds it to a
// T pointer (its page says bytes); n is rounded down to whole 32-byte blocks as it is
// there, and n = 0 means the whole local tensor. The copies are DataCopy's (gaps in
// 32-byte blocks, atomic modes apply to writes).
// Checks (trap kind 1): InitSpmBuffer came first; the GM side of a copy stays within
// the buffer (upstream overwrites what follows).
#ifndef NPUD_ASCENDC_SPM_BUFFER_H_
#define NPUD_ASCENDC_SPM_BUFFER_H_

#include <cstdint>

#include "npud_ascendc/check.h"
#include "npud_ascendc/data_copy.h"
#include "npud_ascendc/tensor.h"
#include "npud_ascendc/tpipe.h"

namespace npud::ascendc {

// The SPM span (from the buffer's start, in bytes) a copy of `params` at element
// `offset` covers on the GM side, whose gap is `gap` blocks; fails if outside.
template <class T>
T* SpmAt(const char* what, uint8_t* base, uint64_t size, int32_t offset,
         const AscendC::DataCopyParams& params, uint16_t gap) {
  if (base == nullptr) Fail("%s: InitSpmBuffer has not been called on this TPipe", what);
  const uint64_t blocks = params.blockCount == 0 ? 0
                                                 : uint64_t{params.blockCount} * params.blockLen +
                                                       uint64_t{params.blockCount - 1u} * gap;
  const int64_t begin = int64_t{offset} * static_cast<int64_t>(sizeof(T));
  if (offset < 0 || static_cast<uint64_t>(begin) + blocks * 32 > size) {
    Fail("%s: %llu bytes at element %d exceed the SPM buffer of %llu bytes", what,
         static_cast<unsigned long long>(blocks * 32), offset,
         static_cast<unsigned long long>(size));
  }
  return reinterpret_cast<T*>(base) + offset;
}

template <class T>
AscendC::DataCopyParams SpmContiguous(const AscendC::LocalTensor<T>& local, int32_t count) {
  const uint32_t n = count != 0 ? static_cast<uint32_t>(count) : local.GetSize();
  AscendC::DataCopyParams params;
  params.blockLen = static_cast<uint16_t>(n / (32 / sizeof(T)));
  return params;
}

}  // namespace npud::ascendc

namespace AscendC {

template <class T>
void TPipe::InitSpmBuffer(const GlobalTensor<T>& workspace, const int32_t bufferSize) {
  spm_base_ = reinterpret_cast<uint8_t*>(workspace.GetPhyAddr());
  spm_size_ = bufferSize < 0 ? 0 : static_cast<uint64_t>(bufferSize);
}

template <class T>
void TPipe::WriteSpmBuffer(const LocalTensor<T>& writeBuffer, const DataCopyParams& copyParams,
                           int32_t writeOffset) {
  T* at = ::npud::ascendc::SpmAt<T>("WriteSpmBuffer", spm_base_, spm_size_, writeOffset, copyParams,
                                    copyParams.dstGap);
  GlobalTensor<T> spm;
  spm.SetGlobalBuffer(at);
  DataCopy(spm, writeBuffer, copyParams);
}
template <class T>
void TPipe::WriteSpmBuffer(const LocalTensor<T>& writeBuffer, const int32_t writeSize,
                           int32_t writeOffset) {
  WriteSpmBuffer(writeBuffer, ::npud::ascendc::SpmContiguous(writeBuffer, writeSize), writeOffset);
}

template <class T>
void TPipe::ReadSpmBuffer(const LocalTensor<T>& readBuffer, const DataCopyParams& copyParams,
                          int32_t readOffset) {
  T* at = ::npud::ascendc::SpmAt<T>("ReadSpmBuffer", spm_base_, spm_size_, readOffset, copyParams,
                                    copyParams.srcGap);
  GlobalTensor<T> spm;
  spm.SetGlobalBuffer(at);
  DataCopy(readBuffer, spm, copyParams);
}
template <class T>
void TPipe::ReadSpmBuffer(const LocalTensor<T>& readBuffer, const int32_t readSize,
                          int32_t readOffset) {
  ReadSpmBuffer(readBuffer, ::npud::ascendc::SpmContiguous(readBuffer, readSize), readOffset);
}

}  // namespace AscendC

#endif  // NPUD_ASCENDC_SPM_BUFFER_H_
