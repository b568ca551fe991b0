// npud-kernel-host: the process a session's kernels run in.
//
//   npud-kernel-host NPUD_PID --sandbox=strict|weak|probe [--uid=N --gid=N]
//
// npud starts one per session (see kernel_host.h) with the control socket
// as descriptor 3, its stdout and stderr a pipe npud reads (host_output.h),
// and a clean environment. With --sandbox=strict (the default npud uses)
// the host first gives itself namespaces of its own and an unprivileged uid
// and executes itself again (host_namespaces.h); --sandbox=probe stops after
// that and says whether it worked (npud asks once, at start). Then it
// reserves the device address ranges, starts the AI-core threads, and
// replaces its file system with a read-only one holding only the session's
// kernel binaries, which it loads inside the seccomp sandbox (sandbox.h).
// It then serves map, unmap and launch requests until npud closes the
// socket. It never opens anything by itself: all memory it sees is what
// npud maps into it, one memory file per grant, closed once mapped.

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdlib>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/strip.h"
#include "absl/synchronization/mutex.h"
#include "common/acl_status.h"
#include "common/frame_io.h"
#include "common/lock_order_checks.h"
#include "common/monotonic_clock.h"
#include "simdevice/ai_core_pool.h"
#include "simdevice/executor/host_cpu_share.h"
#include "simdevice/executor/host_namespaces.h"
#include "simdevice/executor/host_protocol.h"
#include "simdevice/executor/sandbox.h"
#include "simdevice/kernel_blocks.h"
#include "simdevice/kernel_module.h"
#include "spdlog/sinks/stdout_sinks.h"
#include "spdlog/spdlog.h"

extern char** environ;

namespace npud::sim::host {
namespace {

constexpr int kChannel = 3;

[[noreturn]] void Die(const std::string& why) {
  spdlog::error("kernel host {}: {}", getpid(), why);
  _exit(2);
}

class KernelHostMain {
 public:
  explicit KernelHostMain(bool strict) : strict_(strict) {}

  int Run() {
    ReadInit();
    ReadModules();
    Serve();
    return 0;
  }

 private:
  struct Range {
    uint64_t base;
    uint64_t span;
  };

  void Send(const Writer& message) ABSL_LOCKS_EXCLUDED(write_mu_) {
    absl::MutexLock lock(&write_mu_);
    // npud gone: nothing left to do.
    if (!WriteFrame(kChannel, message.bytes()).ok()) _exit(0);
  }

  // Reads the next frame; ends the host when npud has closed the channel.
  Reader Next(std::string* payload, std::vector<int>* fds) {
    fds->clear();
    absl::Status read = reader_.Read(payload, fds);
    if (absl::IsOutOfRange(read)) _exit(0);
    if (!read.ok()) Die(absl::StrCat("control channel: ", read.message()));
    return Reader(*payload);
  }

  void ReadInit() {
    std::string payload;
    std::vector<int> fds;
    Reader in = Next(&payload, &fds);
    uint32_t cores = 0, ranges = 0;
    uint64_t ub_bytes = 0, data_limit = 0;
    if (in.op() != Op::kInit || !in.Get(&cores) || !in.Get(&ub_bytes) || !in.Get(&data_limit) ||
        !in.Get(&ranges) || !fds.empty()) {
      Die("bad init message");
    }
    for (uint32_t i = 0; i < ranges; ++i) {
      Range range{};
      if (!in.Get(&range.base) || !in.Get(&range.span)) Die("bad init message");
      void* p = mmap(reinterpret_cast<void*>(range.base), range.span, PROT_NONE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
      if (p != reinterpret_cast<void*>(range.base)) {
        Die(absl::StrFormat("cannot reserve %#x+%u", range.base, range.span));
      }
      ranges_.push_back(range);
    }
    pool_ = std::make_unique<AiCorePool>(static_cast<int>(cores), ub_bytes);
    data_limit_ = data_limit;
#if NPUD_ADDRESS_SANITIZER
    // The sanitizer's shadow memory alone is terabytes of private mappings.
    data_limit_ = RLIM_INFINITY;
#endif
  }

  void ReadModules() {
    std::vector<std::pair<std::string, int>> files;
    while (true) {
      std::string payload;
      std::vector<int> fds;
      Reader in = Next(&payload, &fds);
      const Op op = in.op();
      if (op == Op::kStart) break;
      std::string label;
      if (op != Op::kModule || !in.GetString(&label) || fds.size() != 1) Die("bad module message");
      files.emplace_back(std::move(label), fds[0]);
    }
    // Strict: the binaries become the only files there are.
    std::vector<std::string> paths(files.size());
    if (strict_) {
      std::vector<int> fds;
      for (const auto& file : files) fds.push_back(file.second);
      absl::StatusOr<std::vector<std::string>> placed = EnterEmptyRoot(fds);
      if (!placed.ok()) Die(absl::StrCat("no file system of its own: ", placed.status().message()));
      paths = *std::move(placed);
    }
    // Nobody but npud (the owner of its user namespace) may look inside.
    prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
    // Threads run, files are open: from here on only what kernels need.
    if (absl::Status s = ApplyResourceLimits(data_limit_, 256); !s.ok())
      Die(std::string(s.message()));
    if (absl::Status s = EnterSandbox(SandboxStage::kLoading); !s.ok()) {
      Die(std::string(s.message()));
    }
    Writer ready(Op::kReady);
    ready.Put(static_cast<uint32_t>(files.size()));
    for (size_t i = 0; i < files.size(); ++i) {
      const auto& [label, fd] = files[i];
      absl::StatusOr<std::shared_ptr<const KernelModule>> module =
          KernelModule::LoadFile(fd, label, paths[i]);
      if (!module.ok()) {
        ready.PutString(module.status().message()).Put(uint32_t{0}).Put(uint32_t{0});
        modules_.push_back(nullptr);
        continue;
      }
      ready.PutString("").Put(static_cast<uint32_t>((*module)->kernels().size()));
      for (const KernelInfo& kernel : (*module)->kernels()) {
        ready.PutString(kernel.name).Put(kernel.args_size).Put(kernel.kernel_type);
        ready.Put(static_cast<uint32_t>(kernel.params.size()));
        for (const auto& [offset, size] : kernel.params) ready.Put(offset).Put(size);
        ready.Put(kernel.code_offset).Put(kernel.code_size);
      }
      ready.Put(static_cast<uint32_t>((*module)->variables().size()));
      for (const VariableInfo& variable : (*module)->variables()) {
        ready.PutString(variable.name).Put(variable.address).Put(variable.size);
        ready.PutString(
            absl::string_view(reinterpret_cast<const char*>(variable.address), variable.size));
        variable_pages_.emplace_back(variable.address, variable.mapped_size());
      }
      modules_.push_back(*std::move(module));
    }
    if (absl::Status s = EnterSandbox(SandboxStage::kRunning); !s.ok()) {
      Die(std::string(s.message()));
    }
    Send(ready);
  }

  // Reserved device memory, or exactly the pages of a device variable.
  bool Mappable(uint64_t address, uint64_t size) const {
    for (const auto& [pages, bytes] : variable_pages_) {
      if (address == pages && size == bytes) return true;
    }
    return Inside(address, size);
  }

  bool Inside(uint64_t address, uint64_t size) const {
    for (const Range& range : ranges_) {
      if (address >= range.base && size <= range.span && address - range.base <= range.span - size)
        return true;
    }
    return false;
  }

  void Serve() {
    while (true) {
      std::string payload;
      std::vector<int> fds;
      Reader in = Next(&payload, &fds);
      switch (in.op()) {
        case Op::kMap:
          Map(in, fds);
          break;
        case Op::kUnmap:
          Unmap(in);
          break;
        case Op::kLaunch:
          Launch(in);
          break;
        default:
          Die("unknown request");
      }
      // A grant's memory file is never kept: once mapped, only the mapping
      // reaches it, and npud can take that away.
      for (int fd : fds) close(fd);
    }
  }

  void Map(Reader& in, const std::vector<int>& fds) {
    uint64_t address = 0, size = 0, offset = 0;
    if (!in.Get(&address) || !in.Get(&size) || !in.Get(&offset) || !Mappable(address, size)) {
      Die("bad map request");
    }
    if (fds.size() != 1) Die("map request without its memory");
    if (mmap(reinterpret_cast<void*>(address), size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
             fds[0], static_cast<off_t>(offset)) == MAP_FAILED) {
      Die(absl::StrFormat("cannot map %#x+%u", address, size));
    }
  }

  void Unmap(Reader& in) {
    uint64_t token = 0, address = 0, size = 0;
    if (!in.Get(&token) || !in.Get(&address) || !in.Get(&size) || !Mappable(address, size)) {
      Die("bad unmap request");
    }
    if (mmap(reinterpret_cast<void*>(address), size, PROT_NONE,
             MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0) == MAP_FAILED) {
      Die(absl::StrFormat("cannot unmap %#x+%u", address, size));
    }
    Send(Writer(Op::kUnmapped).Put(token));
  }

  // One stream's launches, run one after the other; answered once all ran.
  void Launch(Reader& in) {
    uint64_t id = 0;
    uint8_t stop = 0;
    uint32_t count = 0;
    if (!in.Get(&id) || !in.Get(&stop) || !in.Get(&count)) Die("bad launch request");
    std::vector<std::shared_ptr<BlockRun>> runs;
    for (uint32_t i = 0; i < count; ++i) runs.push_back(ReadLaunch(in));
    RunLaunches(std::move(runs), stop != 0, pool_.get(), kMaxBlockTimes,
                [this, id](BlockRunResult result) { SendDone(id, result); });
  }

  std::shared_ptr<BlockRun> ReadLaunch(Reader& in) {
    uint64_t stream_id = 0, ub_bytes = 0;
    uint32_t module = 0, kernel = 0, block_dim = 0, placeholders = 0;
    int32_t device_id = 0;
    std::string args;
    if (!in.Get(&module) || !in.Get(&kernel) || !in.Get(&block_dim) || !in.Get(&ub_bytes) ||
        !in.Get(&device_id) || !in.Get(&stream_id) || !in.GetString(&args) ||
        !in.Get(&placeholders)) {
      Die("bad launch request");
    }
    std::vector<std::pair<uint32_t, uint32_t>> slots(placeholders);
    for (auto& [slot, data] : slots) {
      if (!in.Get(&slot) || !in.Get(&data) || uint64_t{slot} + 8 > args.size() ||
          data >= args.size()) {
        Die("bad launch placeholders");
      }
    }
    uint8_t time_blocks = 0;
    if (!in.Get(&time_blocks)) Die("bad launch request");
    if (module >= modules_.size() || modules_[module] == nullptr ||
        kernel >= modules_[module]->kernels().size() || block_dim == 0) {
      Die("launch of an unknown kernel");
    }
    std::shared_ptr<BlockRun> run = NewBlockRun(*modules_[module], static_cast<int>(kernel));
    run->args = std::move(args);
    run->block_dim = block_dim;
    run->ub_bytes = ub_bytes;
    run->device_id = device_id;
    run->stream_id = stream_id;
    run->log_failures = false;  // npud logs what it is told
    run->time_blocks = time_blocks != 0;
    ResolvePlaceholders(&run->args, slots);
    return run;
  }

  void SendDone(uint64_t id, const BlockRunResult& result) {
    Writer done(Op::kDone);
    done.Put(id).Put(static_cast<int32_t>(ToAclCode(result.status)));
    done.PutString(result.status.message()).PutString(result.output);
    done.Put(static_cast<uint32_t>(result.launch_times.size()));
    for (const auto& [start, end] : result.launch_times) done.Put(start).Put(end);
    done.Put(static_cast<uint32_t>(result.block_times.size()));
    for (const BlockTime& time : result.block_times) {
      done.Put(time.launch).Put(time.block).Put(time.core).Put(time.start_ns).Put(time.end_ns);
    }
    done.Put(static_cast<uint8_t>(result.float_overflow));
    done.Put(result.failed_launch);
    Send(done);
  }

  const bool strict_;
  FrameReader reader_{kChannel};
  absl::Mutex write_mu_;
  std::vector<Range> ranges_;
  // (address, bytes) of the device variables' pages of the modules.
  std::vector<std::pair<uint64_t, uint64_t>> variable_pages_;
  uint64_t data_limit_ = 0;
  std::unique_ptr<AiCorePool> pool_;
  // In the order npud sent them; null where loading failed.
  std::vector<std::shared_ptr<const KernelModule>> modules_;
};

struct Arguments {
  int64_t parent = 0;
  std::string sandbox = "strict";
  uid_t uid = 65534;
  gid_t gid = 65534;
  bool reexecuted = false;
  double cpu_weight = 1;
};

bool Parse(int argc, char** argv, Arguments* args) {
  if (argc < 2 || !absl::SimpleAtoi(argv[1], &args->parent)) return false;
  for (int i = 2; i < argc; ++i) {
    absl::string_view arg = argv[i];
    if (absl::ConsumePrefix(&arg, "--sandbox=")) {
      args->sandbox = std::string(arg);
    } else if (absl::ConsumePrefix(&arg, "--uid=")) {
      if (!absl::SimpleAtoi(arg, &args->uid)) return false;
    } else if (absl::ConsumePrefix(&arg, "--gid=")) {
      if (!absl::SimpleAtoi(arg, &args->gid)) return false;
    } else if (absl::ConsumePrefix(&arg, "--cpu_weight=")) {
      if (!absl::SimpleAtod(arg, &args->cpu_weight)) return false;
    } else if (arg == "--reexecuted") {
      args->reexecuted = true;
    } else {
      return false;
    }
  }
  return args->sandbox == "strict" || args->sandbox == "weak" || args->sandbox == "probe";
}

// Namespaces, then (unless started by root) this program once more inside
// them, see host_namespaces.h for why. Returns when the host goes on in
// this image; with `probe`, exits 0 once the namespaces and a root of its
// own could be had.
void EnterNamespacesAndReexecute(int argc, char** argv, const Arguments& args) {
  // npud as root may inspect any process; as another user, only those whose
  // memory belongs to a user namespace it owns.
  const bool npud_is_root = geteuid() == 0;
  const int self = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
  if (self < 0) Die(absl::StrCat("cannot open its own program: ", std::strerror(errno)));
  if (absl::Status s = EnterNamespaces(args.uid, args.gid); !s.ok()) Die(std::string(s.message()));
  if (args.sandbox == "probe") {
    absl::StatusOr<std::vector<std::string>> root = EnterEmptyRoot({});
    if (!root.ok()) Die(std::string(root.status().message()));
    _exit(0);
  }
  if (npud_is_root) {
    close(self);
    return;
  }
  std::vector<char*> again(argv, argv + argc);
  std::string flag = "--reexecuted";
  again.push_back(flag.data());
  again.push_back(nullptr);
  syscall(SYS_execveat, self, "", again.data(), environ, AT_EMPTY_PATH);
  Die(absl::StrCat("cannot execute itself again: ", std::strerror(errno)));
}

}  // namespace
}  // namespace npud::sim::host

int main(int argc, char** argv) {
  // stdout and stderr are a pipe npud reads (kernel output, and this).
  spdlog::set_default_logger(spdlog::stderr_logger_mt("kernel host"));
  spdlog::set_pattern("[kernel host] [%l] %v");
  spdlog::set_level(spdlog::level::warn);
  npud::sim::host::Arguments args;
  if (!npud::sim::host::Parse(argc, argv, &args)) {
    spdlog::error("npud-kernel-host is started by npud, not by hand");
    return 2;
  }
  // Never outlive npud; it may already be gone.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != args.parent) return 0;
  // Its share of the CPUs against other sessions' hosts (host_cpu_share.h),
  // set while it may still raise it (npud as root starts it as root).
  if (!args.reexecuted && args.cpu_weight != 1) {
    if (absl::Status set = npud::sim::SetCpuWeight(getpid(), args.cpu_weight); !set.ok()) {
      spdlog::warn("runs at CPU weight 1: {}", std::string(set.message()));
    }
  }
  if (args.sandbox != "weak" && !args.reexecuted) {
    npud::sim::host::EnterNamespacesAndReexecute(argc, argv, args);
  }
  // Executed from a descriptor, the process would be named after its number.
  prctl(PR_SET_NAME, "npud-kernel-host", 0, 0, 0);
  // As in npud: each launch makes and locks mutexes (lock_order_checks.h).
  npud::ConfigureLockOrderChecks();
  npud::sim::host::KernelHostMain host(args.sandbox == "strict");
  return host.Run();
}
