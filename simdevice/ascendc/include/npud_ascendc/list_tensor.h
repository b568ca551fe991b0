// list_tensor.h: ListTensorDesc and TensorDesc, which read a list of tensors a host
// passed as one GM argument (a dynamic number of inputs).
//
// The layout, in 64-bit words: word 0 is the byte offset of the data pointers; then,
// per tensor, a word whose low half is its dim and high half its index, followed by
// dim shape values; then, at that offset, one data pointer per tensor. GetSize is the
// number of descriptors before the pointers.
#ifndef NPUD_ASCENDC_LIST_TENSOR_H_
#define NPUD_ASCENDC_LIST_TENSOR_H_

#include <cstdint>

#include "npud_ascendc/check.h"
#include "npud_ascendc/qualifiers.h"
#include "npud_ascendc/tensor.h"

namespace AscendC {

template <class T>
class TensorDesc {
 public:
  TensorDesc() = default;

  // Where GetDesc writes the shape (dim values).
  void SetShapeAddr(uint64_t* shapePtr) { shape_ = shapePtr; }
  uint64_t GetDim() { return dim_; }
  uint64_t GetIndex() { return index_; }
  uint64_t GetShape(uint32_t offset) {
    if (shape_ == nullptr || offset >= dim_) {
      ::npud::ascendc::Fail("TensorDesc::GetShape(%u): the tensor has %llu dimensions%s", offset,
                            static_cast<unsigned long long>(dim_),
                            shape_ == nullptr ? " and no shape address (SetShapeAddr)" : "");
    }
    return shape_[offset];
  }
  T* GetDataPtr() { return data_; }
  GlobalTensor<T> GetDataObj() {
    GlobalTensor<T> t;
    t.SetGlobalBuffer(data_);
    return t;
  }

  // Filled by ListTensorDesc::GetDesc.
  void NpudSet(uint64_t dim, uint64_t index, const uint64_t* shape, T* data) {
    dim_ = dim;
    index_ = index;
    data_ = data;
    if (shape_ != nullptr) {
      for (uint64_t i = 0; i < dim; ++i) shape_[i] = shape[i];
    }
  }

 private:
  uint64_t* shape_ = nullptr;
  uint64_t dim_ = 0;
  uint64_t index_ = 0;
  T* data_ = nullptr;
};

class ListTensorDesc {
 public:
  ListTensorDesc() = default;
  explicit ListTensorDesc(__gm__ void* data, uint32_t length = 0xffffffff,
                          uint32_t shapeSize = 0xffffffff) {
    Init(data, length, shapeSize);
  }

  // length (bytes) and shapeSize (pointers) only check the layout, when given.
  void Init(__gm__ void* data, uint32_t length = 0xffffffff, uint32_t shapeSize = 0xffffffff) {
    words_ = static_cast<const uint64_t*>(data);
    const uint64_t ptr_offset = words_[0];
    if (ptr_offset % 8 != 0 || ptr_offset < 8) {
      ::npud::ascendc::Fail("ListTensorDesc: the pointer offset %llu is not a word offset",
                            static_cast<unsigned long long>(ptr_offset));
    }
    pointers_ = words_ + ptr_offset / 8;
    count_ = 0;
    for (const uint64_t* w = words_ + 1; w < pointers_; w += 1 + (*w & 0xffffffffu)) ++count_;
    if (shapeSize != 0xffffffff && shapeSize != count_) {
      ::npud::ascendc::Fail("ListTensorDesc: %u data pointers expected, the list has %u", shapeSize,
                            count_);
    }
    if (length != 0xffffffff && ptr_offset + uint64_t{count_} * 8 > length) {
      ::npud::ascendc::Fail("ListTensorDesc: the list needs %llu bytes, %u were given",
                            static_cast<unsigned long long>(ptr_offset + uint64_t{count_} * 8),
                            length);
    }
  }

  template <class T>
  void GetDesc(TensorDesc<T>& desc, uint32_t index) {
    const uint64_t* w = words_ + 1;
    for (uint32_t i = 0; i < index && w < pointers_; ++i) w += 1 + (*w & 0xffffffffu);
    if (index >= count_ || w >= pointers_) Fail(index);
    desc.NpudSet(*w & 0xffffffffu, *w >> 32, w + 1, GetDataPtr<T>(index));
  }

  template <class T>
  T* GetDataPtr(uint32_t index) {
    if (index >= count_) Fail(index);
    return reinterpret_cast<T*>(static_cast<uintptr_t>(pointers_[index]));
  }

  uint32_t GetSize() { return count_; }

 private:
  void Fail(uint32_t index) const {
    ::npud::ascendc::Fail("ListTensorDesc: index %u is beyond the list's %u tensors", index,
                          count_);
  }

  const uint64_t* words_ = nullptr;
  const uint64_t* pointers_ = nullptr;
  uint32_t count_ = 0;
};

}  // namespace AscendC

#endif  // NPUD_ASCENDC_LIST_TENSOR_H_
