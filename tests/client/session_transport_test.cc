// The session life the remote transports share (client/transport/
// session_transport.h), against a scripted connection: what Connect()
// returns for each way the hello can go, the reader thread's hand-over of
// messages and of the session's end, and a shutdown that ends writing once.

#include "client/transport/session_transport.h"

#include <deque>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "gtest/gtest.h"

namespace npud::client {
namespace {

// A connection whose reads follow a script: each entry is a message or the
// status a read returns; past the script, reads wait until writing ends,
// then return OutOfRange (npud closing the session).
class ScriptedTransport final : public SessionTransport {
 public:
  struct Step {
    absl::Status status;
    v1::ServerMessage message;
  };
  explicit ScriptedTransport(std::vector<Step> script, absl::Status write = absl::OkStatus())
      : SessionTransport("scripted"), script_(script.begin(), script.end()), write_(write) {}
  ~ScriptedTransport() override { Shutdown(); }

  absl::Status Send(v1::ClientMessage) override { return absl::OkStatus(); }
  std::string Describe() const override { return "scripted"; }
  int end_writes() const {
    absl::MutexLock lock(&mu_);
    return end_writes_;
  }

 private:
  absl::Status Open(absl::Duration) override { return absl::OkStatus(); }
  absl::Status WriteFirst(const v1::ClientMessage&) override { return write_; }
  absl::Status Read(v1::ServerMessage* message, absl::Time) override {
    absl::MutexLock lock(&mu_);
    if (script_.empty()) {
      mu_.Await(absl::Condition(
          +[](int* ends) { return *ends > 0; }, &end_writes_));
      return absl::OutOfRangeError("end");
    }
    Step step = std::move(script_.front());
    script_.pop_front();
    *message = std::move(step.message);
    return step.status;
  }
  void EndWriting() override {
    absl::MutexLock lock(&mu_);
    ++end_writes_;
  }

  mutable absl::Mutex mu_;
  std::deque<Step> script_ ABSL_GUARDED_BY(mu_);
  const absl::Status write_;
  int end_writes_ ABSL_GUARDED_BY(mu_) = 0;
};

class Receiver final : public TransportReceiver {
 public:
  void OnMessage(v1::ServerMessage message) override {
    absl::MutexLock lock(&mu_);
    messages_.push_back(std::move(message));
  }
  void OnDisconnect(const absl::Status& why) override {
    {
      absl::MutexLock lock(&mu_);
      why_ = why;
    }
    ended_.Notify();
  }
  absl::Mutex mu_;
  std::vector<v1::ServerMessage> messages_ ABSL_GUARDED_BY(mu_);
  absl::Status why_ ABSL_GUARDED_BY(mu_);
  absl::Notification ended_;
};

ScriptedTransport::Step HelloReply() {
  ScriptedTransport::Step step;
  step.message.mutable_hello()->set_session_id(7);
  return step;
}

ScriptedTransport::Step Refusal() {
  ScriptedTransport::Step step;
  step.message.mutable_refused()->set_code(static_cast<int>(absl::StatusCode::kPermissionDenied));
  step.message.mutable_refused()->set_message("uid 65534 is not allowed");
  return step;
}

ScriptedTransport::Step Failure(absl::Status status) { return {std::move(status), {}}; }

TEST(SessionTransportTest, TheHelloReplyStartsTheReaderAndShutdownEndsWritingOnce) {
  ScriptedTransport::Step print;
  print.message.mutable_notification()->mutable_print()->set_text("hi");
  ScriptedTransport transport({HelloReply(), print});
  Receiver receiver;
  absl::StatusOr<v1::HelloReply> reply = transport.Connect(v1::Hello(), &receiver);
  ASSERT_TRUE(reply.ok()) << reply.status();
  EXPECT_EQ(reply->session_id(), 7u);
  transport.Shutdown();
  transport.Shutdown();
  ASSERT_TRUE(receiver.ended_.HasBeenNotified());  // the reader was joined
  EXPECT_EQ(transport.end_writes(), 1);
  absl::MutexLock lock(&receiver.mu_);
  ASSERT_EQ(receiver.messages_.size(), 1u);
  EXPECT_EQ(receiver.messages_[0].notification().print().text(), "hi");
  EXPECT_EQ(receiver.why_.code(), absl::StatusCode::kUnavailable);
  EXPECT_TRUE(absl::StrContains(receiver.why_.message(), "npud ended the session"));
}

TEST(SessionTransportTest, ARefusalCountsEvenWhenTheHelloWasNotWritten) {
  ScriptedTransport transport({Refusal()}, absl::UnavailableError("broken pipe"));
  Receiver receiver;
  absl::StatusOr<v1::HelloReply> reply = transport.Connect(v1::Hello(), &receiver);
  EXPECT_EQ(reply.status().code(), absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(reply.status().message(), "uid 65534 is not allowed");
}

TEST(SessionTransportTest, AFailedWriteWithoutARefusalIsTheWritesError) {
  ScriptedTransport transport({Failure(absl::OutOfRangeError("eof"))},
                              absl::UnavailableError("broken pipe"));
  Receiver receiver;
  EXPECT_EQ(transport.Connect(v1::Hello(), &receiver).status().message(), "broken pipe");
}

TEST(SessionTransportTest, NoReplyInTimeIsADeadline) {
  ScriptedTransport transport({Failure(absl::DeadlineExceededError("timeout"))});
  Receiver receiver;
  const absl::Status status = transport.Connect(v1::Hello(), &receiver).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kDeadlineExceeded);
  EXPECT_TRUE(absl::StrContains(status.message(), "npud at scripted did not answer the hello"))
      << status;
}

TEST(SessionTransportTest, AnEndInsteadOfAReplyIsAClosedSession) {
  ScriptedTransport transport({Failure(absl::OutOfRangeError("eof"))});
  Receiver receiver;
  const absl::Status status = transport.Connect(v1::Hello(), &receiver).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kUnavailable);
  EXPECT_EQ(status.message(), "npud at scripted closed the session");
  EXPECT_FALSE(receiver.ended_.HasBeenNotified());  // no reader was started
}

TEST(SessionTransportTest, AReplyThatIsNotAHelloIsAnError) {
  ScriptedTransport::Step other;
  other.message.mutable_notification()->mutable_print()->set_text("?");
  ScriptedTransport transport({other});
  Receiver receiver;
  EXPECT_EQ(transport.Connect(v1::Hello(), &receiver).status().code(), absl::StatusCode::kInternal);
}

}  // namespace
}  // namespace npud::client
