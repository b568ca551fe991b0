#include "client/core/call_pipeline.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "absl/strings/str_cat.h"
#include "client/core/exception_callbacks.h"
#include "client/core/host_callbacks.h"
#include "client/core/reply_wait.h"
#include "common/acl_status.h"
#include "common/status_macros.h"
#include "spdlog/spdlog.h"

namespace npud::client {
namespace {

// Rough wire size of a call, for the flush threshold.
size_t EstimateBytes(const v1::Call& call) {
  constexpr size_t kOverhead = 48;
  if (call.has_write_device()) return kOverhead + call.write_device().data().size();
  return kOverhead;
}

}  // namespace

namespace {

bool StrictFromEnv() {
  const char* strict = std::getenv("NPUD_STRICT");
  return strict != nullptr && std::string(strict) == "1";
}

// The session's host has just answered, so a bulk port that does not
// answer within this is filtered, not slow: the session goes on without
// the channel instead of holding up the program's first call for the
// whole NPUD_CONNECT_TIMEOUT_MS.
constexpr absl::Duration kBulkConnectTimeout = absl::Seconds(3);

}  // namespace

CallPipeline::CallPipeline(std::unique_ptr<Transport> transport)
    : transport_(std::move(transport)), strict_(StrictFromEnv()) {
  if (strict_) spdlog::info("NPUD_STRICT=1: asynchronous calls are checked at their call site");
}

CallPipeline::~CallPipeline() { Stop(); }

absl::StatusOr<v1::HelloReply> CallPipeline::Start(const v1::Hello& hello) {
  NPUD_ASSIGN_OR_RETURN(v1::HelloReply reply, transport_->Connect(hello, this));
  if (reply.bulk_port() != 0 && !transport_->BulkHost().empty()) {
    absl::StatusOr<std::unique_ptr<BulkChannel>> bulk = BulkChannel::Connect(
        transport_->BulkHost(), static_cast<int>(reply.bulk_port()), reply.session_id(),
        reply.bulk_key(), std::min(ConnectTimeout(), kBulkConnectTimeout));
    if (bulk.ok()) {
      bulk_ = *std::move(bulk);
    } else {
      spdlog::warn("no bulk channel ({}); large copies go through the session stream",
                   std::string(bulk.status().message()));
    }
  }
  {
    absl::MutexLock lock(&batch_mu_);
    pending_.mutable_batch();
  }
  flusher_ = std::thread([this] { FlushLoop(); });
  return reply;
}

void CallPipeline::Stop() {
  {
    absl::MutexLock lock(&batch_mu_);
    if (stopping_) return;
    stopping_ = true;
  }
  if (flusher_.joinable()) flusher_.join();
  Flush();
  transport_->Shutdown();
  if (bulk_ != nullptr) bulk_->Shutdown();
}

void CallPipeline::Post(v1::Call call) {
  call.set_call_id(0);
  Enqueue(std::move(call), /*want_reply=*/false);
}

absl::Status CallPipeline::Submit(v1::Call call) {
  if (strict_) return Call(std::move(call)).status();
  Post(std::move(call));
  return absl::OkStatus();
}

absl::StatusOr<v1::Reply> CallPipeline::Call(v1::Call call) {
  std::shared_ptr<Pending> pending = Begin(std::move(call));
  return Await(*pending);
}

std::shared_ptr<CallPipeline::Pending> CallPipeline::Begin(v1::Call call) {
  std::shared_ptr<Waiter> waiter = AddWaiter(&call);
  // Sent together with what is queued, without passing through the queue:
  // the flusher thread is not woken for a call that goes out right away.
  Flush(&call);
  return waiter;
}

void CallPipeline::PostWithFile(v1::Call call, int fd) {
  call.set_call_id(0);
  bool flush_now = false;
  {
    absl::MutexLock lock(&batch_mu_);
    pending_bytes_ += EstimateBytes(call);
    pending_.mutable_batch()->add_calls()->Swap(&call);
    pending_fds_.push_back(fd);
    // A frame carries a bounded number of files.
    flush_now = pending_fds_.size() >= 8;
  }
  if (flush_now) Flush();
}

absl::Status CallPipeline::CallAll(std::vector<v1::Call> calls) {
  std::vector<std::shared_ptr<Waiter>> waiters;
  waiters.reserve(calls.size());
  for (v1::Call& call : calls) waiters.push_back(Enqueue(std::move(call), /*want_reply=*/true));
  Flush();
  absl::Status first;
  for (auto& waiter : waiters) {
    auto reply = Await(*waiter);
    if (!reply.ok() && first.ok()) first = reply.status();
  }
  return first;
}

std::shared_ptr<CallPipeline::Waiter> CallPipeline::AddWaiter(v1::Call* call) {
  auto waiter = std::make_shared<Waiter>();
  const uint64_t id = next_call_id_++;
  call->set_call_id(id);
  absl::MutexLock lock(&waiters_mu_);
  if (!broken_.ok()) {
    waiter->reply.set_acl_error(kRtSocketClose);
    waiter->reply.set_error_message(std::string(broken_.message()));
    waiter->done.Notify();
    return waiter;
  }
  waiters_[id] = waiter;
  return waiter;
}

std::shared_ptr<CallPipeline::Waiter> CallPipeline::Enqueue(v1::Call call, bool want_reply) {
  std::shared_ptr<Waiter> waiter;
  if (want_reply) waiter = AddWaiter(&call);
  bool flush_now = false;
  {
    absl::MutexLock lock(&batch_mu_);
    pending_bytes_ += EstimateBytes(call);
    pending_.mutable_batch()->add_calls()->Swap(&call);
    // Big batches go at once, so memory stays bounded and data keeps moving.
    flush_now = pending_bytes_ >= kFlushBytes;
  }
  if (flush_now) Flush();
  return waiter;
}

absl::StatusOr<v1::Reply> CallPipeline::Await(Pending& waiter) {
  ReplyWait::ForThisThread().Wait(waiter.done);
  if (waiter.reply.acl_error() != kAclSuccess) {
    return FromAclCode(waiter.reply.acl_error(), waiter.reply.error_message());
  }
  return std::move(waiter.reply);
}

void CallPipeline::Flush(v1::Call* last) {
  absl::MutexLock send_lock(&send_mu_);
  v1::ClientMessage message;
  std::vector<int> fds;
  {
    absl::MutexLock lock(&batch_mu_);
    if (pending_.batch().calls_size() == 0 && last == nullptr) return;
    message.Swap(&pending_);
    pending_.mutable_batch();
    pending_bytes_ = 0;
    fds.swap(pending_fds_);
  }
  if (last != nullptr) message.mutable_batch()->add_calls()->Swap(last);
  absl::Status sent = transport_->SendWithFiles(std::move(message), fds);
  for (int fd : fds) close(fd);
  if (!sent.ok()) {
    // The reader sees the disconnect too and fails the waiters; this only
    // keeps calls queued after that from waiting forever.
    OnDisconnect(sent);
  }
}

void CallPipeline::FlushLoop() {
  while (true) {
    {
      absl::MutexLock lock(&batch_mu_);
      auto work = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(batch_mu_) {
        return stopping_ || pending_.batch().calls_size() > 0;
      };
      batch_mu_.Await(absl::Condition(&work));
      if (stopping_) return;
    }
    // Give the caller a moment to add more, then send whatever is there.
    absl::SleepFor(kFlushDelay);
    Flush();
  }
}

uint64_t CallPipeline::BeginTransfer(void* dst, size_t size, bool awaited, bool bulk) {
  const uint64_t id = next_transfer_id_++;
  if (bulk) bulk_->Expect(id, absl::Span<uint8_t>(static_cast<uint8_t*>(dst), size));
  absl::MutexLock lock(&transfers_mu_);
  transfers_[id] = Transfer{static_cast<uint8_t*>(dst), size, awaited, bulk};
  return id;
}

absl::Status CallPipeline::WaitTransfer(uint64_t transfer_id) {
  absl::MutexLock lock(&transfers_mu_);
  auto ended = [this, transfer_id]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(transfers_mu_) {
    auto it = transfers_.find(transfer_id);
    return it == transfers_.end() || it->second.ended;
  };
  transfers_mu_.Await(absl::Condition(&ended));
  auto it = transfers_.find(transfer_id);
  if (it == transfers_.end()) return absl::OkStatus();
  const int32_t error = it->second.acl_error;
  transfers_.erase(it);
  return FromAclCode(error, "device-to-host transfer failed");
}

absl::Status CallPipeline::AbandonTransfer(uint64_t transfer_id, absl::Status why) {
  absl::MutexLock lock(&transfers_mu_);
  auto it = transfers_.find(transfer_id);
  if (it == transfers_.end()) return why;
  if (it->second.bulk) bulk_->Forget(transfer_id);
  transfers_.erase(it);
  return why;
}

void CallPipeline::OnMessage(v1::ServerMessage message) {
  switch (message.kind_case()) {
    case v1::ServerMessage::kReply: {
      std::shared_ptr<Waiter> waiter;
      {
        absl::MutexLock lock(&waiters_mu_);
        auto it = waiters_.find(message.reply().call_id());
        if (it == waiters_.end()) {
          spdlog::warn("npud answered unknown call {}", message.reply().call_id());
          return;
        }
        waiter = std::move(it->second);
        waiters_.erase(it);
      }
      waiter->reply = std::move(*message.mutable_reply());
      waiter->done.Notify();
      return;
    }
    case v1::ServerMessage::kData:
      return HandleData(message.data());
    case v1::ServerMessage::kNotification:
      return HandleNotification(message.notification());
    default:
      spdlog::warn("unexpected message kind {} from npud", static_cast<int>(message.kind_case()));
  }
}

void CallPipeline::HandleData(const v1::DataChunk& chunk) {
  // The bytes of a bulk transfer are in before anything npud sent after
  // this chunk is looked at.
  int32_t bulk_error = 0;
  if (chunk.bulk() && bulk_ != nullptr) {
    if (chunk.acl_error() != 0) {
      bulk_->Forget(chunk.transfer_id());
    } else if (absl::Status collected = bulk_->Collect(chunk.transfer_id()); !collected.ok()) {
      spdlog::error("device-to-host transfer {} lost: {}", chunk.transfer_id(),
                    std::string(collected.message()));
      bulk_error = kRtSocketClose;
    }
  }
  absl::MutexLock lock(&transfers_mu_);
  auto it = transfers_.find(chunk.transfer_id());
  if (it == transfers_.end()) {
    spdlog::warn("npud sent data for unknown transfer {}", chunk.transfer_id());
    return;
  }
  Transfer& transfer = it->second;
  if (chunk.acl_error() != 0 || bulk_error != 0) {
    transfer.acl_error = chunk.acl_error() != 0 ? chunk.acl_error() : bulk_error;
  } else if (chunk.offset() > transfer.size ||
             chunk.data().size() > transfer.size - chunk.offset()) {
    spdlog::error("npud sent {} bytes at offset {} for a {}-byte transfer; dropped",
                  chunk.data().size(), chunk.offset(), transfer.size);
    transfer.acl_error = kRtInternalError;
  } else {
    std::memcpy(transfer.dst + chunk.offset(), chunk.data().data(), chunk.data().size());
  }
  if (chunk.last()) {
    if (transfer.awaited) {
      transfer.ended = true;
    } else {
      transfers_.erase(it);
    }
  }
}

void CallPipeline::HandleNotification(const v1::Notification& notification) {
  switch (notification.kind_case()) {
    case v1::Notification::kPrint: {
      const std::string& text = notification.print().text();
      std::fwrite(text.data(), 1, text.size(), stdout);
      std::fflush(stdout);
      return;
    }
    case v1::Notification::kHostCallback:
      return HostCallbacks::Get().OnDue(notification.host_callback());
    case v1::Notification::kTaskFailed: {
      v1::TaskFailed failed = notification.task_failed();
      failed.set_device_id(failed.device_id() + first_device_.load());
      return ReportTaskFailure(failed);
    }
    case v1::Notification::KIND_NOT_SET:
      return;
  }
}

void CallPipeline::OnDisconnect(const absl::Status& why) {
  absl::flat_hash_map<uint64_t, std::shared_ptr<Waiter>> waiters;
  {
    absl::MutexLock lock(&waiters_mu_);
    if (broken_.ok()) {
      broken_ = why.ok() ? absl::UnavailableError("disconnected") : why;
      spdlog::error("lost the connection to npud at {}: {}", transport_->Describe(),
                    why.ToString());
    }
    waiters.swap(waiters_);
  }
  for (auto& [id, waiter] : waiters) {
    waiter->reply.set_acl_error(kRtSocketClose);
    waiter->reply.set_error_message(absl::StrCat("lost the connection to npud: ", why.message()));
    waiter->done.Notify();
  }
  absl::MutexLock lock(&transfers_mu_);
  for (auto it = transfers_.begin(); it != transfers_.end();) {
    if (it->second.awaited) {
      it->second.ended = true;
      it->second.acl_error = kRtSocketClose;
      ++it;
    } else {
      transfers_.erase(it++);
    }
  }
}

}  // namespace npud::client
