#include "client/transport/daemon_locator.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "absl/time/clock.h"
#include "common/daemon_address.h"
#include "common/status_macros.h"
#include "common/subprocess.h"
#include "common/unix_socket.h"
#include "spdlog/spdlog.h"

namespace npud::client {
namespace {

// A private daemon lingers this long after its last client, so a sequence of
// short programs (a test suite, a build script) shares one.
constexpr int kAutostartIdleSeconds = 30;
constexpr absl::Duration kAutostartTimeout = absl::Seconds(15);

bool Executable(const std::string& path) { return access(path.c_str(), X_OK) == 0; }

// npud next to this library: <prefix>/lib64/libacl_rt.so -> <prefix>/bin/npud,
// or in a build tree <build>/client/libacl_rt.so -> <build>/daemon/npud.
std::string FindNpudBinary() {
  if (const char* bin = std::getenv("NPUD_BIN"); bin != nullptr && *bin != '\0') return bin;
  Dl_info info;
  if (dladdr(reinterpret_cast<void*>(&FindNpudBinary), &info) != 0 && info.dli_fname != nullptr) {
    std::string dir = info.dli_fname;
    dir = dir.substr(0, dir.rfind('/') + 1);
    for (const char* relative : {"../bin/npud", "../daemon/npud"}) {
      if (Executable(dir + relative)) return dir + relative;
    }
  }
  return "npud";  // Let PATH decide.
}

absl::Status StartPrivateDaemon(const std::string& socket_path) {
  const std::string dir = socket_path.substr(0, socket_path.rfind('/'));
  // One client starts the daemon; the others wait on the lock and then find
  // it answering.
  const std::string lock_path = dir + "/npud.autostart.lock";
  int lock_fd = open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (lock_fd < 0) return absl::UnavailableError(absl::StrCat("cannot open ", lock_path));
  flock(lock_fd, LOCK_EX);
  absl::Status result = absl::OkStatus();
  if (!UnixSocketAnswers(socket_path)) {
    const std::string binary = FindNpudBinary();
    const std::string log_path = dir + "/npud.log";
    SpawnOptions spawn;
    spawn.argv = {binary, absl::StrCat("--listen=unix://", socket_path),
                  absl::StrCat("--idle_exit_seconds=", kAutostartIdleSeconds), "--log_level=info"};
    spawn.stdout_path = log_path;
    spawn.append_output = true;
    // Its own session: the daemon outlives this process and its terminal.
    spawn.detach = SpawnOptions::Detach::kSession;
    absl::StatusOr<pid_t> pid = Spawn(spawn);
    if (!pid.ok()) {
      result =
          absl::UnavailableError(absl::StrCat("cannot start ", binary, ": ", pid.status().message(),
                                              " (set NPUD_ADDRESS or NPUD_BIN)"));
    } else {
      spdlog::info("started a private npud (pid {}) on {}; log in {}", *pid, socket_path, log_path);
      const absl::Time deadline = absl::Now() + kAutostartTimeout;
      while (!UnixSocketAnswers(socket_path)) {
        if (absl::Now() > deadline) {
          result = absl::UnavailableError(absl::StrCat("the npud started on ", socket_path,
                                                       " did not come up; see ", log_path));
          break;
        }
        absl::SleepFor(absl::Milliseconds(10));
      }
    }
  }
  flock(lock_fd, LOCK_UN);
  close(lock_fd);
  return result;
}

// The refusal of a socket the file system keeps this uid out of, with what
// would let it in: the client cannot change the socket, only npud's flags
// or this user's groups can. Said at once, since no retry helps.
absl::Status NoPermission(const std::string& path, const absl::Status& refused) {
  struct stat info {};
  std::string why;
  if (stat(path.c_str(), &info) == 0) {
    why = absl::StrFormat(
        "the socket has mode %04o, uid %u, gid %u, and this process runs as uid %u, gid %u; "
        "let it in with npud's --socket_mode=0660 --socket_group=<a group of this user> "
        "(in a container: add the group, e.g. Kubernetes supplementalGroups or podman "
        "--group-add) or --socket_mode=0666 for every local user",
        info.st_mode & 07777, info.st_uid, info.st_gid, geteuid(), getegid());
  } else {
    why = absl::StrFormat(
        "a directory on its path cannot be searched by uid %u; make it searchable (o+x) or "
        "move npud's socket (--listen=unix:///path)",
        geteuid());
  }
  return absl::PermissionDeniedError(absl::StrCat("no permission to use npud's socket ", path, " (",
                                                  refused.message(), "): ", why));
}

// A socket this process may not connect to, as PermissionDenied; OK when it
// may (whether or not a daemon answers there).
absl::Status CheckSocketPermission(const std::string& path) {
  absl::StatusOr<UniqueFd> probe = ConnectUnixSocket(path, absl::Seconds(2));
  if (absl::IsPermissionDenied(probe.status())) return NoPermission(path, probe.status());
  return absl::OkStatus();
}

// One daemon: `text` is an NPUD_ADDRESS entry, or empty for the default.
absl::StatusOr<std::unique_ptr<Transport>> LocateOne(absl::string_view text) {
  std::string path;
  if (text.empty()) {
    path = DefaultSocketPath();
    absl::StatusOr<UniqueFd> probe = ConnectUnixSocket(path, absl::Seconds(2));
    if (absl::IsPermissionDenied(probe.status())) return NoPermission(path, probe.status());
    if (!probe.ok()) NPUD_RETURN_IF_ERROR(StartPrivateDaemon(path));
  } else {
    absl::StatusOr<DaemonAddress> address = ParseDaemonAddress(text);
    if (!address.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("NPUD_ADDRESS: ", address.status().message()));
    }
    if (address->kind == DaemonAddress::Kind::kInproc) return MakeInprocTransport();
    if (address->kind == DaemonAddress::Kind::kTcp) return MakeGrpcTransport(address->GrpcTarget());
    if (address->kind == DaemonAddress::Kind::kFramedTcp) {
      return MakeFramedTcpTransport(address->Host(), address->Port());
    }
    path = address->target;
  }
  // On the daemon's host the local protocol (next to the gRPC socket) is
  // faster and shares memory; NPUD_TRANSPORT=grpc opts out of it.
  const char* transport = std::getenv("NPUD_TRANSPORT");
  const bool grpc_only = transport != nullptr && std::string(transport) == "grpc";
  const std::string local = LocalSocketPath(path);
  if (!grpc_only) {
    absl::StatusOr<UniqueFd> probe = ConnectUnixSocket(local, absl::Seconds(2));
    if (probe.ok()) return MakeLocalTransport(local);
    if (absl::IsPermissionDenied(probe.status())) return NoPermission(path, probe.status());
  }
  // gRPC would take a refused connect for a daemon not up yet and retry
  // until the connect timeout.
  NPUD_RETURN_IF_ERROR(CheckSocketPermission(path));
  return MakeGrpcTransport(absl::StrCat("unix:", path));
}

}  // namespace

absl::StatusOr<std::vector<std::unique_ptr<Transport>>> LocateDaemons() {
  const char* env = std::getenv("NPUD_ADDRESS");
  const absl::string_view text = env != nullptr ? absl::StripAsciiWhitespace(env) : "";
  std::vector<std::unique_ptr<Transport>> transports;
  for (absl::string_view entry : absl::StrSplit(text, ',')) {
    entry = absl::StripAsciiWhitespace(entry);
    if (entry.empty() && !text.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("NPUD_ADDRESS \"", text, "\" has an empty entry"));
    }
    NPUD_ASSIGN_OR_RETURN(std::unique_ptr<Transport> transport, LocateOne(entry));
    transports.push_back(std::move(transport));
  }
  return transports;
}

}  // namespace npud::client
