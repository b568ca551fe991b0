#include "client/transport/bulk_channel.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "client/transport/tcp_dial.h"
#include "common/status_macros.h"
#include "spdlog/spdlog.h"

namespace npud::client {

absl::StatusOr<std::unique_ptr<BulkChannel>> BulkChannel::Connect(const std::string& host, int port,
                                                                  uint64_t session_id,
                                                                  const std::string& key,
                                                                  absl::Duration timeout) {
  NPUD_ASSIGN_OR_RETURN(std::shared_ptr<ByteStream> stream, DialNpudPort(host, port, timeout));
  const bulk::EncodedHeader hello =
      bulk::EncodeHeader({bulk::FrameType::kHello, session_id, 0, key.size()});
  const iovec pieces[2] = {Piece(hello.data(), hello.size()), Piece(key.data(), key.size())};
  NPUD_RETURN_IF_ERROR(stream->WriteAll(pieces));
  stream->SetReadTimeout(timeout);
  absl::StatusOr<bulk::FrameHeader> welcome = bulk::ReadHeader(*stream);
  if (!welcome.ok()) {
    return absl::UnavailableError(absl::StrCat("npud did not welcome the bulk channel at ", host,
                                               ":", port, ": ", welcome.status().message()));
  }
  if (welcome->type != bulk::FrameType::kWelcome) {
    return absl::UnavailableError("npud answered the bulk channel's hello with something else");
  }
  stream->SetReadTimeout(absl::ZeroDuration());
  return std::unique_ptr<BulkChannel>(new BulkChannel(std::move(stream)));
}

BulkChannel::BulkChannel(std::shared_ptr<ByteStream> stream)
    : stream_(std::move(stream)),
      reader_([this] { ReadLoop(); }),
      sender_([this] { SendLoop(); }) {}

BulkChannel::~BulkChannel() { Shutdown(); }

bool BulkChannel::usable() const {
  absl::MutexLock lock(&mu_);
  return broken_.ok();
}

void BulkChannel::Offer(uint64_t transfer, absl::Span<const uint8_t> src, bool forget_when_sent) {
  absl::MutexLock lock(&mu_);
  offered_[transfer] = Offered{src, forget_when_sent};
}

void BulkChannel::Withdraw(uint64_t transfer) {
  absl::MutexLock lock(&mu_);
  auto idle = [this, transfer]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    auto it = offered_.find(transfer);
    return it == offered_.end() || !it->second.writing;
  };
  mu_.Await(absl::Condition(&idle));
  offered_.erase(transfer);
}

void BulkChannel::AwaitWritesFrom(const void* data, size_t size) {
  const auto* begin = static_cast<const uint8_t*>(data);
  absl::MutexLock lock(&mu_);
  auto idle = [this, begin, size]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    for (const auto& [transfer, offer] : offered_) {
      const bool overlaps =
          offer.src.data() < begin + size && begin < offer.src.data() + offer.src.size();
      if (offer.writing && overlaps) return false;
    }
    return true;
  };
  mu_.Await(absl::Condition(&idle));
}

void BulkChannel::Expect(uint64_t transfer, absl::Span<uint8_t> dst) {
  absl::MutexLock lock(&mu_);
  expected_[transfer] = Expected{dst};
}

absl::Status BulkChannel::Collect(uint64_t transfer) {
  absl::MutexLock lock(&mu_);
  auto arrived = [this, transfer]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    auto it = expected_.find(transfer);
    return !broken_.ok() || it == expected_.end() || it->second.received == it->second.dst.size();
  };
  mu_.Await(absl::Condition(&arrived));
  auto it = expected_.find(transfer);
  if (it == expected_.end()) return absl::InternalError("unknown bulk transfer");
  const bool complete = it->second.received == it->second.dst.size();
  expected_.erase(it);
  return complete ? absl::OkStatus() : broken_;
}

void BulkChannel::Forget(uint64_t transfer) {
  absl::MutexLock lock(&mu_);
  expected_.erase(transfer);
}

void BulkChannel::ReadLoop() {
  absl::Status status;
  while (status.ok()) {
    absl::StatusOr<bulk::FrameHeader> header = bulk::ReadHeader(*stream_);
    if (!header.ok()) {
      status = header.status();
      break;
    }
    switch (header->type) {
      case bulk::FrameType::kData:
        status = ReceiveData(*header);
        break;
      case bulk::FrameType::kPull: {
        absl::MutexLock lock(&mu_);
        pulls_.push_back(*header);
        break;
      }
      case bulk::FrameType::kCancel: {
        absl::MutexLock lock(&mu_);
        auto it = offered_.find(header->transfer);
        if (it != offered_.end() && it->second.forget_when_sent) offered_.erase(it);
        break;
      }
      default:
        status = absl::DataLossError(
            absl::StrFormat("unexpected bulk frame type %d", static_cast<int>(header->type)));
    }
  }
  Break(absl::UnavailableError(absl::StrCat("the bulk channel closed: ", status.message())));
}

absl::Status BulkChannel::ReceiveData(const bulk::FrameHeader& header) {
  absl::Span<uint8_t> dst;
  {
    absl::MutexLock lock(&mu_);
    auto it = expected_.find(header.transfer);
    if (it == expected_.end() || header.offset != it->second.received ||
        header.length > it->second.dst.size() - it->second.received) {
      return absl::DataLossError(
          absl::StrFormat("npud sent %d bytes at offset %d of transfer %d, which this client "
                          "does not expect",
                          header.length, header.offset, header.transfer));
    }
    dst = it->second.dst.subspan(header.offset, header.length);
  }
  // Only this thread receives: the entry stays until all its bytes are in.
  NPUD_RETURN_IF_ERROR(stream_->ReadFully(dst.data(), dst.size()));
  absl::MutexLock lock(&mu_);
  expected_[header.transfer].received += header.length;
  return absl::OkStatus();
}

void BulkChannel::SendLoop() {
  while (true) {
    bulk::FrameHeader pull;
    {
      absl::MutexLock lock(&mu_);
      auto work = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
        return !broken_.ok() || !pulls_.empty();
      };
      mu_.Await(absl::Condition(&work));
      if (!broken_.ok()) return;
      pull = pulls_.front();
      pulls_.pop_front();
    }
    if (absl::Status sent = SendPulled(pull); !sent.ok()) {
      Break(absl::UnavailableError(absl::StrCat("the bulk channel closed: ", sent.message())));
      return;
    }
  }
}

absl::Status BulkChannel::SendPulled(const bulk::FrameHeader& pull) {
  absl::Span<const uint8_t> src;
  {
    absl::MutexLock lock(&mu_);
    auto it = offered_.find(pull.transfer);
    if (it == offered_.end()) {
      spdlog::warn("npud pulled bulk transfer {}, which is no longer offered", pull.transfer);
      return absl::OkStatus();
    }
    if (pull.offset > it->second.src.size() || pull.length > it->second.src.size() - pull.offset) {
      return absl::DataLossError(absl::StrFormat("npud pulled %d bytes at %d of a %d-byte transfer",
                                                 pull.length, pull.offset, it->second.src.size()));
    }
    it->second.writing = true;
    src = it->second.src.subspan(pull.offset, pull.length);
  }
  absl::Status sent;
  uint64_t done = 0;
  while (sent.ok() && done < src.size()) {
    const uint64_t n = std::min<uint64_t>(bulk::kMaxDataFrameBytes, src.size() - done);
    const bulk::EncodedHeader header =
        bulk::EncodeHeader({bulk::FrameType::kData, pull.transfer, pull.offset + done, n});
    const iovec pieces[2] = {Piece(header.data(), header.size()), Piece(src.data() + done, n)};
    sent = stream_->WriteAll(pieces);
    if (sent.ok()) done += n;
  }
  absl::MutexLock lock(&mu_);
  auto it = offered_.find(pull.transfer);
  it->second.writing = false;
  it->second.sent += done;
  if (it->second.forget_when_sent && it->second.sent == it->second.src.size()) offered_.erase(it);
  return sent;
}

void BulkChannel::Break(const absl::Status& why) {
  {
    absl::MutexLock lock(&mu_);
    if (!broken_.ok()) return;
    broken_ = why;
    // Asynchronous offers will never be pulled now.
    for (auto it = offered_.begin(); it != offered_.end();) {
      if (it->second.forget_when_sent && !it->second.writing) {
        offered_.erase(it++);
      } else {
        ++it;
      }
    }
  }
  spdlog::warn("{}; large copies go through the session stream from now on",
               std::string(why.message()));
  stream_->Shutdown();
}

void BulkChannel::Shutdown() {
  {
    absl::MutexLock lock(&mu_);
    if (broken_.ok()) broken_ = absl::CancelledError("the session ended");
  }
  stream_->Shutdown();
  if (reader_.joinable()) reader_.join();
  if (sender_.joinable()) sender_.join();
}

}  // namespace npud::client
