// libFuzzer target: the session's decoder and dispatcher. The input is a
// serialized ClientMessage (what a client's frame carries after the hello);
// its batch runs on a fresh Session over small simulated devices, then the
// session ends and must release everything. Any call, any argument: the
// answer is an error reply, never a crash, a hang or a leak.

#include <cstddef>
#include <cstdint>
#include <memory>

#include "daemon/bounded_executor.h"
#include "daemon/delayed_executor.h"
#include "daemon/ipc_registry.h"
#include "daemon/kernel_compiler.h"
#include "daemon/message_sink.h"
#include "daemon/session/session.h"
#include "daemon/tdt_queues.h"
#include "google/protobuf/stubs/logging.h"
#include "npud/v1/npud.pb.h"
#include "simdevice/device_set.h"
#include "spdlog/spdlog.h"

namespace {

// Drops what the session sends.
class NullSink final : public npud::daemon::MessageSink {
 public:
  void Send(npud::v1::ServerMessage) override {}
};

// Daemon-wide services, made once for all inputs (as in npud).
struct Services {
  Services() {
    spdlog::set_level(spdlog::level::off);
    npud::sim::DeviceSet::Options options;
    options.device_count = 2;
    options.device.hbm_bytes = 64ull << 20;
    options.scheduler_threads = 2;
    options.host_memory_limit_bytes = 96ull << 20;
    devices = *npud::sim::DeviceSet::Create(options);
  }
  std::unique_ptr<npud::sim::DeviceSet> devices;
  npud::daemon::DelayedExecutor timers;
  npud::daemon::IpcRegistry ipc{7};
  npud::daemon::TdtQueues tdt_queues;
  std::shared_ptr<npud::daemon::KernelCompiler> compiler =
      std::make_shared<npud::daemon::KernelCompiler>(
          npud::daemon::KernelCompiler::Options{"/nonexistent"});
  npud::daemon::BoundedExecutor compilations{"fuzz compilations", 1, 2};
  npud::daemon::BoundedExecutor copy_helpers{"fuzz copy helpers", 1, 0};
};

}  // namespace

// Protobuf logs every string field with bad UTF-8; the inputs are meant to
// have them.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  google::protobuf::SetLogHandler(nullptr);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static Services* services = new Services();  // lives as long as the process
  static uint64_t next_session = 1;
  npud::v1::ClientMessage message;
  if (!message.ParseFromArray(data, static_cast<int>(size)) || !message.has_batch()) return 0;
  // Loading a binary hands its bytes to the loader and compiling runs g++:
  // both are outside the decoder and dispatcher, and covered by their tests.
  for (const npud::v1::Call& call : message.batch().calls()) {
    if (call.has_load_binary() || call.has_compile_program()) return 0;
  }
  npud::daemon::SessionServices session_services;
  session_services.devices = services->devices.get();
  session_services.timers = &services->timers;
  session_services.ipc = &services->ipc;
  session_services.tdt_queues = &services->tdt_queues;
  session_services.compiler = services->compiler;
  session_services.compilations = &services->compilations;
  session_services.copy_helpers = &services->copy_helpers;
  auto session = std::make_unique<npud::daemon::Session>(
      next_session++, npud::daemon::PeerInfo{1000, 0, "fuzz", "fuzz"}, std::move(session_services),
      std::make_shared<NullSink>());
  session->Process(message.mutable_batch());
  session.reset();  // releases what the batch left behind
  return 0;
}
