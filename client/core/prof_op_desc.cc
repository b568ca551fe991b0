#include "client/core/prof_op_desc.h"

#include <array>
#include <cstring>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "common/acl_status.h"

namespace npud::client {
namespace {

// CRC-32C (reflected polynomial 0x82F63B78) of bytes [4, 80), started at
// 0xFFFFFFFF and not inverted at the end, as CANN signs its records.
uint32_t Sign(const ProfOpDesc& desc) {
  static const std::array<uint32_t, 256> table = [] {
    std::array<uint32_t, 256> t{};
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = (c & 1) != 0 ? (c >> 1) ^ 0x82F63B78u : c >> 1;
      t[i] = c;
    }
    return t;
  }();
  const auto* bytes = reinterpret_cast<const unsigned char*>(&desc);
  uint32_t s = 0xFFFFFFFFu;
  for (size_t i = sizeof(desc.signature); i < sizeof(desc); ++i) {
    s = table[(s ^ bytes[i]) & 0xFF] ^ (s >> 8);
  }
  return s;
}

struct OpTexts {
  std::string type;
  std::string name;
  bool type_taken = false;
  bool name_taken = false;
};

struct Names {
  absl::Mutex mu;
  uint64_t next ABSL_GUARDED_BY(mu) = 1;
  absl::flat_hash_map<uint64_t, OpTexts> texts ABSL_GUARDED_BY(mu);
};

Names& TheNames() {
  static Names* names = new Names;
  return *names;
}

absl::Status Invalid(const std::string& why) { return AclError(kAclInvalidParam, why); }

absl::StatusOr<std::string> FindOpText(uint64_t op_index, OpText which, bool take) {
  Names& names = TheNames();
  absl::MutexLock lock(&names.mu);
  auto it = names.texts.find(op_index);
  const bool type = which == OpText::kType;
  if (it == names.texts.end() || (type ? it->second.type_taken : it->second.name_taken)) {
    return Invalid(absl::StrCat("operator ", op_index, " is unknown, or its ",
                                type ? "type" : "name", " was read already"));
  }
  std::string text = type ? it->second.type : it->second.name;
  if (take) {
    (type ? it->second.type_taken : it->second.name_taken) = true;
    if (it->second.type_taken && it->second.name_taken) names.texts.erase(it);
  }
  return text;
}

}  // namespace

ProfOpDesc MakeOpDesc(uint32_t model_id, uint32_t device_id, uint32_t thread_id,
                      const std::string& type, const std::string& name, uint64_t start_ns,
                      uint64_t end_ns) {
  ProfOpDesc desc;
  std::memset(&desc, 0, sizeof(desc));  // the padding is signed too
  desc.model_id = model_id;
  desc.flag = 0;  // ACL_SUBSCRIBE_OP
  desc.thread_id = thread_id;
  {
    Names& names = TheNames();
    absl::MutexLock lock(&names.mu);
    desc.op_index = names.next++;
    names.texts[desc.op_index] = OpTexts{type, name};
  }
  desc.start = start_ns;
  desc.end = end_ns;
  desc.duration = end_ns - start_ns;
  desc.execution_time = desc.duration;
  desc.device_id = device_id;
  desc.signature = Sign(desc);
  return desc;
}

absl::StatusOr<uint32_t> OpDescCount(const void* data, size_t length) {
  if (data == nullptr) return Invalid("opInfo is null");
  const uint32_t bytes = static_cast<uint32_t>(length);  // CANN reads it as 32 bits
  if (bytes % sizeof(ProfOpDesc) != 0) {
    return Invalid(absl::StrCat("opInfoLen ", bytes, " is not a multiple of ", sizeof(ProfOpDesc)));
  }
  for (uint32_t at = 0; at < bytes; at += sizeof(ProfOpDesc)) {
    ProfOpDesc desc;
    std::memcpy(&desc, static_cast<const char*>(data) + at, sizeof(desc));
    if (desc.signature != Sign(desc)) {
      return Invalid(absl::StrCat("record ", at / sizeof(ProfOpDesc), " is not signed"));
    }
  }
  return bytes / static_cast<uint32_t>(sizeof(ProfOpDesc));
}

absl::StatusOr<ProfOpDesc> OpDescAt(const void* data, size_t length, uint32_t index) {
  absl::StatusOr<uint32_t> count = OpDescCount(data, length);
  if (!count.ok()) return count.status();
  if (index >= *count)
    return Invalid(absl::StrCat("index ", index, " is past ", *count, " records"));
  ProfOpDesc desc;
  std::memcpy(&desc, static_cast<const char*>(data) + index * sizeof(ProfOpDesc), sizeof(desc));
  return desc;
}

absl::StatusOr<std::string> PeekOpText(uint64_t op_index, OpText which) {
  return FindOpText(op_index, which, false);
}

absl::StatusOr<std::string> TakeOpText(uint64_t op_index, OpText which) {
  return FindOpText(op_index, which, true);
}

}  // namespace npud::client
