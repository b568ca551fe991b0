#include "simdevice/executor/kernel_host.h"

#include <signal.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "common/acl_status.h"
#include "common/frame_io.h"
#include "common/subprocess.h"
#include "simdevice/kernel_blocks.h"
#include "spdlog/spdlog.h"

namespace npud::sim {
namespace {

// How long loading may take before the host is given up on (a binary whose
// constructor never returns).
constexpr absl::Duration kStartTimeout = absl::Seconds(30);

std::string DescribeExit(int status) {
  if (WIFEXITED(status)) return absl::StrCat("exited with status ", WEXITSTATUS(status));
  if (WIFSIGNALED(status)) {
    return absl::StrCat("was killed by signal ", WTERMSIG(status), " (",
                        strsignal(WTERMSIG(status)), ")");
  }
  return "ended";
}

std::string Reap(pid_t pid) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return "ended (not reapable)";
  }
  return DescribeExit(status);
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

absl::StatusOr<std::shared_ptr<KernelHost>> KernelHost::Start(
    const KernelHostConfig& config, absl::Span<const HostedBinary> binaries,
    std::vector<DescribedBinary>* described) {
  int pair[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0) {
    return absl::InternalError(absl::StrCat("socketpair: ", std::strerror(errno)));
  }
  UniqueFd ours(pair[0]);
  UniqueFd theirs(pair[1]);
  SpawnOptions spawn;
  spawn.argv = {config.binary, absl::StrCat(getpid())};
  spawn.keep_stderr = true;
  spawn.pass_fds = {theirs.get()};
  absl::StatusOr<pid_t> pid = Spawn(spawn);
  theirs.reset();
  if (!pid.ok()) {
    return absl::Status(pid.status().code(),
                        absl::StrCat("cannot start the kernel host: ", pid.status().message()));
  }
  auto fail = [&](const std::string& why) {
    kill(*pid, SIGKILL);
    const std::string death = Reap(*pid);
    return absl::InternalError(absl::StrCat(why, " (the kernel host ", death, ")"));
  };

  host::Writer init(host::Op::kInit);
  init.Put(static_cast<uint32_t>(config.cores)).Put(config.ub_bytes).Put(config.data_limit_bytes);
  init.Put(static_cast<uint32_t>(config.reservations.size()));
  for (const auto& [base, span] : config.reservations) init.Put(base).Put(span);
  absl::Status sent = WriteFrame(ours.get(), init.bytes(), config.device_fds);
  for (const HostedBinary& binary : binaries) {
    if (!sent.ok()) break;
    host::Writer module(host::Op::kModule);
    module.PutString(binary.label);
    const int fd = binary.fd;
    sent = WriteFrame(ours.get(), module.bytes(), absl::MakeConstSpan(&fd, 1));
  }
  if (sent.ok()) sent = WriteFrame(ours.get(), host::Writer(host::Op::kStart).bytes());
  if (!sent.ok()) return fail("the kernel host went away while starting");

  // The answer comes after the binaries' constructors ran: bounded.
  timeval timeout = absl::ToTimeval(kStartTimeout);
  setsockopt(ours.get(), SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
  std::string payload;
  std::vector<int> fds;
  absl::Status read = FrameReader(ours.get()).Read(&payload, &fds);
  for (int fd : fds) close(fd);
  if (!read.ok()) return fail("loading the kernel binaries ended the kernel host");
  timeout = timeval{};
  setsockopt(ours.get(), SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
  if (absl::Status parsed = ParseReady(payload, binaries.size(), described); !parsed.ok()) {
    return fail(std::string(parsed.message()));
  }

  // Signals go through a pidfd: once reaped, a recycled pid is never hit.
  UniqueFd pidfd(static_cast<int>(syscall(SYS_pidfd_open, *pid, 0)));
  if (pidfd.get() < 0) return fail(absl::StrCat("pidfd_open: ", std::strerror(errno)));
  std::shared_ptr<KernelHost> kernel_host(
      new KernelHost(config, *pid, std::move(pidfd), std::move(ours)));
  kernel_host->reader_ = std::thread([h = kernel_host.get()] { h->ReadLoop(); });
  kernel_host->watchdog_ = std::thread([h = kernel_host.get()] { h->WatchLoop(); });
  spdlog::info("session {}: kernel host {} started with {} binaries", config.session_id, *pid,
               binaries.size());
  return kernel_host;
}

KernelHost::~KernelHost() {
  {
    absl::MutexLock lock(&mu_);
    stopping_ = true;
  }
  SignalKill();
  shutdown(channel_.get(), SHUT_RDWR);
  for (std::thread* thread : {&reader_, &watchdog_}) {
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
  host::Writer map(host::Op::kMap);
  map.Put(grant.address)
      .Put(grant.size)
      .Put(static_cast<int32_t>(grant.device_id))
      .Put(grant.offset);
  const int fd = grant.fd;
  const absl::Status sent =
      Send(map, grant.device_id >= 0 ? absl::Span<const int>() : absl::MakeConstSpan(&fd, 1));
  if (sent.ok()) mapped_[grant.address] = grant;
}

void KernelHost::UnmapLocked(const std::vector<uint64_t>& addresses) {
  // All requests first, then one wait: the host answers in order.
  uint64_t last = 0;
  for (uint64_t address : addresses) {
    auto it = mapped_.find(address);
    if (it == mapped_.end()) continue;
    host::Writer unmap(host::Op::kUnmap);
    unmap.Put(next_token_).Put(address).Put(it->second.size);
    mapped_.erase(it);
    if (dead_ || !Send(unmap).ok()) return;  // gone or going: nothing is mapped
    last = next_token_++;
  }
  if (last == 0) return;
  auto acked = [this, last]()
                   ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return dead_ || acked_token_ >= last; };
  if (mu_.AwaitWithTimeout(absl::Condition(&acked), config_.unmap_timeout)) return;
  spdlog::error("session {}: kernel host {} did not unmap {} range(s) in time; killing it",
                config_.session_id, pid_, addresses.size());
  SignalKill();
  auto dead = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return dead_; };
  if (!mu_.AwaitWithTimeout(absl::Condition(&dead), absl::Seconds(10))) {
    spdlog::error("session {}: kernel host {} not reaped after SIGKILL", config_.session_id, pid_);
  }
}

void KernelHost::SyncGrants(const std::vector<HostGrant>& grants) {
  absl::flat_hash_map<uint64_t, const HostGrant*> wanted;
  for (const HostGrant& grant : grants) wanted[grant.address] = &grant;
  absl::MutexLock lock(&mu_);
  if (dead_) return;
  std::vector<uint64_t> stale;
  for (const auto& [address, grant] : mapped_) {
    auto it = wanted.find(address);
    if (it == wanted.end() || !grant.SameAs(*it->second)) stale.push_back(address);
  }
  UnmapLocked(stale);
  for (const HostGrant& grant : grants) {
    if (mapped_.count(grant.address) == 0) MapLocked(grant);
  }
}

void KernelHost::Revoke(uint64_t address, uint64_t size) {
  absl::MutexLock lock(&mu_);
  std::vector<uint64_t> overlapping;
  for (const auto& [start, grant] : mapped_) {
    if (start < address + size && address < start + grant.size) overlapping.push_back(start);
  }
  UnmapLocked(overlapping);
}

void KernelHost::Launch(std::vector<HostedLaunch> launches, bool stop_on_failure, Done done) {
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

void KernelHost::WatchLoop() {
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
    // Wake for the deadline, a new launch (it may be earlier), or the end.
    const size_t launches = next_launch_;
    auto changed = [this, launches]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
      return stopping_ || dead_ || next_launch_ != launches;
    };
    mu_.AwaitWithDeadline(absl::Condition(&changed), earliest);
  }
  mu_.Unlock();
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
      if (!in.Get(&token)) break;
      absl::MutexLock lock(&mu_);
      acked_token_ = std::max(acked_token_, token);
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
    if (!read_all) {
      Kill("it broke the protocol");
      break;
    }
    Pending pending;
    {
      absl::MutexLock lock(&mu_);
      auto it = pending_.find(id);
      if (it == pending_.end()) continue;  // e.g. a forged completion
      pending = std::move(it->second);
      pending_.erase(it);
    }
    absl::Status status = code == 0 ? absl::OkStatus() : FromAclCode(code, message);
    if (!status.ok()) spdlog::error("device exception: {}", message);
    pending.done({std::move(status), std::move(output), std::move(times), std::move(block_times),
                  float_overflow != 0, failed_launch});
  }
  Ended();
}

void KernelHost::Ended() {
  const std::string death = Reap(pid_);
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
