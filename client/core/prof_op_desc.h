// prof_op_desc.h
//
// The records a model subscription writes to its file descriptor, one per
// operator run, and how the aclprofGetOp* calls read them back: CANN's
// 80-byte ProfOpDesc, signed with a CRC-32C of its other bytes, times in
// nanoseconds. An operator's name and type never travel in the record: they
// stay in this process under the record's op index, and each can be read
// once (as in CANN).

#ifndef NPUD_CLIENT_CORE_PROF_OP_DESC_H_
#define NPUD_CLIENT_CORE_PROF_OP_DESC_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/status/statusor.h"

namespace npud::client {

struct ProfOpDesc {
  uint32_t signature;
  uint32_t model_id;
  uint32_t flag;  // aclprofSubscribeOpFlag
  uint32_t thread_id;
  uint64_t op_index;
  uint64_t duration;
  uint64_t start;
  uint64_t end;
  uint64_t execution_time;
  uint64_t cube_fops;
  uint64_t vector_fops;
  uint32_t device_id;
};
static_assert(sizeof(ProfOpDesc) == 80, "CANN's record is 80 bytes");

// A record of an operator run, signed, with its name and type kept for the
// readers.
ProfOpDesc MakeOpDesc(uint32_t model_id, uint32_t device_id, uint32_t thread_id,
                      const std::string& type, const std::string& name, uint64_t start_ns,
                      uint64_t end_ns);

// The records in `data`: ACL_ERROR_INVALID_PARAM unless it holds whole,
// signed records.
absl::StatusOr<uint32_t> OpDescCount(const void* data, size_t length);
// Record `index` of `data` (checked as OpDescCount does).
absl::StatusOr<ProfOpDesc> OpDescAt(const void* data, size_t length, uint32_t index);

// The kept name or type of the operator of `op_index`; TakeOp... forgets it.
enum class OpText { kType, kName };
absl::StatusOr<std::string> PeekOpText(uint64_t op_index, OpText which);
absl::StatusOr<std::string> TakeOpText(uint64_t op_index, OpText which);

}  // namespace npud::client

#endif  // NPUD_CLIENT_CORE_PROF_OP_DESC_H_
