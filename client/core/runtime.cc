#include "client/core/runtime.h"

#include <errno.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/strip.h"
#include "client/core/client_log.h"
#include "client/core/init_callbacks.h"
#include "client/transport/daemon_locator.h"
#include "common/acl_status.h"
#include "common/lock_order_checks.h"
#include "common/protocol_version.h"
#include "common/status_macros.h"

namespace npud::client {
namespace {

constexpr char kDefaultSoc[] = "Ascend910B1";

std::string AuthToken() {
  if (const char* token = std::getenv("NPUD_TOKEN"); token != nullptr) return token;
  if (const char* file = std::getenv("NPUD_TOKEN_FILE"); file != nullptr) {
    std::ifstream in(file);
    std::string token;
    std::getline(in, token);
    return std::string(absl::StripAsciiWhitespace(token));
  }
  return "";
}

v1::Hello MakeHello() {
  v1::Hello hello;
  hello.set_protocol_version(protocol_version::kCurrent);
  hello.set_pid(getpid());
  hello.set_uid(getuid());
  char host[256] = {};
  gethostname(host, sizeof(host) - 1);
  hello.set_host(host);
  hello.set_auth_token(AuthToken());
  hello.set_program(program_invocation_short_name);
  return hello;
}

// aclInit accepts a JSON configuration file; we check that it is readable
// and looks like a JSON object, and otherwise ignore its settings.
// The content of aclInit's configuration file, checked to be a JSON object.
absl::StatusOr<std::string> ReadConfigFile(const char* path) {
  std::ifstream in(path);
  if (!in) {
    return AclError(kAclInvalidFile, absl::StrCat("cannot read ACL config file ", path));
  }
  std::stringstream content;
  content << in.rdbuf();
  const std::string text(absl::StripAsciiWhitespace(content.str()));
  if (!text.empty() && (text.front() != '{' || text.back() != '}')) {
    return AclError(kAclParseFile, absl::StrCat("ACL config file ", path, " is not a JSON object"));
  }
  return content.str();
}

// Queued asynchronous calls (an event record another process waits for)
// must not die with a process that exits without synchronizing.
void FlushAtExit() { Runtime::Get().FlushSession(); }

}  // namespace

std::atomic<Runtime*> Runtime::installed_{nullptr};

Runtime& Runtime::Get() {
  if (Runtime* installed = installed_.load(std::memory_order_acquire); installed != nullptr) {
    return *installed;
  }
  static Runtime* runtime = [] {
    ConfigureLockOrderChecks();
    return new Runtime(LocateDaemon);
  }();
  return *runtime;
}

Runtime::Runtime(TransportFactory connect) : connect_(std::move(connect)) {}

Runtime::~Runtime() {
  absl::MutexLock lock(&mu_);
  if (session_ != nullptr) session_->Stop();
}

absl::Status Runtime::ConnectLocked() {
  InitClientLog();
  auto transport = connect_();
  if (!transport.ok()) return AclError(kRtDevSetupError, transport.status().message());
  auto session = std::make_unique<CallPipeline>(*std::move(transport));
  auto hello = session->Start(MakeHello());
  if (!hello.ok()) {
    // npud answered and refused this client (a wrong token, a uid it does
    // not admit): CANN's "no permission", not a device that failed to set up.
    const bool refused =
        absl::IsUnauthenticated(hello.status()) || absl::IsPermissionDenied(hello.status());
    return AclError(refused ? kRtNoPermission : kRtDevSetupError,
                    absl::StrCat("cannot open a session with npud at ", session->Describe(), ": ",
                                 hello.status().message()));
  }
  ClientLog().debug("session {} with npud {} at {}: {} device(s)", hello->session_id(),
                    hello->daemon_version(), session->Describe(), hello->devices_size());
  hello_ = *std::move(hello);
  session_ = std::move(session);
  if (const char* path = std::getenv("NPUD_TRACE"); path != nullptr && *path != '\0') {
    const std::string where = session_->Describe();
    const bool same_clock = absl::StartsWith(where, "unix") || absl::StartsWith(where, "inproc");
    auto trace = SessionTrace::Begin(*session_, path, same_clock);
    if (trace.ok()) {
      trace_ = *std::move(trace);
    } else {
      ClientLog().warn("NPUD_TRACE={}: no trace: {}", path, std::string(trace.status().message()));
    }
  }
  static const bool registered = std::atexit(FlushAtExit) == 0;
  (void)registered;
  return absl::OkStatus();
}

absl::Status Runtime::Init(const char* config_path) {
  const bool has_config_file = config_path != nullptr && *config_path != '\0';
  std::string config;
  {
    absl::MutexLock lock(&mu_);
    if (init_count_ > 0) {
      ++init_count_;
      return AclError(kAclRepeatInitialize, "aclInit was already called");
    }
    if (has_config_file) {
      NPUD_ASSIGN_OR_RETURN(config, ReadConfigFile(config_path));
    }
    init_count_ = 1;
    finalized_ = false;
  }
  // Unlocked: the callbacks may use the runtime.
  absl::Status hooked = RunInitCallbacks(config, has_config_file);
  if (!hooked.ok()) {
    absl::MutexLock lock(&mu_);
    init_count_ = 0;
  }
  return hooked;
}

absl::Status Runtime::Finalize() {
  {
    absl::MutexLock lock(&mu_);
    if (finalized_) return AclError(kAclRepeatFinalize, "aclFinalize was already called");
    finalized_ = true;
    init_count_ = 0;
    FinishTraceLocked();
  }
  return RunFinalizeCallbacks();
}

void Runtime::FinishTraceLocked() {
  if (trace_ == nullptr) return;
  const absl::Status written = trace_->Finish(*session_);
  if (!written.ok()) ClientLog().warn("NPUD_TRACE: {}", std::string(written.message()));
  trace_.reset();
}

absl::StatusOr<uint64_t> Runtime::FinalizeReference() {
  {
    absl::MutexLock lock(&mu_);
    if (init_count_ == 0) return AclError(kAclRepeatFinalize, "aclInit has not been called");
    if (--init_count_ > 0) return init_count_;
    finalized_ = true;
  }
  NPUD_RETURN_IF_ERROR(RunFinalizeCallbacks());
  return 0;
}

absl::StatusOr<CallPipeline*> Runtime::Session() {
  absl::MutexLock lock(&mu_);
  if (session_ == nullptr) {
    NPUD_RETURN_IF_ERROR(ConnectLocked());
  }
  return session_.get();
}

void Runtime::FlushSession() {
  absl::MutexLock lock(&mu_);
  if (session_ != nullptr) session_->Flush();
  FinishTraceLocked();
}

absl::StatusOr<std::vector<v1::DeviceDescription>> Runtime::Devices() {
  absl::MutexLock lock(&mu_);
  if (session_ == nullptr) {
    NPUD_RETURN_IF_ERROR(ConnectLocked());
  }
  return std::vector<v1::DeviceDescription>(hello_.devices().begin(), hello_.devices().end());
}

absl::Status Runtime::CheckDevice(int32_t device, AclCode invalid_code) {
  NPUD_ASSIGN_OR_RETURN(const std::vector<v1::DeviceDescription> devices, Devices());
  if (device < 0 || device >= static_cast<int32_t>(devices.size())) {
    return AclError(invalid_code,
                    absl::StrFormat("invalid device id %d (%d devices)", device, devices.size()));
  }
  return absl::OkStatus();
}

bool Runtime::IsDevicePointer(const void* pointer) const {
  const uint64_t address = reinterpret_cast<uint64_t>(pointer);
  absl::MutexLock lock(&mu_);
  for (const auto& device : hello_.devices()) {
    if (address >= device.va_base() && address - device.va_base() < device.va_size()) return true;
  }
  return address >= hello_.vmm_base() && address - hello_.vmm_base() < hello_.vmm_size();
}

Runtime::Limits Runtime::limits() const {
  absl::MutexLock lock(&mu_);
  return Limits{hello_.stream_limit(), hello_.event_limit()};
}

absl::StatusOr<int64_t> Runtime::PeerPid() {
  absl::MutexLock lock(&mu_);
  if (session_ == nullptr) NPUD_RETURN_IF_ERROR(ConnectLocked());
  return hello_.peer_pid();
}

std::string Runtime::SocName() {
  absl::MutexLock lock(&mu_);
  if (session_ == nullptr && !ConnectLocked().ok()) {
    ClientLog().warn("no npud reachable; reporting the default SoC {}", kDefaultSoc);
    return kDefaultSoc;
  }
  if (hello_.devices_size() == 0) return kDefaultSoc;
  return hello_.devices(0).soc_name();
}

}  // namespace npud::client
