#include "client/transport/daemon_locator.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "absl/time/clock.h"
#include "proto/npud/default_address.h"
#include "spdlog/spdlog.h"

extern char** environ;

namespace npud::client {
namespace {

// A private daemon lingers this long after its last client, so a sequence of
// short programs (a test suite, a build script) shares one.
constexpr int kAutostartIdleSeconds = 30;
constexpr absl::Duration kAutostartTimeout = absl::Seconds(15);

bool UnixSocketAnswers(const std::string& path) {
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::strncpy(addr.sun_path, path.c_str(), sizeof(addr.sun_path) - 1);
  const bool ok = connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0;
  close(fd);
  return ok;
}

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
    std::vector<std::string> args = {binary, absl::StrCat("--listen=unix://", socket_path),
                                     absl::StrCat("--idle_exit_seconds=", kAutostartIdleSeconds),
                                     "--log_level=info"};
    std::vector<char*> argv;
    for (auto& arg : args) argv.push_back(arg.data());
    argv.push_back(nullptr);

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND,
                                     0600);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    // Its own session: the daemon outlives this process and its terminal.
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSID);
    pid_t pid = 0;
    const int err = posix_spawnp(&pid, binary.c_str(), &actions, &attr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    if (err != 0) {
      result = absl::UnavailableError(absl::StrCat(
          "cannot start ", binary, ": ", std::strerror(err), " (set NPUD_ADDRESS or NPUD_BIN)"));
    } else {
      spdlog::info("started a private npud (pid {}) on {}; log in {}", pid, socket_path, log_path);
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

}  // namespace

absl::StatusOr<std::unique_ptr<Transport>> LocateDaemon() {
  const char* env = std::getenv("NPUD_ADDRESS");
  std::string address = env != nullptr ? std::string(absl::StripAsciiWhitespace(env)) : "";
  if (address == "inproc:" || address == "inproc") return MakeInprocTransport();
  std::string path;
  if (address.empty()) {
    path = DefaultSocketPath();
    if (!UnixSocketAnswers(path)) {
      if (absl::Status started = StartPrivateDaemon(path); !started.ok()) return started;
    }
  } else if (absl::StartsWith(address, "unix:")) {
    // Accept unix:/path, unix://path and unix:///path.
    path = address.substr(5);
    while (absl::StartsWith(path, "//")) path = path.substr(1);
  } else {
    return MakeGrpcTransport(address);
  }
  // On the daemon's host the local protocol (next to the gRPC socket) is
  // faster and shares memory; NPUD_TRANSPORT=grpc opts out of it.
  const char* transport = std::getenv("NPUD_TRANSPORT");
  const bool grpc_only = transport != nullptr && std::string(transport) == "grpc";
  const std::string local = path + ".local";
  if (!grpc_only && UnixSocketAnswers(local)) return MakeLocalTransport(local);
  return MakeGrpcTransport(absl::StrCat("unix:", path));
}

}  // namespace npud::client
