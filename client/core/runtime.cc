#include "client/core/runtime.h"

#include <errno.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string_view>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/strip.h"
#include "client/core/client_log.h"
#include "client/core/context_ops.h"
#include "client/core/dumps.h"
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
    return new Runtime(LocateDaemons);
  }();
  return *runtime;
}

Runtime::Runtime(TransportFactory connect) : connect_(std::move(connect)) {}

Runtime::~Runtime() {
  absl::MutexLock lock(&mu_);
  for (Daemon& daemon : daemons_) daemon.session->Stop();
}

absl::Status Runtime::ConnectLocked() {
  InitClientLog();
  auto transports = connect_();
  if (!transports.ok()) {
    // A socket this user may not open (its mode): CANN's "no permission".
    return AclError(
        absl::IsPermissionDenied(transports.status()) ? kRtNoPermission : kRtDevSetupError,
        transports.status().message());
  }
  std::vector<Daemon> daemons;
  std::vector<CallRouter::DaemonLayout> layouts;
  for (std::unique_ptr<Transport>& transport : *transports) {
    auto session = std::make_unique<CallPipeline>(std::move(transport));
    auto hello = session->Start(MakeHello());
    if (!hello.ok()) {
      // npud answered and refused this client (a wrong token, a uid it does
      // not admit): CANN's "no permission", not a device that failed to set up.
      const bool refused =
          absl::IsUnauthenticated(hello.status()) || absl::IsPermissionDenied(hello.status());
      for (Daemon& opened : daemons) opened.session->Stop();
      return AclError(refused ? kRtNoPermission : kRtDevSetupError,
                      absl::StrCat("cannot open a session with npud at ", session->Describe(), ": ",
                                   hello.status().message()));
    }
    ClientLog().debug("session {} with npud {} at {}: {} device(s)", hello->session_id(),
                      hello->daemon_version(), session->Describe(), hello->devices_size());
    CallRouter::DaemonLayout layout{session->Describe(), hello->devices_size(), {}};
    for (const v1::DeviceDescription& device : hello->devices()) {
      layout.address_ranges.emplace_back(device.va_base(), device.va_size());
    }
    if (hello->vmm_size() != 0)
      layout.address_ranges.emplace_back(hello->vmm_base(), hello->vmm_size());
    layouts.push_back(std::move(layout));
    auto copies = std::make_unique<CopyPlanner>(*session);
    daemons.push_back(Daemon{std::move(session), std::move(copies), *std::move(hello)});
  }
  if (daemons.size() > 1) {
    auto router = CallRouter::Create(std::move(layouts));
    if (!router.ok()) {
      for (Daemon& opened : daemons) opened.session->Stop();
      return AclError(kRtDevSetupError, router.status().message());
    }
    router_ = *std::move(router);
    for (size_t i = 0; i < daemons.size(); ++i) {
      daemons[i].session->set_first_device(router_->GlobalDevice(i, 0));
    }
  }
  daemons_ = std::move(daemons);
  // The timeline is the first daemon's: npud clocks of different hosts do
  // not compare.
  CallPipeline& primary = *daemons_.front().session;
  if (const char* path = std::getenv("NPUD_TRACE"); path != nullptr && *path != '\0') {
    const std::string where = primary.Describe();
    const bool same_clock = absl::StartsWith(where, "unix") || absl::StartsWith(where, "inproc");
    const char* blocks = std::getenv("NPUD_TRACE_BLOCKS");
    auto trace = SessionTrace::Begin(primary, path, same_clock,
                                     blocks != nullptr && std::string_view(blocks) == "1");
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
  absl::Status hooked = Dumps::Get().ApplyInitConfig(config);
  if (hooked.ok()) hooked = RunInitCallbacks(config, has_config_file);
  if (!hooked.ok()) {
    absl::MutexLock lock(&mu_);
    init_count_ = 0;
  }
  return hooked;
}

bool Runtime::initialized() const {
  absl::MutexLock lock(&mu_);
  return init_count_ > 0;
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
  const absl::Status written = trace_->Finish(*daemons_.front().session);
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
  NPUD_RETURN_IF_ERROR(EnsureConnectedLocked());
  return daemons_.front().session.get();
}

absl::StatusOr<Runtime::Target> Runtime::Route(v1::Call& call) {
  CallRouter* router;
  {
    absl::MutexLock lock(&mu_);
    NPUD_RETURN_IF_ERROR(EnsureConnectedLocked());
    if (router_ == nullptr) return Target{daemons_.front().session.get(), 0};
    router = router_.get();  // Never changes once set.
  }
  // Outside mu_: the context table has a lock of its own.
  size_t fallback = 0;
  if (auto device = CurrentDevice(); device.ok()) {
    if (auto local = router->LocalDevice(*device)) fallback = local->first;
  }
  NPUD_ASSIGN_OR_RETURN(const size_t daemon, router->Route(call, fallback));
  absl::MutexLock lock(&mu_);
  return Target{daemons_[daemon].session.get(), daemon};
}

absl::StatusOr<CopyPlanner*> Runtime::CopiesFor(uint64_t stream_id, uint64_t address) {
  absl::MutexLock lock(&mu_);
  NPUD_RETURN_IF_ERROR(EnsureConnectedLocked());
  if (router_ == nullptr) return daemons_.front().copies.get();
  NPUD_ASSIGN_OR_RETURN(const size_t daemon, router_->RouteCopy(stream_id, address, 0));
  return daemons_[daemon].copies.get();
}

absl::StatusOr<std::vector<CallPipeline*>> Runtime::Sessions() {
  absl::MutexLock lock(&mu_);
  NPUD_RETURN_IF_ERROR(EnsureConnectedLocked());
  std::vector<CallPipeline*> sessions;
  for (const Daemon& daemon : daemons_) sessions.push_back(daemon.session.get());
  return sessions;
}

void Runtime::GlobalizeReply(size_t daemon, v1::Reply& reply) const {
  absl::MutexLock lock(&mu_);
  if (router_ != nullptr) router_->GlobalizeReply(daemon, reply);
}

size_t Runtime::daemon_count() const {
  absl::MutexLock lock(&mu_);
  return daemons_.empty() ? 1 : daemons_.size();
}

bool Runtime::SameDaemon(uint64_t a, uint64_t b) const {
  absl::MutexLock lock(&mu_);
  return router_ == nullptr || router_->DaemonOfAddress(a) == router_->DaemonOfAddress(b);
}

void Runtime::FlushSession() {
  absl::MutexLock lock(&mu_);
  for (Daemon& daemon : daemons_) daemon.session->Flush();
  FinishTraceLocked();
}

absl::StatusOr<std::vector<v1::DeviceDescription>> Runtime::Devices() {
  absl::MutexLock lock(&mu_);
  NPUD_RETURN_IF_ERROR(EnsureConnectedLocked());
  std::vector<v1::DeviceDescription> devices;
  for (const Daemon& daemon : daemons_) {
    for (v1::DeviceDescription device : daemon.hello.devices()) {
      device.set_device_id(static_cast<int32_t>(devices.size()));
      devices.push_back(std::move(device));
    }
  }
  return devices;
}

absl::Status Runtime::CheckDevice(int32_t device, AclCode invalid_code) {
  NPUD_ASSIGN_OR_RETURN(const std::vector<v1::DeviceDescription> devices, Devices());
  if (device < 0 || device >= static_cast<int32_t>(devices.size())) {
    return AclError(invalid_code,
                    absl::StrFormat("invalid device id %d (%d devices)", device, devices.size()));
  }
  return absl::OkStatus();
}

absl::StatusOr<Runtime::DevicePlace> Runtime::PlaceOf(int32_t device) {
  absl::MutexLock lock(&mu_);
  NPUD_RETURN_IF_ERROR(EnsureConnectedLocked());
  int32_t first = 0;
  for (size_t i = 0; i < daemons_.size(); ++i) {
    const v1::HelloReply& hello = daemons_[i].hello;
    if (device >= first && device - first < hello.devices_size()) {
      return DevicePlace{i, hello.instance_id(), hello.devices(device - first).device_id()};
    }
    first += hello.devices_size();
  }
  return AclError(kRtInvalidDeviceId,
                  absl::StrFormat("invalid device id %d (%d devices)", device, first));
}

bool Runtime::IsDevicePointer(const void* pointer) const {
  const uint64_t address = reinterpret_cast<uint64_t>(pointer);
  absl::MutexLock lock(&mu_);
  for (const Daemon& daemon : daemons_) {
    const v1::HelloReply& hello = daemon.hello;
    for (const auto& device : hello.devices()) {
      if (address >= device.va_base() && address - device.va_base() < device.va_size()) {
        return true;
      }
    }
    if (address >= hello.vmm_base() && address - hello.vmm_base() < hello.vmm_size()) return true;
  }
  return false;
}

bool Runtime::IsReservedAddress(const void* pointer) const {
  const uint64_t address = reinterpret_cast<uint64_t>(pointer);
  absl::MutexLock lock(&mu_);
  for (const Daemon& daemon : daemons_) {
    const v1::HelloReply& hello = daemon.hello;
    if (address >= hello.vmm_base() && address - hello.vmm_base() < hello.vmm_size()) return true;
  }
  return false;
}

Runtime::Limits Runtime::limits() const {
  absl::MutexLock lock(&mu_);
  if (daemons_.empty()) return Limits{};
  const v1::HelloReply& hello = daemons_.front().hello;
  return Limits{hello.stream_limit(), hello.event_limit()};
}

absl::StatusOr<int64_t> Runtime::PeerPid() {
  absl::MutexLock lock(&mu_);
  NPUD_RETURN_IF_ERROR(EnsureConnectedLocked());
  return daemons_.front().hello.peer_pid();
}

std::string Runtime::SocName() {
  absl::MutexLock lock(&mu_);
  if (!EnsureConnectedLocked().ok()) {
    ClientLog().warn("no npud reachable; reporting the default SoC {}", kDefaultSoc);
    return kDefaultSoc;
  }
  const v1::HelloReply& hello = daemons_.front().hello;
  if (hello.devices_size() == 0) return kDefaultSoc;
  return hello.devices(0).soc_name();
}

}  // namespace npud::client
