#include "daemon/session/bulk_link.h"

#include <sys/random.h>

#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "common/constant_time.h"
#include "common/status_macros.h"
#include "spdlog/spdlog.h"

namespace npud::daemon {
namespace {

std::string RandomKey() {
  std::string key(bulk::kKeyBytes, '\0');
  size_t filled = 0;
  while (filled < key.size()) {
    const ssize_t n = getrandom(key.data() + filled, key.size() - filled, 0);
    if (n > 0) filled += static_cast<size_t>(n);
  }
  return key;
}

}  // namespace

BulkLink::BulkLink() : key_(RandomKey()) {}

BulkLink::~BulkLink() { Close(); }

absl::Status BulkLink::Attach(absl::string_view key, std::shared_ptr<ByteStream> stream) {
  absl::MutexLock lock(&mu_);
  if (!ConstantTimeEquals(key, key_)) return absl::PermissionDeniedError("wrong bulk channel key");
  if (stream_ != nullptr || closed_) {
    return absl::AlreadyExistsError("the session has a bulk channel already");
  }
  stream_ = std::move(stream);
  // The writer's first frame.
  control_.push_back({bulk::FrameType::kWelcome});
  writer_ = std::thread([this] { WriteLoop(); });
  return absl::OkStatus();
}

void BulkLink::ServeReads() {
  std::shared_ptr<ByteStream> stream;
  {
    absl::MutexLock lock(&mu_);
    stream = stream_;
  }
  if (stream == nullptr) return;
  absl::Status status;
  while (status.ok()) {
    absl::StatusOr<bulk::FrameHeader> header = bulk::ReadHeader(*stream);
    if (!header.ok()) {
      status = header.status();
    } else if (header->type != bulk::FrameType::kData) {
      status = absl::InvalidArgumentError(absl::StrFormat(
          "a client may only send data frames, not type %d", static_cast<int>(header->type)));
    } else {
      status = ReceiveData(*header);
    }
  }
  if (!absl::IsOutOfRange(status)) spdlog::warn("bulk channel closed: {}", status.ToString());
  Break(absl::UnavailableError(absl::StrCat("the bulk channel closed: ", status.message())));
}

absl::Status BulkLink::ReceiveData(const bulk::FrameHeader& header) {
  std::shared_ptr<Transfer> t;
  std::shared_ptr<ByteStream> stream;
  {
    absl::MutexLock lock(&mu_);
    auto it = transfers_.find(header.transfer);
    if (it == transfers_.end() || !it->second->to_device || it->second->ended) {
      return absl::InvalidArgumentError(
          absl::StrFormat("bytes for transfer %d, which npud did not ask for", header.transfer));
    }
    t = it->second;
    stream = stream_;
  }
  // Only this thread moves a host-to-device transfer's bytes: `moved` is
  // stable outside the lock.
  if (header.offset != t->moved || header.length > t->range.size - t->moved ||
      header.length > bulk::kMaxDataFrameBytes) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "transfer %d: %d bytes at offset %d do not continue its %d bytes (%d so far)",
        header.transfer, header.length, header.offset, t->range.size, t->moved));
  }
  NPUD_RETURN_IF_ERROR(stream->ReadFully(t->range.data() + header.offset, header.length));
  bool complete = false;
  {
    absl::MutexLock lock(&mu_);
    t->moved += header.length;
    complete = t->moved == t->range.size;
  }
  if (complete) End(header.transfer, t, absl::OkStatus());
  return absl::OkStatus();
}

absl::Status BulkLink::Register(uint64_t transfer, sim::DeviceRange range, bool to_device,
                                sim::Waker wake) {
  absl::MutexLock lock(&mu_);
  if (range.size == 0) return absl::InvalidArgumentError("a bulk transfer of 0 bytes");
  if (!broken_.ok()) return broken_;
  if (stream_ == nullptr) return absl::FailedPreconditionError("the session has no bulk channel");
  if (transfers_.contains(transfer)) {
    return absl::InvalidArgumentError(
        absl::StrFormat("bulk transfer %d is already moving", transfer));
  }
  auto t = std::make_shared<Transfer>();
  t->range = std::move(range);
  t->to_device = to_device;
  t->wake = std::move(wake);
  if (to_device) {
    control_.push_back({bulk::FrameType::kPull, transfer, 0, t->range.size});
  } else {
    sends_.push_back(transfer);
  }
  transfers_[transfer] = std::move(t);
  return absl::OkStatus();
}

absl::Status BulkLink::StartReceive(uint64_t transfer, sim::DeviceRange dst, sim::Waker wake) {
  return Register(transfer, std::move(dst), /*to_device=*/true, std::move(wake));
}

absl::Status BulkLink::StartSend(uint64_t transfer, sim::DeviceRange src, sim::Waker wake) {
  return Register(transfer, std::move(src), /*to_device=*/false, std::move(wake));
}

std::optional<absl::Status> BulkLink::Take(uint64_t transfer) {
  absl::MutexLock lock(&mu_);
  auto it = transfers_.find(transfer);
  if (it == transfers_.end()) return absl::InternalError("unknown bulk transfer");
  if (!it->second->ended) return std::nullopt;
  absl::Status status = it->second->status;
  transfers_.erase(it);
  return status;
}

void BulkLink::Abandon(uint64_t transfer) {
  absl::MutexLock lock(&mu_);
  auto it = transfers_.find(transfer);
  if (it == transfers_.end()) return;
  if (it->second->ended) {
    transfers_.erase(it);
  } else {
    it->second->abandoned = true;
  }
}

void BulkLink::Cancel(uint64_t transfer) {
  absl::MutexLock lock(&mu_);
  if (stream_ == nullptr || !broken_.ok()) return;
  control_.push_back({bulk::FrameType::kCancel, transfer, 0, 0});
}

void BulkLink::End(uint64_t transfer, const std::shared_ptr<Transfer>& t, absl::Status status) {
  sim::Waker wake;
  {
    absl::MutexLock lock(&mu_);
    if (t->ended) return;
    t->ended = true;
    t->status = std::move(status);
    if (t->abandoned) {
      transfers_.erase(transfer);
      return;
    }
    wake = t->wake;
  }
  if (wake) wake();
}

void BulkLink::Break(const absl::Status& why) {
  std::vector<std::pair<uint64_t, std::shared_ptr<Transfer>>> moving;
  std::shared_ptr<ByteStream> stream;
  {
    absl::MutexLock lock(&mu_);
    if (broken_.ok()) broken_ = why;
    for (const auto& [id, t] : transfers_) {
      if (!t->ended) moving.emplace_back(id, t);
    }
    stream = stream_;
  }
  // The writer and the reader see the end of the connection.
  if (stream != nullptr) stream->Shutdown();
  for (const auto& [id, t] : moving) End(id, t, why);
}

void BulkLink::WriteLoop() {
  std::shared_ptr<ByteStream> stream;
  {
    absl::MutexLock lock(&mu_);
    stream = stream_;
  }
  while (true) {
    std::vector<bulk::FrameHeader> control;
    uint64_t id = 0;
    std::shared_ptr<Transfer> t;
    {
      absl::MutexLock lock(&mu_);
      auto work = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
        return !broken_.ok() || !control_.empty() || !sends_.empty();
      };
      mu_.Await(absl::Condition(&work));
      if (!broken_.ok()) return;
      control.assign(control_.begin(), control_.end());
      control_.clear();
      if (control.empty()) {
        id = sends_.front();
        sends_.pop_front();
        auto it = transfers_.find(id);
        if (it != transfers_.end() && !it->second->ended) t = it->second;
      }
    }
    absl::Status sent;
    if (!control.empty()) {
      std::vector<bulk::EncodedHeader> headers;
      std::vector<iovec> pieces;
      headers.reserve(control.size());
      for (const bulk::FrameHeader& header : control) {
        headers.push_back(bulk::EncodeHeader(header));
        pieces.push_back(Piece(headers.back().data(), headers.back().size()));
      }
      sent = stream->WriteAll(pieces);
    } else if (t != nullptr) {
      // Only this thread moves a device-to-host transfer's bytes.
      const uint64_t n = std::min(bulk::kMaxDataFrameBytes, t->range.size - t->moved);
      const bulk::EncodedHeader header =
          bulk::EncodeHeader({bulk::FrameType::kData, id, t->moved, n});
      const iovec pieces[2] = {Piece(header.data(), header.size()),
                               Piece(t->range.data() + t->moved, n)};
      sent = stream->WriteAll(pieces);
      if (sent.ok()) {
        bool complete = false;
        {
          absl::MutexLock lock(&mu_);
          t->moved += n;
          complete = t->moved == t->range.size;
          if (!complete) sends_.push_back(id);
        }
        if (complete) End(id, t, absl::OkStatus());
      }
    }
    if (!sent.ok()) {
      Break(absl::UnavailableError(absl::StrCat("the bulk channel closed: ", sent.message())));
      return;
    }
  }
}

void BulkLink::Close() {
  {
    absl::MutexLock lock(&mu_);
    if (closed_) return;
    closed_ = true;
  }
  Break(absl::CancelledError("the session ended"));
  if (writer_.joinable()) writer_.join();
}

}  // namespace npud::daemon
