#include "simdevice/executor/kernel_host.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "common/acl_status.h"
#include "common/frame_io.h"
#include "common/subprocess.h"
#include "simdevice/kernel_blocks.h"
#include "spdlog/spdlog.h"

extern char** environ;

namespace npud::sim {
namespace {

// How long loading may take before the host is given up on (a binary whose
// constructor never returns).
constexpr absl::Duration kStartTimeout = absl::Seconds(30);
// How often the private memory of a host with launches in flight is counted.
constexpr absl::Duration kChargeInterval = absl::Milliseconds(100);

std::string DescribeExit(int status) {
  if (WIFEXITED(status)) return absl::StrCat("exited with status ", WEXITSTATUS(status));
  if (WIFSIGNALED(status)) {
    return absl::StrCat("was killed by signal ", WTERMSIG(status), " (",
                        strsignal(WTERMSIG(status)), ")");
  }
  return "ended";
}

// Waits for the host `pid` to end, then removes its CPU group (if it has
// one), which only an empty group allows. Returns how it ended.
std::string Reap(pid_t pid, const KernelHostConfig& config) {
  int status = 0;
  std::string death;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      death = "ended (not reapable)";
      break;
    }
  }
  if (death.empty()) death = DescribeExit(status);
  if (config.cpu_groups != nullptr) config.cpu_groups->Remove(pid);
  return death;
}

// A host gets no environment of npud's (it may hold secrets), only what the
// sanitizer runtimes of a checked build read.
std::vector<std::string> HostEnvironment() {
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e) {
    for (const char* prefix : {"ASAN_", "UBSAN_", "LSAN_"}) {
      if (absl::StartsWith(*e, prefix)) env.emplace_back(*e);
    }
  }
  return env;
}

// Starts `binary` as a host of npud with `flags`; *channel and *output get
// npud's ends of its control socket (may be null) and output pipe.
absl::StatusOr<pid_t> SpawnHost(const std::string& binary, std::vector<std::string> flags,
                                UniqueFd* channel, UniqueFd* output) {
  int pipe_ends[2];
  if (pipe2(pipe_ends, O_CLOEXEC) != 0) {
    return absl::InternalError(absl::StrCat("pipe2: ", std::strerror(errno)));
  }
  output->reset(pipe_ends[0]);
  UniqueFd output_end(pipe_ends[1]);
  UniqueFd theirs;
  if (channel != nullptr) {
    int pair[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0) {
      return absl::InternalError(absl::StrCat("socketpair: ", std::strerror(errno)));
    }
    channel->reset(pair[0]);
    theirs.reset(pair[1]);
  }
  SpawnOptions spawn;
  spawn.argv = {binary, absl::StrCat(getpid())};
  spawn.argv.insert(spawn.argv.end(), flags.begin(), flags.end());
  spawn.output_fd = output_end.get();
  spawn.inherit_environment = false;
  spawn.extra_env = HostEnvironment();
  // A session of its own: an autogroup, which the CPUs are shared between
  // (host_cpu_share.h).
  spawn.detach = SpawnOptions::Detach::kSession;
  if (channel != nullptr) spawn.pass_fds = {theirs.get()};
  absl::StatusOr<pid_t> pid = Spawn(spawn);
  if (!pid.ok()) {
    return absl::Status(pid.status().code(),
                        absl::StrCat("cannot start the kernel host: ", pid.status().message()));
  }
  return pid;
}

std::vector<std::string> SandboxFlags(KernelSandbox sandbox, uid_t uid, gid_t gid) {
  return {sandbox == KernelSandbox::kStrict ? "--sandbox=strict" : "--sandbox=weak",
          absl::StrCat("--uid=", uid), absl::StrCat("--gid=", gid)};
}

absl::Status ParseReady(const std::string& payload, size_t binaries,
                        std::vector<DescribedBinary>* described) {
  host::Reader in(payload);
  uint32_t count = 0;
  if (in.op() != host::Op::kReady || !in.Get(&count) || count != binaries) {
    return absl::InternalError("kernel host answered its start with garbage");
  }
  for (uint32_t i = 0; i < count; ++i) {
    DescribedBinary binary;
    uint32_t kernels = 0;
    if (!in.GetString(&binary.error) || !in.Get(&kernels)) break;
    for (uint32_t k = 0; k < kernels && in.ok(); ++k) {
      host::KernelEntryInfo kernel;
      uint32_t params = 0;
      in.GetString(&kernel.name);
      in.Get(&kernel.args_size);
      in.Get(&kernel.kernel_type);
      in.Get(&params);
      for (uint32_t p = 0; p < params && in.ok(); ++p) {
        uint32_t offset = 0, size = 0;
        in.Get(&offset);
        in.Get(&size);
        kernel.params.emplace_back(offset, size);
      }
      in.Get(&kernel.code_offset);
      in.Get(&kernel.code_size);
      binary.kernels.push_back(std::move(kernel));
    }
    uint32_t variables = 0;
    in.Get(&variables);
    for (uint32_t v = 0; v < variables && in.ok(); ++v) {
      host::VariableEntryInfo variable;
      in.GetString(&variable.name);
      in.Get(&variable.address);
      in.Get(&variable.size);
      in.GetString(&variable.initial);
      if (variable.initial.size() != variable.size) {
        return absl::InternalError("kernel host described a device variable wrongly");
      }
      binary.variables.push_back(std::move(variable));
    }
    described->push_back(std::move(binary));
  }
  if (!in.ok()) return absl::InternalError("kernel host answered its start with garbage");
  return absl::OkStatus();
}

}  // namespace

KernelHost::KernelHost(const KernelHostConfig& config, pid_t pid, UniqueFd pidfd, UniqueFd channel,
                       UniqueFd output)
    : config_(config),
      pid_(pid),
      pidfd_(std::move(pidfd)),
      channel_(std::move(channel)),
      output_(std::move(output)) {}

absl::StatusOr<std::shared_ptr<KernelHost>> KernelHost::Start(
    const KernelHostConfig& config, absl::Span<const HostedBinary> binaries,
    std::vector<DescribedBinary>* described) {
  UniqueFd channel, output;
  std::vector<std::string> flags = SandboxFlags(config.sandbox, config.uid, config.gid);
  // In a CPU group of its own the group carries the weight.
  flags.push_back(absl::StrCat("--cpu_weight=", config.cpu_groups ? 1 : config.cpu_weight));
  absl::StatusOr<pid_t> pid = SpawnHost(config.binary, std::move(flags), &channel, &output);
  if (!pid.ok()) return pid.status();
  if (config.cpu_groups != nullptr) {
    // Before the host is told to load anything: its core threads start in
    // the group.
    if (absl::Status placed = config.cpu_groups->Place(*pid, config.cpu_weight); !placed.ok()) {
      spdlog::warn("session {}: kernel host {} shares the CPUs thread by thread: {}",
                   config.session_id, *pid, std::string(placed.message()));
    }
  }
  // Signals go through a pidfd: once reaped, a recycled pid is never hit.
  UniqueFd pidfd(static_cast<int>(syscall(SYS_pidfd_open, *pid, 0)));
  if (pidfd.get() < 0) {
    const int err = errno;
    kill(*pid, SIGKILL);
    Reap(*pid, config);
    return absl::InternalError(absl::StrCat("pidfd_open: ", std::strerror(err)));
  }
  std::shared_ptr<KernelHost> host(
      new KernelHost(config, *pid, std::move(pidfd), std::move(channel), std::move(output)));
  host->output_reader_ = std::thread([h = host.get()] { h->OutputLoop(); });
  if (absl::Status loaded = host->Load(binaries, described); !loaded.ok()) {
    host->SignalKill();
    const std::string death = Reap(*pid, config);
    {
      absl::MutexLock lock(&host->mu_);
      host->dead_ = true;
      host->death_ = death;
    }
    return absl::InternalError(absl::StrCat(loaded.message(), " (the kernel host ", death, ")"));
  }
  host->reader_ = std::thread([h = host.get()] { h->ReadLoop(); });
  host->watchdog_ = std::thread([h = host.get()] { h->WatchLoop(); });
  // Module constructors may have taken memory already.
  host->ChargeMemory();
  spdlog::info("session {}: kernel host {} started with {} binaries", config.session_id, *pid,
               binaries.size());
  return host;
}

absl::Status KernelHost::Load(absl::Span<const HostedBinary> binaries,
                              std::vector<DescribedBinary>* described) {
  host::Writer init(host::Op::kInit);
  init.Put(static_cast<uint32_t>(config_.cores))
      .Put(config_.ub_bytes)
      .Put(config_.data_limit_bytes);
  init.Put(static_cast<uint32_t>(config_.reservations.size()));
  for (const auto& [base, span] : config_.reservations) init.Put(base).Put(span);
  absl::Status sent = WriteFrame(channel_.get(), init.bytes());
  for (const HostedBinary& binary : binaries) {
    if (!sent.ok()) break;
    host::Writer module(host::Op::kModule);
    module.PutString(binary.label);
    const int fd = binary.fd;
    sent = WriteFrame(channel_.get(), module.bytes(), absl::MakeConstSpan(&fd, 1));
  }
  if (sent.ok()) sent = WriteFrame(channel_.get(), host::Writer(host::Op::kStart).bytes());
  if (!sent.ok()) return absl::InternalError("the kernel host went away while starting");

  // The answer comes after the binaries' constructors ran: bounded.
  timeval timeout = absl::ToTimeval(kStartTimeout);
  setsockopt(channel_.get(), SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
  std::string payload;
  std::vector<int> fds;
  absl::Status read = FrameReader(channel_.get()).Read(&payload, &fds);
  for (int fd : fds) close(fd);
  if (!read.ok()) return absl::InternalError("loading the kernel binaries ended the kernel host");
  timeout = timeval{};
  setsockopt(channel_.get(), SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
  return ParseReady(payload, binaries.size(), described);
}

absl::Status KernelHost::ProbeStrictSandbox(const std::string& binary, uid_t uid, gid_t gid) {
  UniqueFd output;
  absl::StatusOr<pid_t> pid = SpawnHost(
      binary, {"--sandbox=probe", absl::StrCat("--uid=", uid), absl::StrCat("--gid=", gid)},
      nullptr, &output);
  if (!pid.ok()) return pid.status();
  std::string said;
  char buffer[4096];
  while (said.size() < 64 * 1024) {
    const ssize_t n = read(output.get(), buffer, sizeof(buffer));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    said.append(buffer, static_cast<size_t>(n));
  }
  absl::StatusOr<ExitStatus> exit = WaitUntil(*pid, absl::Now() + absl::Seconds(10));
  if (!exit.ok()) return exit.status();
  if (exit->kind == ExitStatus::Kind::kExited && exit->value == 0) return absl::OkStatus();
  while (!said.empty() && said.back() == '\n') said.pop_back();
  return absl::FailedPreconditionError(said.empty() ? "the probe failed" : said);
}

KernelHost::~KernelHost() {
  {
    absl::MutexLock lock(&mu_);
    stopping_ = true;
  }
  SignalKill();
  shutdown(channel_.get(), SHUT_RDWR);
  for (std::thread* thread : {&reader_, &watchdog_, &output_reader_}) {
    if (!thread->joinable()) continue;
    if (thread->get_id() == std::this_thread::get_id()) {
      thread->detach();
    } else {
      thread->join();
    }
  }
}

absl::Status KernelHost::Send(const host::Writer& message, absl::Span<const int> fds) {
  absl::MutexLock lock(&write_mu_);
  return WriteFrame(channel_.get(), message.bytes(), fds);
}

bool KernelHost::alive() const {
  absl::MutexLock lock(&mu_);
  return !dead_;
}

void KernelHost::MapLocked(const HostGrant& grant) {
  absl::StatusOr<FileIdentity> file = FileIdentity::Of(grant.fd);
  if (!file.ok()) {
    spdlog::error("session {}: cannot map {:#x}+{} into kernel host {}: {}", config_.session_id,
                  grant.address, grant.size, pid_, std::string(file.status().message()));
    return;
  }
  host::Writer map(host::Op::kMap);
  map.Put(grant.address).Put(grant.size).Put(grant.offset);
  const int fd = grant.fd;
  if (Send(map, absl::MakeConstSpan(&fd, 1)).ok()) mapped_[grant.address] = {grant, *file};
}

void KernelHost::UnmapLocked(const std::vector<uint64_t>& addresses) {
  // All requests first, then one wait: the host answers in order.
  std::vector<FileIdentity> files;
  uint64_t last = 0;
  for (uint64_t address : addresses) {
    auto it = mapped_.find(address);
    if (it == mapped_.end()) continue;
    host::Writer unmap(host::Op::kUnmap);
    unmap.Put(next_token_).Put(address).Put(it->second.grant.size);
    files.push_back(it->second.file);
    mapped_.erase(it);
    if (dead_ || !Send(unmap).ok()) return;  // gone or going: nothing is mapped
    last = next_token_++;
  }
  if (last == 0) return;
  auto acked = [this, last]()
                   ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return dead_ || acked_token_ >= last; };
  if (!mu_.AwaitWithTimeout(absl::Condition(&acked), config_.unmap_timeout)) {
    KillAndWait(absl::StrFormat("it did not unmap %d range(s) in time", addresses.size()));
    return;
  }
  if (dead_) return;
  // The host runs client code: its word is checked, not believed.
  if (absl::Status reached = CheckWithdrawn(files); !reached.ok()) {
    KillAndWait(std::string(reached.message()));
  }
}

absl::Status KernelHost::CheckWithdrawn(const std::vector<FileIdentity>& files) const {
  absl::StatusOr<bool> holds = HoldsAnyOf(pid_, files);
  if (!holds.ok()) return holds.status();
  if (*holds) return absl::PermissionDeniedError("it kept a descriptor of memory it unmapped");
  absl::StatusOr<std::vector<MappedRange>> ranges = MappingsOf(pid_, files);
  if (!ranges.ok()) return ranges.status();
  for (const MappedRange& range : *ranges) {
    bool granted = false;
    for (const auto& [address, mapped] : mapped_) {
      granted = granted || (mapped.file == range.file && address <= range.start &&
                            range.end <= address + mapped.grant.size);
    }
    if (!granted) {
      return absl::PermissionDeniedError(absl::StrFormat(
          "it still maps memory it unmapped, at %#x+%u", range.start, range.end - range.start));
    }
  }
  return absl::OkStatus();
}

void KernelHost::KillAndWait(const std::string& why) {
  spdlog::error("session {}: killing kernel host {}: {}", config_.session_id, pid_, why);
  SignalKill();
  auto dead = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return dead_; };
  if (!mu_.AwaitWithTimeout(absl::Condition(&dead), absl::Seconds(10))) {
    spdlog::error("session {}: kernel host {} not reaped after SIGKILL", config_.session_id, pid_);
  }
}

void KernelHost::SyncGrants(const std::vector<HostGrant>& grants) {
  absl::flat_hash_map<uint64_t, const HostGrant*> wanted;
  for (const HostGrant& grant : grants) wanted[grant.address] = &grant;
  absl::MutexLock grant_lock(&grant_mu_);
  absl::MutexLock lock(&mu_);
  if (dead_) return;
  std::vector<uint64_t> stale;
  for (const auto& [address, mapped] : mapped_) {
    auto it = wanted.find(address);
    if (it == wanted.end() || !mapped.grant.SameAs(*it->second)) stale.push_back(address);
  }
  UnmapLocked(stale);
  for (const HostGrant& grant : grants) {
    if (!dead_ && mapped_.count(grant.address) == 0) MapLocked(grant);
  }
}

void KernelHost::Revoke(uint64_t address, uint64_t size) {
  absl::MutexLock grant_lock(&grant_mu_);
  absl::MutexLock lock(&mu_);
  std::vector<uint64_t> overlapping;
  for (const auto& [start, mapped] : mapped_) {
    if (start < address + size && address < start + mapped.grant.size) {
      overlapping.push_back(start);
    }
  }
  UnmapLocked(overlapping);
}

void KernelHost::Launch(absl::Span<const HostedLaunch> launches, bool stop_on_failure, Done done) {
  const HostedLaunch& first = launches.front();
  std::string death;
  {
    absl::MutexLock lock(&mu_);
    if (!dead_) {
      const uint64_t id = next_launch_++;
      Pending& pending = pending_[id];
      pending.done = std::move(done);
      pending.kernel_name = first.kernel_name;
      pending.kernel_type = first.kernel_type;
      pending.deadline = absl::Now() + first.timeout * static_cast<int64_t>(launches.size());
      host::Writer message(host::Op::kLaunch);
      message.Put(id).Put(static_cast<uint8_t>(stop_on_failure));
      message.Put(static_cast<uint32_t>(launches.size()));
      for (const HostedLaunch& launch : launches) {
        message.Put(launch.binary).Put(launch.kernel).Put(launch.block_dim);
        message.Put(launch.ub_bytes).Put(static_cast<int32_t>(launch.device_id));
        message.Put(launch.stream_id).PutString(launch.args);
        message.Put(static_cast<uint32_t>(launch.placeholders.size()));
        for (const auto& [slot, data] : launch.placeholders) message.Put(slot).Put(data);
        message.Put(static_cast<uint8_t>(launch.time_blocks));
      }
      // A failed send means the host is going; the reader fails the launch.
      (void)Send(message);
      return;
    }
    death = death_;
  }
  BlockRunResult failed;
  failed.status =
      AclError(ExceptionCodeFor(first.kernel_type),
               absl::StrFormat("kernel '%s': the kernel host %s", first.kernel_name, death));
  done(std::move(failed));
}

void KernelHost::Kill(const std::string& why) {
  spdlog::warn("session {}: killing kernel host {}: {}", config_.session_id, pid_, why);
  SignalKill();
}

void KernelHost::SignalKill() { syscall(SYS_pidfd_send_signal, pidfd_.get(), SIGKILL, nullptr, 0); }

void KernelHost::ChargeMemory() {
#if !NPUD_ADDRESS_SANITIZER  // the sanitizer's shadow memory is counted as the host's own
  if (!config_.charge_memory) return;
  absl::StatusOr<uint64_t> bytes = PrivateResidentBytes(pid_);
  if (!bytes.ok() || config_.charge_memory(*bytes)) return;
  Kill(absl::StrFormat("its kernels hold %u MiB of memory, more than the session may hold",
                       *bytes >> 20));
#endif
}

void KernelHost::WatchLoop() {
  absl::Time next_charge = absl::Now() + kChargeInterval;
  mu_.Lock();
  while (!stopping_ && !dead_) {
    absl::Time earliest = absl::InfiniteFuture();
    uint64_t late = 0;
    for (const auto& [id, pending] : pending_) {
      if (!pending.timed_out && pending.deadline < earliest) {
        earliest = pending.deadline;
        late = id;
      }
    }
    if (late != 0 && earliest <= absl::Now()) {
      Pending& pending = pending_[late];
      pending.timed_out = true;
      const std::string why =
          absl::StrFormat("kernel '%s' ran past its execute timeout", pending.kernel_name);
      mu_.Unlock();
      Kill(why);
      mu_.Lock();
      continue;
    }
    // Kernels that run take memory as they go: counted while any do.
    if (config_.charge_memory && !pending_.empty()) {
      if (absl::Now() >= next_charge) {
        mu_.Unlock();
        ChargeMemory();
        mu_.Lock();
        next_charge = absl::Now() + kChargeInterval;
        continue;
      }
      earliest = std::min(earliest, next_charge);
    }
    // Wake for the deadline, a new launch (it may be earlier), or the end.
    const size_t launches = next_launch_;
    auto changed = [this, launches]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
      return stopping_ || dead_ || next_launch_ != launches;
    };
    mu_.AwaitWithDeadline(absl::Condition(&changed), earliest);
  }
  mu_.Unlock();
}

void KernelHost::OutputLoop() {
  HostOutput output(
      config_.session_id, pid_,
      config_.output_budget != nullptr ? config_.output_budget : OutputBudget::ForSession());
  char buffer[1 << 16];
  while (true) {
    const ssize_t n = read(output_.get(), buffer, sizeof(buffer));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // every writer is gone: the host ended
    output.Add(absl::string_view(buffer, static_cast<size_t>(n)));
  }
}

void KernelHost::ReadLoop() {
  FrameReader reader(channel_.get());
  while (true) {
    std::string payload;
    std::vector<int> fds;
    if (!reader.Read(&payload, &fds).ok()) break;
    for (int fd : fds) close(fd);  // the host has no business sending any
    host::Reader in(payload);
    const host::Op op = in.op();
    if (op == host::Op::kUnmapped) {
      uint64_t token = 0;
      if (!in.Get(&token)) {
        Kill("it broke the protocol");
        break;
      }
      // In order, and only for what was asked: a forged acknowledgement
      // must not count for an unmap npud sends later.
      bool asked = false;
      {
        absl::MutexLock lock(&mu_);
        asked = token == acked_token_ + 1 && token < next_token_;
        if (asked) acked_token_ = token;
      }
      if (!asked) {
        Kill("it acknowledged an unmap npud did not ask for");
        break;
      }
      continue;
    }
    uint64_t id = 0;
    int32_t code = 0;
    std::string message, output;
    uint32_t timed = 0;
    if (op != host::Op::kDone || !in.Get(&id) || !in.Get(&code) || !in.GetString(&message) ||
        !in.GetString(&output) || !in.Get(&timed) || timed > host::kMaxBatchLaunches) {
      Kill("it broke the protocol");
      break;
    }
    std::vector<std::pair<int64_t, int64_t>> times(timed);
    bool read_all = true;
    for (auto& [start, end] : times) read_all = read_all && in.Get(&start) && in.Get(&end);
    uint32_t blocks = 0;
    read_all = read_all && in.Get(&blocks) && blocks <= host::kMaxBlockTimes;
    std::vector<BlockTime> block_times(read_all ? blocks : 0);
    for (BlockTime& time : block_times) {
      read_all = read_all && in.Get(&time.launch) && in.Get(&time.block) && in.Get(&time.core) &&
                 in.Get(&time.start_ns) && in.Get(&time.end_ns);
    }
    uint8_t float_overflow = 0;
    uint32_t failed_launch = 0;
    read_all = read_all && in.Get(&float_overflow) && in.Get(&failed_launch) &&
               failed_launch < host::kMaxBatchLaunches;
    // A host ends launches well or with its kernels' exception, nothing else.
    if (!read_all || (code != 0 && code != kRtVectorCoreException && code != kRtAicoreException)) {
      Kill("it broke the protocol");
      break;
    }
    Pending pending;
    bool known = false;
    {
      absl::MutexLock lock(&mu_);
      auto it = pending_.find(id);
      if (it != pending_.end()) {
        known = true;
        pending = std::move(it->second);
        pending_.erase(it);
      }
    }
    if (!known) {
      Kill("it reported a launch npud did not give it");
      break;
    }
    absl::Status status = code == 0 ? absl::OkStatus() : FromAclCode(code, message);
    if (!status.ok()) spdlog::error("device exception: {}", message);
    pending.done({std::move(status), std::move(output), std::move(times), std::move(block_times),
                  float_overflow != 0, failed_launch});
  }
  Ended();
}

void KernelHost::Ended() {
  const std::string death = Reap(pid_, config_);
  absl::flat_hash_map<uint64_t, Pending> orphans;
  bool stopping = false;
  {
    absl::MutexLock lock(&mu_);
    dead_ = true;
    death_ = death;
    mapped_.clear();
    orphans.swap(pending_);
    stopping = stopping_;
  }
  if (config_.charge_memory) config_.charge_memory(0);
  if (!stopping) {
    spdlog::warn("session {}: kernel host {} {}", config_.session_id, pid_, death);
  }
  for (auto& [id, pending] : orphans) {
    absl::Status status =
        pending.timed_out
            ? AclError(
                  pending.kernel_type == 0 ? kRtVectorCoreTimeout : kRtAicoreTimeout,
                  absl::StrFormat("kernel '%s' ran past its execute timeout", pending.kernel_name))
            : AclError(ExceptionCodeFor(pending.kernel_type),
                       absl::StrFormat("kernel '%s': the kernel host (pid %d) %s while it ran",
                                       pending.kernel_name, pid_, death));
    if (!stopping) spdlog::error("device exception: {}", std::string(status.message()));
    BlockRunResult failed;
    failed.status = std::move(status);
    pending.done(std::move(failed));
  }
}

}  // namespace npud::sim
