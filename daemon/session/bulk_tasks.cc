#include "daemon/session/bulk_tasks.h"

#include <optional>
#include <utility>

#include "common/acl_status.h"

namespace npud::daemon {
namespace {

class BulkTask final : public sim::Task {
 public:
  BulkTask(std::shared_ptr<BulkLink> link, uint64_t transfer, sim::DeviceRange range,
           std::shared_ptr<MessageSink> sink)
      : link_(std::move(link)),
        transfer_(transfer),
        range_(std::move(range)),
        sink_(std::move(sink)) {}

  Progress Run(const sim::Waker& wake, absl::Status* status) override {
    if (!started_) {
      started_ = true;
      const absl::Status started = to_device() ? link_->StartReceive(transfer_, range_, wake)
                                               : link_->StartSend(transfer_, range_, wake);
      if (!started.ok()) return Finish(started, status);
    }
    std::optional<absl::Status> outcome = link_->Take(transfer_);
    if (!outcome.has_value()) return Progress::kPending;
    return Finish(*std::move(outcome), status);
  }

  void Cancel(const absl::Status& why) override {
    if (finished_) return;
    if (started_) {
      link_->Abandon(transfer_);
    } else if (to_device()) {
      link_->Cancel(transfer_);  // the client may let go of its bytes
    }
    if (!to_device()) EndOnSessionStream(why);
  }

  const char* name() const override { return to_device() ? "bulk-write" : "bulk-read"; }
  sim::TaskKind kind() const override { return sim::TaskKind::kCopy; }
  void Spans(int64_t start_ns, int64_t end_ns, std::vector<sim::TaskSpan>* out) const override {
    out->push_back(sim::TaskSpan{name(), kind(), start_ns, end_ns, range_.size});
  }

 private:
  bool to_device() const { return sink_ == nullptr; }

  Progress Finish(absl::Status outcome, absl::Status* status) {
    finished_ = true;
    if (!to_device()) EndOnSessionStream(outcome);
    *status = std::move(outcome);
    return Progress::kDone;
  }

  void EndOnSessionStream(const absl::Status& outcome) {
    v1::ServerMessage message;
    v1::DataChunk* chunk = message.mutable_data();
    chunk->set_transfer_id(transfer_);
    chunk->set_last(true);
    chunk->set_bulk(true);
    if (!outcome.ok()) chunk->set_acl_error(ToAclCode(outcome));
    sink_->Send(std::move(message));
  }

  const std::shared_ptr<BulkLink> link_;
  const uint64_t transfer_;
  const sim::DeviceRange range_;
  // Device-to-host tasks only.
  const std::shared_ptr<MessageSink> sink_;
  bool started_ = false;
  bool finished_ = false;
};

}  // namespace

std::unique_ptr<sim::Task> MakeBulkReceiveTask(std::shared_ptr<BulkLink> link, uint64_t transfer,
                                               sim::DeviceRange dst) {
  return std::make_unique<BulkTask>(std::move(link), transfer, std::move(dst), nullptr);
}

std::unique_ptr<sim::Task> MakeBulkSendTask(std::shared_ptr<BulkLink> link, uint64_t transfer,
                                            sim::DeviceRange src,
                                            std::shared_ptr<MessageSink> sink) {
  return std::make_unique<BulkTask>(std::move(link), transfer, std::move(src), std::move(sink));
}

}  // namespace npud::daemon
