// register/tilingdata_base.h: CANN's macros for a host tiling-data class,
//
//   BEGIN_TILING_DATA_DEF(Name)
//   TILING_DATA_FIELD_DEF(type, field);          set_field(v), get_field()
//   TILING_DATA_FIELD_DEF_ARR(type, n, field);   set_field(const type*), get_field()
//   TILING_DATA_FIELD_DEF_STRUCT(Struct, field); the struct itself, field.x = ...
//   END_TILING_DATA_DEF;
//   REGISTER_TILING_DATA_CLASS(OpType, Name)
//
// The class is its fields in order, at their natural alignment: the bytes
// SaveToBuffer writes are the struct a kernel declares with the same fields.
#ifndef NPUD_REGISTER_TILINGDATA_BASE_H_
#define NPUD_REGISTER_TILINGDATA_BASE_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
// CANN's tiling headers bring securec's memcpy_s along, and host tiling code written
// for CANN calls it without including securec.h (asc-devkit's deepnorm, welford and
// softmaxflashv2 examples). The install tree has it; a build without it goes on.
#if __has_include("securec.h")
#include "securec.h"
#endif

#define BEGIN_TILING_DATA_DEF(class_name) \
  class class_name {                      \
   public:                                \
    using NpudSelf = class_name;

#define TILING_DATA_FIELD_DEF(type, field)        \
  type field{};                                   \
  void set_##field(type value) { field = value; } \
  type get_##field() const { return field; }      \
  static_assert(true, "")

#define TILING_DATA_FIELD_DEF_ARR(type, count, field)                                 \
  type field[count]{};                                                                \
  void set_##field(const type* values) { std::memcpy(field, values, sizeof(field)); } \
  type* get_##field() { return field; }                                               \
  static_assert(true, "")

#define TILING_DATA_FIELD_DEF_STRUCT(struct_type, field) \
  struct_type field{};                                   \
  static_assert(true, "")

#define END_TILING_DATA_DEF                                                               \
  /* Writes the fields into `buffer` (at most `capacity` bytes). */                       \
  void SaveToBuffer(void* buffer, size_t capacity) const {                                \
    std::memcpy(buffer, this, sizeof(NpudSelf) < capacity ? sizeof(NpudSelf) : capacity); \
  }                                                                                       \
  size_t GetDataSize() const { return sizeof(NpudSelf); }                                 \
  }

// The operator registry of CANN's tiling framework; nothing to register here.
#define REGISTER_TILING_DATA_CLASS(op_type, class_name)

#endif  // NPUD_REGISTER_TILINGDATA_BASE_H_
