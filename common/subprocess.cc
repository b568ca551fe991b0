#include "common/subprocess.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"

extern char** environ;

namespace npud {
namespace {

std::vector<char*> Pointers(std::vector<std::string>& strings) {
  std::vector<char*> pointers;
  pointers.reserve(strings.size() + 1);
  for (std::string& s : strings) pointers.push_back(s.data());
  pointers.push_back(nullptr);
  return pointers;
}

}  // namespace

absl::StatusOr<pid_t> Spawn(const SpawnOptions& options) {
  if (options.argv.empty()) return absl::InvalidArgumentError("nothing to run");
  std::vector<std::string> args = options.argv;
  std::vector<std::string> env;
  if (options.inherit_environment) {
    for (char** e = environ; *e != nullptr; ++e) env.emplace_back(*e);
  }
  env.insert(env.end(), options.extra_env.begin(), options.extra_env.end());
  std::vector<char*> argv = Pointers(args);
  std::vector<char*> envp = Pointers(env);

  const int output_flags = O_WRONLY | O_CREAT | (options.append_output ? O_APPEND : O_TRUNC);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  // Copies above the descriptors the child gets, so no source is
  // overwritten before it is copied.
  const int first_free = 3 + static_cast<int>(options.pass_fds.size());
  std::vector<int> copies;
  if (options.output_fd >= 0) {
    copies.push_back(fcntl(options.output_fd, F_DUPFD_CLOEXEC, first_free));
    posix_spawn_file_actions_adddup2(&actions, copies.back(), 1);
    posix_spawn_file_actions_adddup2(&actions, copies.back(), 2);
  } else if (options.stdout_path.empty()) {
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  } else {
    posix_spawn_file_actions_addopen(&actions, 1, options.stdout_path.c_str(), output_flags, 0600);
  }
  if (options.output_fd >= 0) {
    // Done above.
  } else if (options.keep_stderr) {
    // Stays ours.
  } else if (options.stderr_path.empty()) {
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
  } else {
    posix_spawn_file_actions_addopen(&actions, 2, options.stderr_path.c_str(), output_flags, 0600);
  }
  if (!options.cwd.empty()) posix_spawn_file_actions_addchdir_np(&actions, options.cwd.c_str());
  // The descriptors passed on go to 3, 4, ... by way of copies too.
  for (size_t i = 0; i < options.pass_fds.size(); ++i) {
    copies.push_back(fcntl(options.pass_fds[i], F_DUPFD_CLOEXEC, first_free));
    posix_spawn_file_actions_adddup2(&actions, copies.back(), 3 + static_cast<int>(i));
  }
  // Nothing else of ours (sockets, shared memory, device files) reaches the
  // child.
  posix_spawn_file_actions_addclosefrom_np(&actions, first_free);

  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  short flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF;
  if (options.detach == SpawnOptions::Detach::kProcessGroup) flags |= POSIX_SPAWN_SETPGROUP;
  if (options.detach == SpawnOptions::Detach::kSession) flags |= POSIX_SPAWN_SETSID;
  posix_spawnattr_setflags(&attributes, flags);
  posix_spawnattr_setpgroup(&attributes, 0);
  sigset_t signals;
  sigemptyset(&signals);
  posix_spawnattr_setsigmask(&attributes, &signals);
  for (int sig : {SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGCHLD, SIGALRM, SIGUSR1, SIGUSR2}) {
    sigaddset(&signals, sig);
  }
  posix_spawnattr_setsigdefault(&attributes, &signals);

  pid_t pid = -1;
  const int err = posix_spawnp(&pid, argv[0], &actions, &attributes, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  for (int copy : copies) {
    if (copy >= 0) close(copy);
  }
  if (err == ENOENT) return absl::NotFoundError(absl::StrCat(args[0], ": ", std::strerror(err)));
  if (err != 0) {
    return absl::InternalError(absl::StrCat("cannot run ", args[0], ": ", std::strerror(err)));
  }
  return pid;
}

absl::StatusOr<ExitStatus> WaitUntil(pid_t pid, absl::Time deadline,
                                     const std::atomic<bool>* cancelled) {
  absl::Duration pause = absl::Milliseconds(1);
  while (true) {
    int status = 0;
    const pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) {
      ExitStatus exit;
      if (WIFEXITED(status)) {
        exit.value = WEXITSTATUS(status);
      } else {
        exit.kind = ExitStatus::Kind::kSignaled;
        exit.value = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
      }
      return exit;
    }
    if (done < 0 && errno != EINTR) {
      const int err = errno;
      kill(-pid, SIGKILL);
      return absl::InternalError(
          absl::StrCat("lost track of process ", pid, ": ", std::strerror(err)));
    }
    const bool stop = cancelled != nullptr && cancelled->load();
    if (stop || absl::Now() >= deadline) {
      kill(-pid, SIGKILL);  // its group: a compiler driver and what it started
      kill(pid, SIGKILL);
      while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      return ExitStatus{stop ? ExitStatus::Kind::kCancelled : ExitStatus::Kind::kTimedOut, 0};
    }
    absl::SleepFor(pause);
    pause = std::min(pause * 2, absl::Milliseconds(20));
  }
}

}  // namespace npud
