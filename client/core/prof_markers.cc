#include "client/core/prof_markers.h"

#include <cstring>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "client/core/client_log.h"
#include "client/core/host_trace.h"
#include "client/core/stream_ops.h"
#include "common/acl_status.h"
#include "common/monotonic_clock.h"
#include "common/status_macros.h"

namespace npud::client {
namespace {

absl::Status TxFailed(const std::string& why) { return AclError(kAclProfTxFailed, why); }

// mstx refuses messages that a spreadsheet would run as formulas.
bool AcceptedText(const char* text) {
  return text != nullptr && std::strchr("=+-@", text[0]) == nullptr && text[0] != '\0';
}

// FNV-1a: the same id for the same text in every run.
uint64_t Fnv1a(const char* text) {
  uint64_t hash = 14695981039346656037ull;
  for (; *text != '\0'; ++text) {
    hash ^= static_cast<unsigned char>(*text);
    hash *= 1099511628211ull;
  }
  return hash;
}

void RecordInstant(std::string message, std::string domain, uint64_t id = 0) {
  const int64_t now = MonotonicNanos();
  MarkerLog::Record(TraceMarker{std::move(message), std::move(domain), TraceThread(), now, now,
                                /*instant=*/true, id});
}

}  // namespace

ProfMarkers& ProfMarkers::Get() {
  static ProfMarkers* markers = new ProfMarkers;  // used until exit
  return *markers;
}

absl::Status ProfMarkers::NeedPool() const {
  if (pool_ == nullptr) {
    return TxFailed("msproftx is off: start a collection with ACL_PROF_MSPROFTX first");
  }
  return absl::OkStatus();
}

void ProfMarkers::CreatePool() {
  absl::MutexLock lock(&mu_);
  if (pool_ != nullptr) return;
  pool_ = std::make_unique<std::array<Stamp, kStamps>>();
  for (uint32_t i = 0; i < kStamps; ++i) (*pool_)[i].index = i;
}

void ProfMarkers::DestroyPool() {
  absl::MutexLock lock(&mu_);
  pool_.reset();
  stack_.clear();
}

ProfMarkers::Stamp* ProfMarkers::CreateStamp() {
  absl::MutexLock lock(&mu_);
  if (!NeedPool().ok()) {
    ClientLog().warn("aclprofCreateStamp: msproftx is off (no collection with ACL_PROF_MSPROFTX)");
    return nullptr;
  }
  for (Stamp& stamp : *pool_) {
    if (!stamp.in_use) {
      const uint32_t index = stamp.index;
      stamp = Stamp{};
      stamp.index = index;
      stamp.in_use = true;
      return &stamp;
    }
  }
  ClientLog().warn("aclprofCreateStamp: all {} stamps are in use", kStamps);
  return nullptr;
}

void ProfMarkers::DestroyStamp(Stamp* stamp) {
  absl::MutexLock lock(&mu_);
  if (stamp == nullptr) {
    ClientLog().warn("aclprofDestroyStamp: stamp is null");
    return;
  }
  stamp->in_use = false;
}

absl::Status ProfMarkers::SetMessage(Stamp* stamp, const char* message, uint32_t length) {
  if (stamp == nullptr || message == nullptr) return TxFailed("stamp or msg is null");
  if (length >= kMaxStampMessage) {
    return TxFailed(absl::StrCat("msgLen ", length, " is not below ", kMaxStampMessage));
  }
  absl::MutexLock lock(&mu_);
  stamp->message.assign(message, strnlen(message, length));
  return absl::OkStatus();
}

absl::Status ProfMarkers::Mark(Stamp* stamp) {
  absl::MutexLock lock(&mu_);
  if (absl::Status on = NeedPool(); !on.ok()) return on;
  if (stamp == nullptr) return TxFailed("stamp is null");
  RecordInstant(stamp->message, "");
  return absl::OkStatus();
}

absl::Status ProfMarkers::MarkEx(const char* message, size_t length, void* stream) {
  if (message == nullptr || stream == nullptr) return TxFailed("msg or stream is null");
  if (std::strlen(message) != length) return TxFailed("msgLen is not the message's length");
  if (length < 1 || length > 155) return TxFailed("msgLen must be 1 to 155");
  absl::MutexLock lock(&mu_);
  RecordInstant(message, "");
  return absl::OkStatus();
}

absl::Status ProfMarkers::ProfTrace(const void* userdata, int32_t length, void* stream) {
  constexpr int32_t kRecordBytes = 18;
  if (userdata == nullptr) return AclError(kRtParamInvalid, "userdata is null");
  if (length <= 0 || length > kRecordBytes) {
    return AclError(kRtParamInvalid, absl::StrFormat("a trace record has 1 to %d bytes, not %d",
                                                     kRecordBytes, length));
  }
  NPUD_RETURN_IF_ERROR(ResolveStream(stream).status());
  unsigned char record[kRecordBytes] = {};
  std::memcpy(record, userdata, static_cast<size_t>(length));
  uint64_t id = 0, model_id = 0;
  uint16_t tag = 0;
  std::memcpy(&id, record, sizeof(id));
  std::memcpy(&model_id, record + 8, sizeof(model_id));
  std::memcpy(&tag, record + 16, sizeof(tag));
  absl::MutexLock lock(&mu_);
  RecordInstant(absl::StrFormat("trace id %u model %u tag %u", id, model_id, tag), "");
  return absl::OkStatus();
}

absl::Status ProfMarkers::Push(Stamp* stamp) {
  if (stamp == nullptr) return AclError(kAclInvalidParam, "stamp is null");
  absl::MutexLock lock(&mu_);
  if (absl::Status on = NeedPool(); !on.ok()) return on;
  stack_.push_back(Open{stamp->message, "", MonotonicNanos(), TraceThread()});
  return absl::OkStatus();
}

absl::Status ProfMarkers::PushNamed(uint64_t name_id) {
  absl::MutexLock lock(&mu_);
  if (absl::Status on = NeedPool(); !on.ok()) return on;
  auto it = strings_.find(name_id);
  stack_.push_back(Open{it != strings_.end() ? it->second : absl::StrCat("op ", name_id), "",
                        MonotonicNanos(), TraceThread()});
  return absl::OkStatus();
}

absl::Status ProfMarkers::Pop() {
  absl::MutexLock lock(&mu_);
  if (absl::Status on = NeedPool(); !on.ok()) return on;
  if (stack_.empty()) return TxFailed("aclprofPop: nothing was pushed");
  RecordRange(stack_.back(), 0);
  stack_.pop_back();
  return absl::OkStatus();
}

absl::Status ProfMarkers::RangeStart(Stamp* stamp, uint32_t* range_id) {
  if (stamp == nullptr || range_id == nullptr) {
    return AclError(kAclInvalidParam, "stamp or rangeId is null");
  }
  absl::MutexLock lock(&mu_);
  if (absl::Status on = NeedPool(); !on.ok()) return on;
  stamp->range_open = true;
  stamp->range_start_ns = MonotonicNanos();
  stamp->range_thread = TraceThread();
  *range_id = stamp->index;
  return absl::OkStatus();
}

absl::Status ProfMarkers::RangeStop(uint32_t range_id) {
  absl::MutexLock lock(&mu_);
  if (absl::Status on = NeedPool(); !on.ok()) return on;
  if (range_id >= kStamps || !(*pool_)[range_id].range_open) {
    return TxFailed(absl::StrCat("range ", range_id, " was not started"));
  }
  const Stamp& stamp = (*pool_)[range_id];
  // As in CANN the range stays open: stopping it again records it again.
  RecordRange(Open{stamp.message, "", stamp.range_start_ns, stamp.range_thread}, range_id + 1);
  return absl::OkStatus();
}

void ProfMarkers::Step(uint64_t index, bool start) {
  RecordInstant(absl::StrCat("step ", index, start ? " start" : " end"), "", index);
}

uint64_t ProfMarkers::StringId(const char* message) {
  if (message == nullptr) return 0;
  const uint64_t id = Fnv1a(message);
  absl::MutexLock lock(&mu_);
  strings_.try_emplace(id, message);
  return id;
}

void ProfMarkers::RecordRange(const Open& open, uint64_t id) {
  MarkerLog::Record(TraceMarker{open.message, open.domain, open.thread, open.start_ns,
                                MonotonicNanos(), /*instant=*/false, id});
}

void* ProfMarkers::CreateDomain(const char* name) {
  if (!AcceptedText(name) || std::strlen(name) >= 1024 || std::strcmp(name, "default") == 0) {
    ClientLog().warn("mstxDomainCreateA: \"{}\" cannot name a domain", name == nullptr ? "" : name);
    return nullptr;
  }
  absl::MutexLock lock(&mu_);
  std::unique_ptr<Domain>& domain = domains_[name];
  if (domain == nullptr) domain = std::make_unique<Domain>(Domain{name});
  return domain.get();
}

void ProfMarkers::DestroyDomain(void* domain) {
  absl::MutexLock lock(&mu_);
  for (auto it = domains_.begin(); it != domains_.end(); ++it) {
    if (it->second.get() == domain) {
      domains_.erase(it);
      return;
    }
  }
}

std::string ProfMarkers::DomainName(void* domain) const {
  if (domain == nullptr) return "default";
  for (const auto& [name, known] : domains_) {
    if (known.get() == domain) return name;
  }
  return "";
}

void ProfMarkers::MstxMark(void* domain, const char* message) {
  if (!MarkerLog::recording() || !AcceptedText(message)) return;
  absl::MutexLock lock(&mu_);
  const std::string name = DomainName(domain);
  if (name.empty()) return;  // a destroyed domain
  RecordInstant(message, name, next_mstx_id_++);
}

uint64_t ProfMarkers::MstxRangeStart(void* domain, const char* message) {
  if (!MarkerLog::recording() || !AcceptedText(message)) return 0;
  absl::MutexLock lock(&mu_);
  const std::string name = DomainName(domain);
  if (name.empty()) return 0;
  const uint64_t id = next_mstx_id_++;
  mstx_ranges_[id] = Open{message, name, MonotonicNanos(), TraceThread()};
  return id;
}

void ProfMarkers::MstxRangeEnd(void* domain, uint64_t id) {
  absl::MutexLock lock(&mu_);
  auto it = mstx_ranges_.find(id);
  if (it == mstx_ranges_.end()) return;  // id 0, or ended already
  if (it->second.domain != DomainName(domain)) {
    ClientLog().warn("mstx range {} ended in another domain than it started in; ignored", id);
    return;
  }
  RecordRange(it->second, id);
  mstx_ranges_.erase(it);
}

}  // namespace npud::client
