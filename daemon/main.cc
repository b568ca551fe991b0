// npud: the daemon that owns the simulated NPUs.
//
//   npud --listen=unix:///run/npud.sock,127.0.0.1:50051 --devices=4
//
// Runs until SIGTERM or SIGINT (or, with --idle_exit_seconds, until no client
// has been connected for that long: how the client library's private,
// autostarted daemon goes away on its own).

#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/flags/usage_config.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "common/daemon_address.h"
#include "common/lock_order_checks.h"
#include "common/tls_config.h"
#include "common/tls_stream.h"
#include "daemon/daemon_core.h"
#include "daemon/grpc_services.h"
#include "daemon/heap_policy.h"
#include "daemon/host_memory_limit.h"
#include "daemon/local_server.h"
#include "daemon/log_format.h"
#include "daemon/metrics_server.h"
#include "daemon/tcp_server.h"
#include "simdevice/executor/host_cpu_groups.h"
#include "simdevice/executor/kernel_host.h"
#include "spdlog/sinks/stdout_sinks.h"
#include "spdlog/spdlog.h"

ABSL_FLAG(std::vector<std::string>, listen, {},
          "Addresses to listen on, comma separated: unix:///path and/or host:port "
          "(port 0 picks one). Default: the per-user socket the client library looks for.");
ABSL_FLAG(int, devices, 4, "Number of simulated devices.");
ABSL_FLAG(int, address_slot, 0,
          "Address window (0..3) of the devices, 32 TiB + 16 TiB * slot: daemons in "
          "different slots hand out disjoint device addresses. Slots 1..3 hold 12 "
          "devices each.");
ABSL_FLAG(uint64_t, memory_gib, 64,
          "Device memory (HBM) per device in GiB; reserved lazily. Under a cgroup memory "
          "limit, at most the host memory limit (or the cgroup's limit, when lower).");
ABSL_FLAG(uint64_t, host_memory_limit_mib, 0,
          "Host RAM the device memory of all devices may take together (allocations and "
          "physical memory); past it allocations fail with 207001. 0: three quarters of "
          "this host's RAM, or of npud's cgroup memory limit (a container's) when lower.");
ABSL_FLAG(std::string, soc, "Ascend910B1", "SoC name the devices report.");
ABSL_FLAG(uint32_t, cube_cores, 24, "AI cube cores per device.");
ABSL_FLAG(uint32_t, vector_cores, 48, "AI vector cores per device.");
ABSL_FLAG(int, scheduler_threads, 0, "Stream scheduler workers (0: max(4, CPUs)).");
ABSL_FLAG(std::string, log_level, "info", "trace, debug, info, warn, error, critical or off.");
ABSL_FLAG(std::string, log_format, "text",
          "text, or json: one JSON object per line (time, level, logger, pid, thread, "
          "message) for log collectors.");
ABSL_FLAG(std::string, auth_token_file, "",
          "File of the tokens clients must present (NPUD_TOKEN), one per line, each optionally "
          "followed by its own settings: name=NAME memory_mib=N streams=N events=N "
          "kernel_threads=N weight=W.");
ABSL_FLAG(std::string, admin_token_file, "",
          "File holding the token Admin calls (npuctl) must present (NPUD_ADMIN_TOKEN on "
          "npuctl's side). Without it, Admin answers on unix sockets only.");
ABSL_FLAG(int, max_connections, 1024,
          "Clients npud holds at once on each transport: local-protocol connections counted "
          "from their accept, gRPC sessions from their first message (0: no limit).");
ABSL_FLAG(int, max_connections_per_peer, 256,
          "The same, for one peer: a user id on unix sockets (local protocol and gRPC), a "
          "remote address on TCP (0: no limit).");
ABSL_FLAG(std::string, tls_cert, "",
          "PEM certificate chain for TLS on every TCP listener (with --tls_key).");
ABSL_FLAG(std::string, tls_key, "", "PEM private key of --tls_cert.");
ABSL_FLAG(std::string, tls_client_ca, "",
          "PEM CA certificates: with it, TCP clients must present a certificate this CA "
          "signed (mutual TLS).");
ABSL_FLAG(bool, allow_insecure_tcp, false,
          "Allow listening without TLS on a TCP address beyond loopback.");
ABSL_FLAG(std::string, socket_mode, "",
          "Permission bits of the unix sockets, octal (e.g. 0660; empty: as the umask "
          "makes them).");
ABSL_FLAG(std::string, socket_group, "", "Group (name or gid) of the unix sockets.");
ABSL_FLAG(std::vector<std::string>, allowed_uids, {},
          "Uids admitted on the unix sockets beside npud's own, comma separated, checked "
          "against the kernel's SO_PEERCRED (empty: every peer that may open the socket).");
ABSL_FLAG(std::string, metrics_listen, "",
          "Where npud serves Prometheus metrics at /metrics: host:port (port 0: any free one, "
          "logged); empty: no metrics. Plain HTTP, so beyond loopback only with "
          "--allow_insecure_tcp.");
ABSL_FLAG(std::string, bulk_listen, "auto",
          "npud's own TCP port, for the bulk channels that carry remote sessions' large copies "
          "and for framed sessions (NPUD_ADDRESS=npud://host:port, faster than gRPC): "
          "host:port, \"auto\" (the host of the first TCP --listen address, any free port; "
          "told to gRPC clients in their hello) or \"off\" (copies travel inside the session "
          "stream). Encrypted with the certificates of --tls_cert when it is given.");
ABSL_FLAG(int, hello_timeout_ms, 5000,
          "How long a new connection may take to say hello before it is closed.");
ABSL_FLAG(int, idle_exit_seconds, 0, "Exit after this many seconds without clients (0: never).");
ABSL_FLAG(bool, exit_with_parent, false,
          "Shut down when the process that started npud ends (for test harnesses, so a "
          "crashed test leaves no daemon behind).");
ABSL_FLAG(std::string, kernel_include_dir, "",
          "CPU AscendC headers for runtime compilation (default: the install tree's).");
ABSL_FLAG(std::string, ready_file, "",
          "Written once serving: the gRPC ports of --listen, one per line (0 for a unix "
          "socket), then \"npud <port>\" for npud's own TCP port of --bulk_listen.");
ABSL_FLAG(std::string, kernel_host, "",
          "The kernel host binary sessions' kernels run in (sandboxed, one per session); "
          "default: libexec/npud-kernel-host beside npud's bin/.");
ABSL_FLAG(uint64_t, kernel_host_memory_mib, 4096,
          "Heap a kernel host may use (RLIMIT_DATA; device memory is not counted; lower when "
          "--session_memory_mib is).");
ABSL_FLAG(std::string, kernel_sandbox, "strict",
          "strict: kernel hosts run in namespaces of their own (user, mount, network, IPC) "
          "with a file system that holds only their session's binaries; where the kernel "
          "refuses namespaces, npud refuses kernel binaries (207000). weak: seccomp and limits "
          "only (module constructors can read what npud's user can read).");
ABSL_FLAG(uint32_t, kernel_host_uid, 65534,
          "Uid kernel hosts run as when npud runs as root (strict sandbox).");
ABSL_FLAG(uint32_t, kernel_host_gid, 65534,
          "Gid kernel hosts run as when npud runs as root (strict sandbox).");
ABSL_FLAG(int32_t, max_kernel_hosts, 64,
          "Kernel hosts of all sessions alive at once (0: no limit); past it launches and "
          "binary loads fail with 207005. A session has at most 4.");

ABSL_FLAG(int32_t, compile_jobs, 0,
          "Run-time compilations (aclrtcCompileProg) at once; more wait in a queue of 32. "
          "0: the number of CPUs.");
ABSL_FLAG(uint64_t, session_memory_mib, 0,
          "Device memory one client session may hold (allocations, IPC imports and "
          "physical memory together); 0: three quarters of --host_memory_limit_mib, so that "
          "one client never leaves the next less than a quarter.");
ABSL_FLAG(uint32_t, session_streams, 4096,
          "Streams one client session may hold (a device has 2048 on hardware); 0: no limit.");
ABSL_FLAG(uint32_t, session_events, 65536, "Events one client session may hold; 0: no limit.");
ABSL_FLAG(double, session_weight, 1,
          "A session's share of the AI cores (the CPUs its kernels run on) when sessions "
          "contend, relative to the others' (0.01..100; tokens may set their own).");
ABSL_FLAG(int32_t, session_kernel_threads, 0,
          "AI-core threads of one session's kernel host; 0: one per simulated core.");

namespace {

// <npud's directory>/../libexec/npud-kernel-host.
std::string DefaultKernelHost() {
  char self[4096];
  const ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
  if (n <= 0) return "npud-kernel-host";
  std::string path(self, n);
  path.resize(path.rfind('/'));
  return path + "/../libexec/npud-kernel-host";
}

std::string ReadToken(const std::string& path) {
  std::ifstream in(path);
  std::string token;
  std::getline(in, token);
  return std::string(absl::StripAsciiWhitespace(token));
}

// Every client holds descriptors in npud (its socket, shared memory): run
// with the hard limit, not the soft default of 1024.
void RaiseDescriptorLimit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur >= limit.rlim_max) return;
  limit.rlim_cur = limit.rlim_max;
  if (setrlimit(RLIMIT_NOFILE, &limit) != 0) {
    spdlog::warn("cannot raise the descriptor limit: {}", std::strerror(errno));
  }
}

// --host_memory_limit_mib, or three quarters of what npud may really use:
// in a container with a memory limit (its cgroup's), a budget from the
// host's RAM would let clients take npud past the limit, where the kernel
// kills it with every session instead of refusing one allocation.
struct HostMemoryChoice {
  uint64_t bytes = 0;
  std::string source;  // for the log lines
  std::optional<npud::daemon::CgroupMemoryLimit> cgroup;
};

HostMemoryChoice ChooseHostMemoryLimit() {
  const uint64_t ram = static_cast<uint64_t>(sysconf(_SC_PHYS_PAGES)) * sysconf(_SC_PAGESIZE);
  std::optional<npud::daemon::CgroupMemoryLimit> cgroup = npud::daemon::ReadCgroupMemoryLimit();
  if (const uint64_t flag = absl::GetFlag(FLAGS_host_memory_limit_mib); flag != 0) {
    spdlog::info("host memory limit: {} MiB (--host_memory_limit_mib)", flag);
    if (cgroup && (flag << 20) > cgroup->bytes) {
      spdlog::warn(
          "--host_memory_limit_mib={} is above npud's cgroup memory limit ({} MiB, {}): "
          "clients can get npud killed before an allocation is refused",
          flag, cgroup->bytes >> 20, cgroup->file);
    }
    return {flag << 20, "--host_memory_limit_mib", std::move(cgroup)};
  }
  const npud::daemon::HostMemoryDefault chosen = npud::daemon::DefaultHostMemoryLimit(ram, cgroup);
  spdlog::info("host memory limit: {} MiB, three quarters of {}", chosen.bytes >> 20,
               chosen.source);
  return {chosen.bytes, absl::StrCat("three quarters of ", chosen.source), std::move(cgroup)};
}

// --memory_gib per device, or less under a cgroup memory limit (see
// BoundDeviceMemory), saying so.
uint64_t ChooseDeviceMemory(const HostMemoryChoice& host) {
  const uint64_t requested = absl::GetFlag(FLAGS_memory_gib) << 30;
  const npud::daemon::AdvertisedDeviceMemory bounded =
      npud::daemon::BoundDeviceMemory(requested, host.bytes, host.source, host.cgroup);
  if (!bounded.reason.empty()) {
    spdlog::info(
        "device memory: {} MiB per device instead of --memory_gib={} ({} MiB), bounded by {}",
        bounded.bytes >> 20, absl::GetFlag(FLAGS_memory_gib), requested >> 20, bounded.reason);
  }
  return bounded.bytes;
}

// The kernel hosts' sandbox from the flags, and whether this machine gives
// it: without namespaces npud refuses kernel binaries under the strict
// sandbox, and says so now rather than at the first load.
absl::Status ConfigureKernelSandbox(npud::daemon::KernelHostOptions* host) {
  const std::string mode = absl::GetFlag(FLAGS_kernel_sandbox);
  if (mode != "strict" && mode != "weak") {
    return absl::InvalidArgumentError(
        absl::StrCat("--kernel_sandbox=", mode, ": not strict or weak"));
  }
  host->uid = absl::GetFlag(FLAGS_kernel_host_uid);
  host->gid = absl::GetFlag(FLAGS_kernel_host_gid);
  host->max_total = absl::GetFlag(FLAGS_max_kernel_hosts);
  if (mode == "weak") {
    host->sandbox = npud::sim::KernelSandbox::kWeak;
    spdlog::warn(
        "--kernel_sandbox=weak: kernel hosts run without namespaces of their own; module "
        "constructors can read what npud's user can read");
    return absl::OkStatus();
  }
  host->sandbox = npud::sim::KernelSandbox::kStrict;
  absl::Status probe =
      npud::sim::KernelHost::ProbeStrictSandbox(host->binary, host->uid, host->gid);
  if (!probe.ok()) {
    host->refused = absl::StrCat("kernel hosts cannot be sandboxed here (", probe.message(),
                                 "); start npud with --kernel_sandbox=weak to run kernels "
                                 "anyway, with seccomp and limits only");
    spdlog::error("{}", host->refused);
  }
  return absl::OkStatus();
}

// How sessions' CPU weights reach their kernel hosts: autogroups in the
// root CPU cgroup, CPU groups of their own below npud's group elsewhere
// (simdevice/executor/host_cpu_groups.h).
void ConfigureHostCpuGroups(npud::daemon::KernelHostOptions* host) {
  absl::StatusOr<std::unique_ptr<npud::sim::HostCpuGroups>> groups =
      npud::sim::HostCpuGroups::ForThisProcess(getpid());
  if (!groups.ok()) {
    spdlog::warn(
        "sessions' CPU weights do not apply: {}; kernel hosts share the CPUs thread by "
        "thread",
        std::string(groups.status().message()));
  } else if (*groups != nullptr) {
    spdlog::info("kernel hosts get CPU groups of their own below {}", (*groups)->directory());
    host->cpu_groups = *std::move(groups);
  }
}

// The bulk channel's server for --bulk_listen (null when there is none to
// run: "off" or no TCP listener), with the TLS of the session stream.
absl::StatusOr<std::unique_ptr<npud::daemon::TcpServer>> BulkListen(
    npud::daemon::DaemonCore* core, const std::string& flag,
    const std::vector<npud::DaemonAddress>& listen, const npud::daemon::GrpcServer::Options& grpc) {
  if (flag == "off") return nullptr;
  npud::daemon::TcpServer::Options options;
  options.hello_timeout = grpc.hello_timeout;
  options.max_connections = grpc.max_sessions;
  options.max_connections_per_peer = grpc.max_sessions_per_peer;
  if (flag == "auto") {
    auto tcp = std::find_if(listen.begin(), listen.end(), [](const npud::DaemonAddress& a) {
      return a.kind == npud::DaemonAddress::Kind::kTcp;
    });
    if (tcp == listen.end()) return nullptr;
    options.host = tcp->Host();
  } else {
    absl::StatusOr<npud::DaemonAddress> address = npud::ParseDaemonAddress(flag);
    if (!address.ok() || address->kind != npud::DaemonAddress::Kind::kTcp ||
        !absl::SimpleAtoi(address->target.substr(address->target.rfind(':') + 1), &options.port)) {
      return absl::InvalidArgumentError(
          absl::StrCat("\"", flag, "\" is not host:port, auto or off"));
    }
    options.host = address->Host();
  }
  if (grpc.tls.enabled()) {
    absl::StatusOr<std::shared_ptr<const npud::TlsContext>> context =
        npud::TlsContext::ForServer(grpc.tls);
    if (!context.ok()) return context.status();
    options.tls = *std::move(context);
  } else if (!npud::IsLoopbackListenAddress(options.host + ":0") && !grpc.allow_insecure_tcp) {
    return absl::FailedPreconditionError(absl::StrCat("refusing to listen on ", options.host,
                                                      " without TLS (see --allow_insecure_tcp)"));
  }
  return npud::daemon::TcpServer::Start(core, options);
}

}  // namespace

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage(
      "a shareable simulated Ascend NPU daemon.\n\n"
      "  npud [--listen=unix:///path,host:port] [--devices=N] [flags...]\n\n"
      "README.md and docs/design.md explain the flags below.");
  // --help lists npud's own flags: Abseil would look for them in a file
  // named after the program, and this one is daemon/main.cc.
  absl::FlagsUsageConfig usage;
  usage.contains_help_flags = [](absl::string_view file) {
    return absl::EndsWith(file, "daemon/main.cc");
  };
  usage.contains_helpshort_flags = usage.contains_help_flags;
  usage.normalize_filename = [](absl::string_view file) {
    const size_t at = file.rfind("daemon/main.cc");
    return std::string(at == absl::string_view::npos ? file : file.substr(at));
  };
  usage.version_string = [] { return std::string("npud ") + NPUD_VERSION + "\n"; };
  absl::SetFlagsUsageConfig(usage);
  absl::ParseCommandLine(argc, argv);
  npud::daemon::ConfigureHeap();
  npud::ConfigureLockOrderChecks();
  spdlog::set_default_logger(spdlog::stderr_logger_mt("npud"));
  spdlog::set_level(spdlog::level::from_str(absl::GetFlag(FLAGS_log_level)));
  if (absl::Status format = npud::daemon::SetLogFormat(absl::GetFlag(FLAGS_log_format));
      !format.ok()) {
    std::fprintf(stderr, "npud: %s\n", std::string(format.message()).c_str());
    return 2;
  }

  // Signals are taken synchronously by this thread; every thread started
  // below inherits the blocked mask.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  if (absl::GetFlag(FLAGS_exit_with_parent)) {
    // SIGTERM takes the normal shutdown path below.
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() == 1) return 0;  // The parent is already gone.
  }
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  signal(SIGPIPE, SIG_IGN);
  // npud's memory holds every session's device bytes and its keys: no other
  // process of its uid may read it through /proc or ptrace, nor a core file.
  prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);

  npud::daemon::DaemonCore::Options options;
  options.devices.device_count = absl::GetFlag(FLAGS_devices);
  options.devices.address_slot = absl::GetFlag(FLAGS_address_slot);
  const HostMemoryChoice host_memory = ChooseHostMemoryLimit();
  options.devices.host_memory_limit_bytes = host_memory.bytes;
  options.devices.device.hbm_bytes = ChooseDeviceMemory(host_memory);
  options.devices.device.soc_name = absl::GetFlag(FLAGS_soc);
  options.devices.device.cube_cores = absl::GetFlag(FLAGS_cube_cores);
  options.devices.device.vector_cores = absl::GetFlag(FLAGS_vector_cores);
  options.devices.scheduler_threads = absl::GetFlag(FLAGS_scheduler_threads);
  options.kernel_include_dir = absl::GetFlag(FLAGS_kernel_include_dir);
  options.kernel_host.binary = absl::GetFlag(FLAGS_kernel_host);
  if (options.kernel_host.binary.empty()) options.kernel_host.binary = DefaultKernelHost();
  options.kernel_host.data_limit_bytes = absl::GetFlag(FLAGS_kernel_host_memory_mib) << 20;
  options.kernel_host.max_threads = absl::GetFlag(FLAGS_session_kernel_threads);
  options.kernel_host.cpu_weight = absl::GetFlag(FLAGS_session_weight);
  if (!(options.kernel_host.cpu_weight >= 0.01 && options.kernel_host.cpu_weight <= 100)) {
    spdlog::critical("--session_weight={}: not 0.01..100", options.kernel_host.cpu_weight);
    return 2;
  }
  // Compilers run sandboxed, from the tool beside the kernel host.
  options.compile_sandbox =
      options.kernel_host.binary.substr(0, options.kernel_host.binary.rfind('/') + 1) +
      "npud-sandbox-run";
  options.compile_jobs = absl::GetFlag(FLAGS_compile_jobs);
  if (options.compile_jobs <= 0) {
    options.compile_jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  }
  options.session_limits.memory_bytes = absl::GetFlag(FLAGS_session_memory_mib) << 20;
  if (options.session_limits.memory_bytes == 0) {
    options.session_limits.memory_bytes = options.devices.host_memory_limit_bytes / 4 * 3;
  }
  options.session_limits.streams = absl::GetFlag(FLAGS_session_streams);
  options.session_limits.events = absl::GetFlag(FLAGS_session_events);
  // npud never runs client code, nor compilers on client sources, outside a
  // sandbox: without these two, it does not start.
  for (const std::string& tool : {options.kernel_host.binary, options.compile_sandbox}) {
    if (access(tool.c_str(), X_OK) != 0) {
      spdlog::critical("{} is not an executable file (see --kernel_host)", tool);
      return 1;
    }
  }
  if (absl::Status sandbox = ConfigureKernelSandbox(&options.kernel_host); !sandbox.ok()) {
    spdlog::critical("{}", std::string(sandbox.message()));
    return 2;
  }
  if (!options.kernel_host.binary.empty()) ConfigureHostCpuGroups(&options.kernel_host);
  if (!absl::GetFlag(FLAGS_auth_token_file).empty()) {
    std::ifstream in(absl::GetFlag(FLAGS_auth_token_file));
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    absl::StatusOr<std::vector<npud::daemon::AuthToken>> tokens =
        in.is_open() ? npud::daemon::ParseAuthTokens(text) : absl::NotFoundError("cannot be read");
    if (!tokens.ok()) {
      spdlog::critical("auth token file {}: {}", absl::GetFlag(FLAGS_auth_token_file),
                       std::string(tokens.status().message()));
      return 2;
    }
    options.auth_tokens = *std::move(tokens);
  }
  RaiseDescriptorLimit();
  auto core = npud::daemon::DaemonCore::Create(options);
  if (!core.ok()) {
    spdlog::critical("cannot create the devices: {}", core.status().ToString());
    return 1;
  }

  std::vector<std::string> listen = absl::GetFlag(FLAGS_listen);
  if (listen.empty()) listen.push_back("unix://" + npud::DefaultSocketPath());
  std::vector<npud::DaemonAddress> addresses;
  for (const std::string& text : listen) {
    auto address = npud::ParseDaemonAddress(text);
    if (address.ok() && address->kind == npud::DaemonAddress::Kind::kFramedTcp) {
      spdlog::critical("--listen={}: npud's own TCP port is --bulk_listen=host:port", text);
      return 1;
    }
    if (!address.ok() || address->kind == npud::DaemonAddress::Kind::kInproc) {
      spdlog::critical("--listen={}: not unix:///path or host:port", text);
      return 1;
    }
    addresses.push_back(*std::move(address));
  }
  std::string admin_token;
  if (!absl::GetFlag(FLAGS_admin_token_file).empty()) {
    admin_token = ReadToken(absl::GetFlag(FLAGS_admin_token_file));
    if (admin_token.empty()) {
      spdlog::critical("admin token file {} is empty or unreadable",
                       absl::GetFlag(FLAGS_admin_token_file));
      return 2;
    }
  }
  npud::daemon::GrpcServer::Options grpc_options;
  grpc_options.admin_token = admin_token;
  absl::StatusOr<npud::ServerTls> tls =
      npud::LoadServerTls(absl::GetFlag(FLAGS_tls_cert), absl::GetFlag(FLAGS_tls_key),
                          absl::GetFlag(FLAGS_tls_client_ca));
  // A certificate or key that does not load stops npud here, named: TCP
  // never goes on without the TLS it was configured with.
  if (tls.ok() && tls->enabled()) {
    if (auto context = npud::TlsContext::ForServer(*tls); !context.ok()) tls = context.status();
  }
  if (!tls.ok()) {
    spdlog::critical("TLS: {}; npud does not start without the TLS it was given",
                     std::string(tls.status().message()));
    return 2;
  }
  grpc_options.tls = *std::move(tls);
  absl::StatusOr<npud::daemon::UnixAccess> unix_access = npud::daemon::UnixAccess::FromFlags(
      absl::GetFlag(FLAGS_socket_mode), absl::GetFlag(FLAGS_socket_group),
      absl::GetFlag(FLAGS_allowed_uids));
  if (!unix_access.ok()) {
    spdlog::critical("{}", std::string(unix_access.status().message()));
    return 2;
  }
  grpc_options.unix_access = *unix_access;
  // A user the unix sockets keep out must not walk in over TCP on this
  // host: with such restrictions, TCP needs an identity of its own.
  if (unix_access->restricts_peers() && options.auth_tokens.empty() &&
      grpc_options.tls.client_ca.empty()) {
    const std::string bulk = absl::GetFlag(FLAGS_bulk_listen);
    for (const npud::DaemonAddress& address : addresses) {
      if (address.kind != npud::DaemonAddress::Kind::kTcp && (bulk == "auto" || bulk == "off")) {
        continue;
      }
      spdlog::critical(
          "--allowed_uids/--socket_mode restrict the unix sockets, but {} would serve anyone "
          "who reaches it, local users included: give --auth_token_file (clients present "
          "NPUD_TOKEN) or --tls_client_ca (client certificates), or listen on unix sockets only",
          address.kind == npud::DaemonAddress::Kind::kTcp ? address.ToString()
                                                          : "--bulk_listen=" + bulk);
      return 2;
    }
  }
  grpc_options.allow_insecure_tcp = absl::GetFlag(FLAGS_allow_insecure_tcp);
  grpc_options.hello_timeout = absl::Milliseconds(absl::GetFlag(FLAGS_hello_timeout_ms));
  grpc_options.max_sessions = absl::GetFlag(FLAGS_max_connections);
  grpc_options.max_sessions_per_peer = absl::GetFlag(FLAGS_max_connections_per_peer);
  if (const int connections = absl::GetFlag(FLAGS_max_connections); connections > 0) {
    grpc_options.max_threads = std::max(64, 2 * connections);
  }
  auto server = npud::daemon::GrpcServer::Start(core->get(), addresses, grpc_options);
  if (!server.ok()) {
    spdlog::critical("{}", server.status().ToString());
    return 1;
  }
  absl::StatusOr<std::unique_ptr<npud::daemon::TcpServer>> bulk =
      BulkListen(core->get(), absl::GetFlag(FLAGS_bulk_listen), addresses, grpc_options);
  if (!bulk.ok()) {
    spdlog::critical("--bulk_listen: {}", bulk.status().ToString());
    return 1;
  }
  std::unique_ptr<npud::daemon::MetricsServer> metrics;
  if (const std::string where = absl::GetFlag(FLAGS_metrics_listen); !where.empty()) {
    if (!npud::IsLoopbackListenAddress(where) && !grpc_options.allow_insecure_tcp) {
      spdlog::critical(
          "--metrics_listen={}: metrics are plain HTTP; beyond loopback give "
          "--allow_insecure_tcp",
          where);
      return 2;
    }
    absl::StatusOr<std::unique_ptr<npud::daemon::MetricsServer>> started =
        npud::daemon::MetricsServer::Start(core->get(), where);
    if (!started.ok()) {
      spdlog::critical("--metrics_listen: {}", started.status().ToString());
      return 1;
    }
    metrics = *std::move(started);
    spdlog::info("metrics on {}:{}/metrics", where.substr(0, where.rfind(':')), metrics->port());
  }
  // Clients on this host talk the local protocol next to each unix socket.
  std::vector<std::string> unix_paths;
  std::vector<std::string> local_paths;
  for (const npud::DaemonAddress& address : addresses) {
    if (address.kind != npud::DaemonAddress::Kind::kUnix) continue;
    unix_paths.push_back(address.target);
    local_paths.push_back(npud::LocalSocketPath(address.target));
  }
  npud::daemon::LocalServer::Options local_options;
  local_options.paths = local_paths;
  local_options.access = grpc_options.unix_access;
  local_options.max_connections = absl::GetFlag(FLAGS_max_connections);
  local_options.max_connections_per_peer = absl::GetFlag(FLAGS_max_connections_per_peer);
  local_options.hello_timeout = absl::Milliseconds(absl::GetFlag(FLAGS_hello_timeout_ms));
  auto local = npud::daemon::LocalServer::Start(core->get(), local_options);
  if (!local.ok()) {
    spdlog::critical("{}", local.status().ToString());
    return 1;
  }
  const uint64_t hbm = options.devices.device.hbm_bytes;
  spdlog::info(
      "npud {} serving {} device(s) ({}, {} each, {} MiB of host memory for all) "
      "on {}",
      NPUD_VERSION, options.devices.device_count, options.devices.device.soc_name,
      hbm % (uint64_t{1} << 30) == 0 ? absl::StrCat(hbm >> 30, " GiB")
                                     : absl::StrCat(hbm >> 20, " MiB"),
      options.devices.host_memory_limit_bytes >> 20, absl::StrJoin(listen, ", "));
  if (const std::string ready = absl::GetFlag(FLAGS_ready_file); !ready.empty()) {
    const std::string tmp = ready + ".tmp";
    {
      std::ofstream out(tmp);
      for (int port : (*server)->bound_ports()) out << port << "\n";
      if (*bulk != nullptr) out << "npud " << (*bulk)->port() << "\n";
    }
    rename(tmp.c_str(), ready.c_str());
  }

  const int idle_exit = absl::GetFlag(FLAGS_idle_exit_seconds);
  absl::Time idle_since = absl::Now();
  npud::daemon::HeapTrimmer trimmer({});
  while (true) {
    timespec tick{1, 0};
    const int sig = sigtimedwait(&signals, nullptr, &tick);
    if (sig == SIGTERM || sig == SIGINT) {
      spdlog::info("signal {} received; shutting down", sig);
      break;
    }
    trimmer.Tick();
    if (idle_exit > 0) {
      if ((*core)->session_count() > 0) {
        idle_since = absl::Now();
      } else if (absl::Now() - idle_since > absl::Seconds(idle_exit)) {
        spdlog::info("no clients for {} s; exiting", idle_exit);
        break;
      }
    }
  }
  // Every session handler returns here, releasing what its client owned.
  (*server)->Shutdown(absl::Seconds(2));
  metrics.reset();
  bulk->reset();
  local->reset();
  core->reset();
  for (const std::string& path : unix_paths) unlink(path.c_str());
  spdlog::info("npud stopped");
  spdlog::shutdown();
  // Destroying the grpc::Server runs gRPC's global shutdown, which can wait
  // ~10 s for an idle poller thread; everything of ours is released, so
  // leave without it.
  std::_Exit(0);
}
