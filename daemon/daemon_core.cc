#include "daemon/daemon_core.h"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <random>
#include <utility>

#include "absl/strings/str_format.h"
#include "common/constant_time.h"
#include "common/protocol_version.h"
#include "common/status_macros.h"
#include "daemon/session/bulk_link.h"
#include "spdlog/spdlog.h"

namespace npud::daemon {
namespace {

// The directory of the file that holds this code: <prefix>/bin for npud,
// <prefix>/lib64 for a client library running devices in process. dladdr
// names the main program as it was started (just "npud" when found through
// PATH, as container entrypoints start it), so that one is read from /proc.
std::string DirectoryOfThisCode() {
  std::string file;
  Dl_info info;
  if (dladdr(reinterpret_cast<void*>(&DirectoryOfThisCode), &info) != 0 &&
      info.dli_fname != nullptr && info.dli_fname[0] == '/') {
    file = info.dli_fname;
  }
  if (file.empty()) {
    char exe[4096];
    const ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    if (n > 0) file.assign(exe, n);
  }
  return file.substr(0, file.rfind('/'));
}

// See Options::kernel_include_dir.
std::string KernelIncludeDir(const std::string& configured) {
  if (!configured.empty()) return configured;
  const std::string installed = DirectoryOfThisCode() + "/../tikcpp/ascendc_kernel_cmake/include";
  if (access((installed + "/kernel_operator.h").c_str(), R_OK) == 0) return installed;
  return NPUD_SOURCE_ASCENDC_INCLUDE;
}

KernelCompiler::Options CompilerOptions(const DaemonCore::Options& options) {
  KernelCompiler::Options compiler;
  compiler.include_dir = KernelIncludeDir(options.kernel_include_dir);
  if (access((compiler.include_dir + "/kernel_operator.h").c_str(), R_OK) == 0) {
    spdlog::info("run-time compilation builds against the AscendC headers in {}",
                 compiler.include_dir);
  } else {
    spdlog::warn(
        "no AscendC headers in {}: run-time compilation will fail (set "
        "--kernel_include_dir)",
        compiler.include_dir);
  }
  compiler.sandbox = options.compile_sandbox;
  return compiler;
}

uint64_t RandomId() {
  std::random_device rd;
  return (static_cast<uint64_t>(rd()) << 32) ^ rd();
}

void DescribeDevice(const sim::Device& device, v1::DeviceDescription* d) {
  d->set_device_id(device.id());
  d->set_soc_name(device.config().soc_name);
  d->set_hbm_bytes(device.memory().capacity());
  d->set_cube_cores(device.config().cube_cores);
  d->set_vector_cores(device.config().vector_cores);
  d->set_ub_bytes(device.config().ub_bytes);
  d->set_l2_bytes(device.config().l2_bytes);
  d->set_va_base(device.memory().base());
  d->set_va_size(device.memory().span());
}

}  // namespace

absl::StatusOr<std::unique_ptr<DaemonCore>> DaemonCore::Create(const Options& options) {
  NPUD_ASSIGN_OR_RETURN(std::unique_ptr<sim::DeviceSet> devices,
                        sim::DeviceSet::Create(options.devices));
  return std::unique_ptr<DaemonCore>(new DaemonCore(options, std::move(devices)));
}

DaemonCore::DaemonCore(const Options& options, std::unique_ptr<sim::DeviceSet> devices)
    : auth_tokens_(options.auth_tokens),
      instance_id_(RandomId()),
      kernel_host_(options.kernel_host),
      session_limits_(options.session_limits),
      compiler_(std::make_shared<KernelCompiler>(CompilerOptions(options))),
      devices_(std::move(devices)),
      ipc_(instance_id_),
      compilations_("compilations", std::max(1, options.compile_jobs), 32) {}

DaemonCore::~DaemonCore() {
  absl::flat_hash_map<uint64_t, std::shared_ptr<Session>> sessions;
  {
    absl::MutexLock lock(&mu_);
    sessions.swap(sessions_);
  }
  sessions.clear();
}

absl::StatusOr<DaemonCore::Opened> DaemonCore::OpenSession(
    const v1::Hello& hello, std::shared_ptr<MessageSink> sink,
    std::optional<PeerCredentials> credentials, bool remote) {
  if (hello.protocol_version() < protocol_version::kMinimum ||
      hello.protocol_version() > protocol_version::kCurrent) {
    return absl::FailedPreconditionError(absl::StrFormat(
        "client speaks protocol version %d; this npud supports %d..%d", hello.protocol_version(),
        protocol_version::kMinimum, protocol_version::kCurrent));
  }
  const AuthToken* token = nullptr;
  if (!auth_tokens_.empty()) {
    token = FindAuthToken(auth_tokens_, hello.auth_token());
    if (token == nullptr) {
      spdlog::warn("rejected client pid {} on {}: bad auth token", hello.pid(), hello.host());
      return absl::UnauthenticatedError("invalid npud auth token");
    }
  }
  // The token's own limits, where it has them.
  SessionLimits limits = session_limits_;
  KernelHostOptions kernel_host = kernel_host_;
  if (token != nullptr) {
    limits.memory_bytes = token->memory_bytes.value_or(limits.memory_bytes);
    limits.streams = token->streams.value_or(limits.streams);
    limits.events = token->events.value_or(limits.events);
    kernel_host.max_threads = token->kernel_threads.value_or(kernel_host.max_threads);
    kernel_host.cpu_weight = token->weight.value_or(kernel_host.cpu_weight);
  }
  PeerInfo peer{hello.pid(), hello.uid(), hello.host(), hello.program()};
  if (token != nullptr) peer.tenant = token->name;
  if (credentials.has_value()) {
    peer.pid = credentials->pid;
    peer.uid = credentials->uid;
    peer.verified = true;
  }
  const uint64_t id = next_session_id_++;
  SessionServices services;
  services.devices = devices_.get();
  services.timers = &timers_;
  services.ipc = &ipc_;
  services.tdt_queues = &tdt_queues_;
  services.compiler = compiler_;
  services.compilations = &compilations_;
  services.copy_helpers = &copy_helpers_;
  services.kernel_host = kernel_host;
  services.limits = limits;
  services.daemon_copied = &copied_;
  services.kernel_stats = &kernel_stats_;
  const int bulk_port = remote ? bulk_port_.load() : 0;
  auto bulk = bulk_port != 0 ? std::make_shared<BulkLink>() : nullptr;
  auto session = std::make_shared<Session>(id, peer, std::move(services), std::move(sink), bulk);
  {
    absl::MutexLock lock(&mu_);
    sessions_[id] = session;
  }
  spdlog::info("session {} opened: pid {} uid {} ({}) host {} program {}{}", id, peer.pid, peer.uid,
               peer.verified ? "from the kernel" : "claimed", peer.host, peer.program,
               peer.tenant.empty() ? "" : " tenant " + peer.tenant);

  v1::HelloReply reply;
  reply.set_session_id(id);
  reply.set_protocol_version(protocol_version::kCurrent);
  reply.set_daemon_version(NPUD_VERSION);
  reply.set_instance_id(instance_id_);
  reply.set_vmm_base(devices_->vmm().base());
  reply.set_vmm_size(devices_->vmm().span());
  reply.set_stream_limit(limits.streams);
  reply.set_event_limit(limits.events);
  reply.set_peer_pid(peer.pid);
  if (bulk != nullptr) {
    reply.set_bulk_port(bulk_port);
    reply.set_bulk_key(bulk->key());
  }
  for (int i = 0; i < devices_->count(); ++i)
    DescribeDevice(**devices_->Get(i), reply.add_devices());
  return Opened{std::move(reply), std::move(session)};
}

void DaemonCore::CloseSession(uint64_t session_id) {
  std::shared_ptr<Session> session;
  {
    absl::MutexLock lock(&mu_);
    auto it = sessions_.find(session_id);
    if (it == sessions_.end()) return;
    session = std::move(it->second);
    sessions_.erase(it);
  }
  // Destroyed here (outside mu_) unless the transport still holds it.
}

absl::Status DaemonCore::KillSession(uint64_t session_id, const std::string& who) {
  std::shared_ptr<Session> session;
  {
    absl::MutexLock lock(&mu_);
    auto it = sessions_.find(session_id);
    if (it == sessions_.end()) {
      return absl::NotFoundError(absl::StrFormat("no session %d", session_id));
    }
    session = it->second;
  }
  const v1::SessionStatus status = session->Status();
  spdlog::warn("session {} (pid {}, {}) killed by an admin call from {}", session_id, status.pid(),
               status.program(), who);
  session->Disconnect();
  return absl::OkStatus();
}

absl::StatusOr<v1::TraceResult> DaemonCore::TraceSession(uint64_t session_id,
                                                         absl::Duration duration, bool blocks,
                                                         const std::function<bool()>& cancelled) {
  std::weak_ptr<Session> weak;
  std::shared_ptr<SessionTimeline> timeline;
  {
    absl::MutexLock lock(&mu_);
    auto it = sessions_.find(session_id);
    if (it == sessions_.end()) {
      return absl::NotFoundError(absl::StrFormat("no session %d", session_id));
    }
    weak = it->second;
    timeline = it->second->timeline();
  }
  const absl::Time deadline = absl::Now() + std::min(duration, absl::Minutes(10));
  spdlog::info("session {}: tracing for {}{}", session_id,
               absl::FormatDuration(std::min(duration, absl::Minutes(10))),
               blocks ? " with kernel blocks" : "");
  const uint64_t cursor = timeline->Start(blocks);
  // Polled: the session may end, and npud may be asked to stop.
  for (absl::Time now = absl::Now(); now < deadline && !weak.expired() && !cancelled();
       now = absl::Now()) {
    absl::SleepFor(std::min(deadline - now, absl::Milliseconds(50)));
  }
  return timeline->Stop(cursor, blocks);
}

absl::StatusOr<std::shared_ptr<BulkLink>> DaemonCore::FindBulkLink(uint64_t session_id) const {
  absl::MutexLock lock(&mu_);
  auto it = sessions_.find(session_id);
  if (it == sessions_.end() || it->second->bulk() == nullptr) {
    return absl::NotFoundError(absl::StrFormat("no session %d with a bulk channel", session_id));
  }
  return it->second->bulk();
}

v1::ListDevicesReply DaemonCore::ListDevices() const {
  v1::ListDevicesReply reply;
  v1::ListSessionsReply sessions = ListSessions();
  for (int i = 0; i < devices_->count(); ++i) {
    const sim::Device& device = **devices_->Get(i);
    v1::DeviceStatus* status = reply.add_devices();
    DescribeDevice(device, status->mutable_description());
    status->set_used_bytes(device.memory().used_bytes());
    uint32_t users = 0, streams = 0, queued = 0;
    for (const auto& session : sessions.sessions()) {
      users += session.memory_bytes().contains(i) || session.device_streams().contains(i);
      if (auto it = session.device_streams().find(i); it != session.device_streams().end()) {
        streams += it->second;
      }
      if (auto it = session.queued_tasks().find(i); it != session.queued_tasks().end()) {
        queued += it->second;
      }
    }
    status->set_sessions(users);
    status->set_streams(streams);
    status->set_queued_tasks(queued);
  }
  return reply;
}

v1::ListSessionsReply DaemonCore::ListSessions() const {
  v1::ListSessionsReply reply;
  absl::MutexLock lock(&mu_);
  for (const auto& [id, session] : sessions_) *reply.add_sessions() = session->Status();
  return reply;
}

size_t DaemonCore::session_count() const {
  absl::MutexLock lock(&mu_);
  return sessions_.size();
}

}  // namespace npud::daemon
