#include "tests/e2e/npud_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <sstream>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "absl/time/clock.h"
#include "common/subprocess.h"

extern char** environ;

namespace npud::testing {
namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream content;
  content << in.rdbuf();
  return content.str();
}

std::vector<char*> Pointers(std::vector<std::string>& strings) {
  std::vector<char*> pointers;
  for (auto& s : strings) pointers.push_back(s.data());
  pointers.push_back(nullptr);
  return pointers;
}

// argv and envp (this environment plus `extra`) for posix_spawn; the
// pointers stay valid as long as the object.
struct SpawnArgs {
  SpawnArgs(const std::vector<std::string>& argv_in, const std::vector<std::string>& extra)
      : args(argv_in) {
    for (char** e = environ; *e != nullptr; ++e) env.push_back(*e);
    env.insert(env.end(), extra.begin(), extra.end());
    argv = Pointers(args);
    envp = Pointers(env);
  }
  std::vector<std::string> args, env;
  std::vector<char*> argv, envp;
};

}  // namespace

absl::StatusOr<std::unique_ptr<NpudProcess>> NpudProcess::Start(
    Transport transport, const std::vector<std::string>& extra_flags) {
  std::unique_ptr<NpudProcess> process(new NpudProcess());
  char dir_template[] = "/tmp/npud-test-XXXXXX";
  if (mkdtemp(dir_template) == nullptr) return absl::InternalError("mkdtemp failed");
  process->dir_ = dir_template;
  process->log_path_ = process->dir_ + "/npud.log";
  const std::string ready = process->dir_ + "/ready";
  const std::string socket = process->dir_ + "/npud.sock";
  std::vector<std::string> args = {NPUD_BINARY,
                                   transport == Transport::kUnix
                                       ? absl::StrCat("--listen=unix://", socket)
                                       : std::string("--listen=127.0.0.1:0"),
                                   absl::StrCat("--ready_file=", ready),
                                   "--log_level=debug",
                                   "--memory_gib=16",
                                   "--exit_with_parent=true"};
  const bool tls = transport == Transport::kTls || transport == Transport::kFramedTls;
  if (tls) {
    const std::string certs = process->dir_ + "/certs";
    if (RunProcess({"/bin/sh", MAKE_TLS_CERTS, certs}, {}) != 0) {
      return absl::InternalError("tools/make_tls_certs.sh failed");
    }
    args.push_back("--tls_cert=" + certs + "/server.crt");
    args.push_back("--tls_key=" + certs + "/server.key");
    args.push_back("--tls_client_ca=" + certs + "/ca.crt");
    setenv("NPUD_TLS_CA", (certs + "/ca.crt").c_str(), 1);
    setenv("NPUD_TLS_CERT", (certs + "/client.crt").c_str(), 1);
    setenv("NPUD_TLS_KEY", (certs + "/client.key").c_str(), 1);
  }
  if (transport != Transport::kUnix) {
    // Admin calls over TCP need a token; npuctl started by the tests finds
    // it through the environment.
    const std::string admin_token = process->dir_ + "/admin_token";
    std::ofstream(admin_token) << "admin-" << getpid() << "-" << process->dir_ << "\n";
    args.push_back("--admin_token_file=" + admin_token);
    setenv("NPUD_ADMIN_TOKEN_FILE", admin_token.c_str(), 1);
  }
  args.insert(args.end(), extra_flags.begin(), extra_flags.end());
  SpawnOptions spawn;
  spawn.argv = std::move(args);
  // Nothing of the test's own stdio: a daemon holding the test runner's
  // pipes would keep it waiting.
  spawn.stderr_path = process->log_path_;
  absl::StatusOr<pid_t> pid = Spawn(spawn);
  if (!pid.ok())
    return absl::InternalError(absl::StrCat("cannot start npud: ", pid.status().message()));
  process->pid_ = *pid;

  const absl::Time deadline = absl::Now() + absl::Seconds(20);
  while (access(ready.c_str(), F_OK) != 0) {
    if (!process->Alive()) {
      return absl::InternalError(absl::StrCat("npud exited early:\n", process->Log()));
    }
    if (absl::Now() > deadline) return absl::DeadlineExceededError("npud did not start");
    absl::SleepFor(absl::Milliseconds(5));
  }
  if (transport == Transport::kUnix) {
    process->grpc_address_ = absl::StrCat("unix://", socket);
    process->address_ = process->grpc_address_;
    return process;
  }
  // The gRPC port, then "npud <port>" (--bulk_listen=auto).
  for (absl::string_view line : absl::StrSplit(ReadFile(ready), '\n', absl::SkipEmpty())) {
    if (absl::ConsumePrefix(&line, "npud ")) {
      (void)absl::SimpleAtoi(line, &process->npud_port_);
    } else if (process->grpc_address_.empty()) {
      process->grpc_address_ = absl::StrCat("127.0.0.1:", line);
    }
  }
  const bool framed = transport == Transport::kFramed || transport == Transport::kFramedTls;
  if (framed && process->npud_port_ == 0) {
    return absl::InternalError("npud did not report its own TCP port");
  }
  process->address_ =
      framed ? absl::StrCat("npud://127.0.0.1:", process->npud_port_) : process->grpc_address_;
  return process;
}

absl::Status NpudProcess::Stop() {
  if (!Alive()) return absl::FailedPreconditionError("npud was no longer running");
  kill(pid_, SIGTERM);
  const absl::Time deadline = absl::Now() + absl::Seconds(20);
  while (Alive() && absl::Now() < deadline) absl::SleepFor(absl::Milliseconds(5));
  if (Alive()) {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
    pid_ = -1;
    return absl::DeadlineExceededError("npud did not stop within 20 s of SIGTERM");
  }
  if (!WIFEXITED(exit_status_) || WEXITSTATUS(exit_status_) != 0) {
    return absl::InternalError(absl::StrCat("npud ended with wait status ", exit_status_));
  }
  return absl::OkStatus();
}

NpudProcess::~NpudProcess() {
  if (Alive()) Stop().IgnoreError();
  if (!dir_.empty()) {
    std::vector<std::string> rm = {"/bin/rm", "-rf", dir_};
    RunProcess(rm, {});
  }
}

bool NpudProcess::Alive() {
  if (pid_ <= 0) return false;
  int status = 0;
  if (waitpid(pid_, &status, WNOHANG) == pid_) {
    exit_status_ = status;
    pid_ = -1;
    return false;
  }
  return true;
}

std::string NpudProcess::Log() const { return ReadFile(log_path_); }

absl::StatusOr<std::unique_ptr<ChildProcess>> ChildProcess::Spawn(
    const std::vector<std::string>& argv_in, const std::vector<std::string>& env_in) {
  SpawnArgs spawn(argv_in, env_in);
  int in[2], out[2];
  if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0) {
    return absl::InternalError("pipe failed");
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in[0], 0);
  posix_spawn_file_actions_adddup2(&actions, out[1], 1);
  std::unique_ptr<ChildProcess> child(new ChildProcess());
  const int err = posix_spawn(&child->pid_, spawn.argv[0], &actions, nullptr, spawn.argv.data(),
                              spawn.envp.data());
  posix_spawn_file_actions_destroy(&actions);
  close(in[0]);
  close(out[1]);
  child->stdin_fd_ = in[1];
  child->stdout_fd_ = out[0];
  if (err != 0) return absl::InternalError(absl::StrCat("cannot start ", argv_in[0]));
  return child;
}

ChildProcess::~ChildProcess() {
  if (!reaped_ && pid_ > 0) {
    kill(pid_, SIGKILL);
    Wait();
  }
  if (stdin_fd_ >= 0) close(stdin_fd_);
  if (stdout_fd_ >= 0) close(stdout_fd_);
}

std::string ChildProcess::ReadLine(absl::Duration timeout) {
  const absl::Time deadline = absl::Now() + timeout;
  while (true) {
    const size_t newline = buffer_.find('\n');
    if (newline != std::string::npos) {
      std::string line = buffer_.substr(0, newline);
      buffer_.erase(0, newline + 1);
      return line;
    }
    const absl::Duration left = deadline - absl::Now();
    if (left <= absl::ZeroDuration()) return "";
    pollfd fd{stdout_fd_, POLLIN, 0};
    if (poll(&fd, 1, static_cast<int>(absl::ToInt64Milliseconds(left)) + 1) <= 0) continue;
    char chunk[4096];
    const ssize_t n = read(stdout_fd_, chunk, sizeof(chunk));
    if (n <= 0) return "";
    buffer_.append(chunk, n);
  }
}

void ChildProcess::WriteLine(const std::string& line) {
  const std::string text = line + "\n";
  if (write(stdin_fd_, text.data(), text.size()) < 0) return;
}

void ChildProcess::CloseStdin() {
  if (stdin_fd_ >= 0) close(stdin_fd_);
  stdin_fd_ = -1;
}

void ChildProcess::Kill(int signal) {
  if (!reaped_) kill(pid_, signal);
}

int ChildProcess::Wait() {
  if (!reaped_) {
    waitpid(pid_, &status_, 0);
    reaped_ = true;
  }
  return WIFEXITED(status_) ? WEXITSTATUS(status_) : -WTERMSIG(status_);
}

NpudProcess::Transport TransportFromEnv() {
  const char* transport = getenv("NPUD_TEST_TRANSPORT");
  const std::string name = transport != nullptr ? transport : "";
  if (name == "tcp") return NpudProcess::Transport::kTcp;
  if (name == "tls") return NpudProcess::Transport::kTls;
  if (name == "framed") return NpudProcess::Transport::kFramed;
  if (name == "framed_tls") return NpudProcess::Transport::kFramedTls;
  return NpudProcess::Transport::kUnix;
}

bool InprocFromEnv() {
  const char* transport = getenv("NPUD_TEST_TRANSPORT");
  return transport != nullptr && std::string(transport) == "inproc";
}

int RunProcess(const std::vector<std::string>& argv_in, const std::vector<std::string>& env_in,
               std::string* out) {
  SpawnArgs spawn(argv_in, env_in);

  std::string out_path;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (out != nullptr) {
    char path[] = "/tmp/npud-test-out-XXXXXX";
    int fd = mkstemp(path);
    close(fd);
    out_path = path;
    posix_spawn_file_actions_addopen(&actions, 1, path, O_WRONLY | O_TRUNC, 0600);
  }
  pid_t pid = -1;
  const int err =
      posix_spawn(&pid, spawn.argv[0], &actions, nullptr, spawn.argv.data(), spawn.envp.data());
  posix_spawn_file_actions_destroy(&actions);
  if (err != 0) return -1000;
  int status = 0;
  waitpid(pid, &status, 0);
  if (out != nullptr) {
    *out = ReadFile(out_path);
    unlink(out_path.c_str());
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return -WTERMSIG(status);
}

}  // namespace npud::testing
