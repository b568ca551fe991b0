#include "daemon/session/session_launch_observer.h"

#include <string>
#include <utility>

#include "npud/v1/npud.pb.h"

namespace npud::daemon {
namespace {

class SessionLaunchObserver final : public sim::LaunchObserver {
 public:
  SessionLaunchObserver(std::shared_ptr<MessageSink> sink,
                        std::shared_ptr<SessionTimeline> timeline,
                        std::shared_ptr<OverflowFlags> float_overflow)
      : sink_(std::move(sink)),
        timeline_(std::move(timeline)),
        float_overflow_(std::move(float_overflow)) {}

  bool TimeBlocks() const override { return timeline_->tracing_blocks(); }

  void Print(uint64_t stream_id, std::string text) const override {
    v1::ServerMessage message;
    v1::DevicePrint* print = message.mutable_notification()->mutable_print();
    print->set_stream_id(stream_id);
    print->set_text(std::move(text));
    sink_->Send(std::move(message));
  }

  void FloatOverflow(int device_id) const override { float_overflow_->Raise(device_id); }

 private:
  const std::shared_ptr<MessageSink> sink_;
  const std::shared_ptr<SessionTimeline> timeline_;
  const std::shared_ptr<OverflowFlags> float_overflow_;
};

}  // namespace

std::shared_ptr<const sim::LaunchObserver> MakeSessionLaunchObserver(
    std::shared_ptr<MessageSink> sink, std::shared_ptr<SessionTimeline> timeline,
    std::shared_ptr<OverflowFlags> float_overflow) {
  return std::make_shared<SessionLaunchObserver>(std::move(sink), std::move(timeline),
                                                 std::move(float_overflow));
}

}  // namespace npud::daemon
