// fake_transport.h
//
// FakeTransport: a Transport with a scripted daemon behind it, for unit
// tests of the client core. It records every message the client sends and
// answers each synchronous call with what the test's responder returns —
// delivered on a thread of its own, as a real transport's reader would.

#ifndef NPUD_TESTS_CLIENT_FAKE_TRANSPORT_H_
#define NPUD_TESTS_CLIENT_FAKE_TRANSPORT_H_

#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "client/transport/transport.h"

namespace npud::client::testing {

class FakeTransport final : public Transport {
 public:
  // What the daemon answers to a synchronous call (call_id set already).
  using Responder = std::function<std::vector<v1::ServerMessage>(const v1::Call&)>;

  FakeTransport() : delivery_([this] { DeliveryLoop(); }) {}
  ~FakeTransport() override { Shutdown(); }

  // Answers every synchronous call with an empty reply unless set.
  void set_responder(Responder responder) {
    absl::MutexLock lock(&mu_);
    responder_ = std::move(responder);
  }
  void set_hello(v1::HelloReply hello) {
    absl::MutexLock lock(&mu_);
    hello_ = std::move(hello);
  }

  absl::StatusOr<v1::HelloReply> Connect(const v1::Hello& hello,
                                         TransportReceiver* receiver) override {
    absl::MutexLock lock(&mu_);
    hello_sent_ = hello;
    receiver_ = receiver;
    return hello_;
  }

  absl::Status Send(v1::ClientMessage message) override {
    absl::MutexLock lock(&mu_);
    if (broken_) return absl::UnavailableError("fake daemon gone");
    for (const v1::Call& call : message.batch().calls()) {
      if (call.call_id() == 0) continue;
      std::vector<v1::ServerMessage> answer;
      if (responder_) {
        answer = responder_(call);
      } else {
        answer.emplace_back();
        answer.back().mutable_reply()->set_call_id(call.call_id());
      }
      for (auto& m : answer) outbox_.push_back(std::move(m));
    }
    sent_.push_back(std::move(message));
    return absl::OkStatus();
  }

  // The daemon goes away: the receiver hears of it, later sends fail.
  void Disconnect() {
    TransportReceiver* receiver = nullptr;
    {
      absl::MutexLock lock(&mu_);
      broken_ = true;
      receiver = receiver_;
    }
    if (receiver != nullptr) receiver->OnDisconnect(absl::UnavailableError("fake daemon gone"));
  }

  // Delivers `message` as if the daemon sent it unasked.
  void Push(v1::ServerMessage message) {
    absl::MutexLock lock(&mu_);
    outbox_.push_back(std::move(message));
  }

  void Shutdown() override {
    {
      absl::MutexLock lock(&mu_);
      if (stopping_) return;
      stopping_ = true;
    }
    delivery_.join();
  }
  std::string Describe() const override { return "fake:"; }

  // Every batch sent so far.
  std::vector<v1::ClientMessage> sent() const {
    absl::MutexLock lock(&mu_);
    return std::vector<v1::ClientMessage>(sent_.begin(), sent_.end());
  }
  // All calls sent so far, in order.
  std::vector<v1::Call> calls() const {
    std::vector<v1::Call> all;
    for (const v1::ClientMessage& message : sent()) {
      for (const v1::Call& call : message.batch().calls()) all.push_back(call);
    }
    return all;
  }
  v1::Hello hello_sent() const {
    absl::MutexLock lock(&mu_);
    return hello_sent_;
  }

 private:
  void DeliveryLoop() {
    while (true) {
      v1::ServerMessage message;
      TransportReceiver* receiver;
      {
        absl::MutexLock lock(&mu_);
        auto ready = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
          return stopping_ || (!outbox_.empty() && receiver_ != nullptr);
        };
        mu_.Await(absl::Condition(&ready));
        if (stopping_) return;
        message = std::move(outbox_.front());
        outbox_.pop_front();
        receiver = receiver_;
      }
      receiver->OnMessage(std::move(message));
    }
  }

  mutable absl::Mutex mu_;
  Responder responder_ ABSL_GUARDED_BY(mu_);
  v1::HelloReply hello_ ABSL_GUARDED_BY(mu_);
  v1::Hello hello_sent_ ABSL_GUARDED_BY(mu_);
  TransportReceiver* receiver_ ABSL_GUARDED_BY(mu_) = nullptr;
  std::deque<v1::ClientMessage> sent_ ABSL_GUARDED_BY(mu_);
  std::deque<v1::ServerMessage> outbox_ ABSL_GUARDED_BY(mu_);
  bool broken_ ABSL_GUARDED_BY(mu_) = false;
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  std::thread delivery_;
};

}  // namespace npud::client::testing

#endif  // NPUD_TESTS_CLIENT_FAKE_TRANSPORT_H_
