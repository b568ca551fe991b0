// utils/debug/asc_dump.h: the asc_dump_* functions of CANN 9, which print `count`
// elements of a buffer with a user id (`desc`), like DumpTensor: a header line
// naming the buffer's position, then the values (npud_ascendc/printf.h, Dump).
// Pointers are host addresses here; UB pointers are shown as their UB offset.
#ifndef NPUD_UTILS_DEBUG_ASC_DUMP_H_
#define NPUD_UTILS_DEBUG_ASC_DUMP_H_

#include <cstdint>

#include "npud_ascendc/printf.h"

namespace npud::ascendc {

template <class T>
void AscDump(const T* data, const char* position, uint32_t desc, uint32_t count) {
  if constexpr (kDeviceOutput) {
    uint64_t addr = reinterpret_cast<uint64_t>(data);
    const NpudBlockContext* ctx = Context();
    if (ctx != nullptr && addr >= reinterpret_cast<uint64_t>(ctx->ub_base) &&
        addr < reinterpret_cast<uint64_t>(ctx->ub_base) + ctx->ub_size) {
      addr -= reinterpret_cast<uint64_t>(ctx->ub_base);
    }
    Dump(data, addr, position, desc, count);
  }
}

}  // namespace npud::ascendc

template <class T>
void asc_dump_gm(const T* data, uint32_t desc, uint32_t count) {
  ::npud::ascendc::AscDump(data, "GM", desc, count);
}
template <class T>
void asc_dump_ubuf(const T* data, uint32_t desc, uint32_t count) {
  ::npud::ascendc::AscDump(data, "UB", desc, count);
}
template <class T>
void asc_dump_l1buf(const T* data, uint32_t desc, uint32_t count) {
  ::npud::ascendc::AscDump(data, "L1", desc, count);
}
template <class T>
void asc_dump_cbuf(const T* data, uint32_t desc, uint32_t count) {
  ::npud::ascendc::AscDump(data, "L0C", desc, count);
}
template <class T>
void asc_dump(const T* data, uint32_t desc, uint32_t count) {
  ::npud::ascendc::AscDump(data, "UB", desc, count);
}

#endif  // NPUD_UTILS_DEBUG_ASC_DUMP_H_
