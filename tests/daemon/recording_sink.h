// recording_sink.h
//
// RecordingSink: a MessageSink for daemon unit tests that keeps every
// message and lets the test wait for the reply of a call.

#ifndef NPUD_TESTS_DAEMON_RECORDING_SINK_H_
#define NPUD_TESTS_DAEMON_RECORDING_SINK_H_

#include <optional>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "daemon/message_sink.h"
#include "npud/v1/npud.pb.h"

namespace npud::daemon::testing {

class RecordingSink final : public MessageSink {
 public:
  void Send(v1::ServerMessage message) override {
    absl::MutexLock lock(&mu_);
    messages_.push_back(std::move(message));
  }

  // The reply to `call_id`, once it came (nullopt after 10 s).
  std::optional<v1::Reply> WaitReply(uint64_t call_id) {
    absl::MutexLock lock(&mu_);
    std::optional<v1::Reply> found;
    auto arrived = [&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
      for (const v1::ServerMessage& message : messages_) {
        if (message.has_reply() && message.reply().call_id() == call_id) {
          found = message.reply();
          return true;
        }
      }
      return false;
    };
    mu_.AwaitWithTimeout(absl::Condition(&arrived), absl::Seconds(10));
    return found;
  }

  std::vector<v1::ServerMessage> messages() const {
    absl::MutexLock lock(&mu_);
    return messages_;
  }

 private:
  mutable absl::Mutex mu_;
  std::vector<v1::ServerMessage> messages_ ABSL_GUARDED_BY(mu_);
};

}  // namespace npud::daemon::testing

#endif  // NPUD_TESTS_DAEMON_RECORDING_SINK_H_
