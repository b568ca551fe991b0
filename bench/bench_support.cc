#include "bench/bench_support.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

namespace npud::bench {

double MonotonicSeconds() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

void TcpLoopbackPair(int fds[2]) {
  const int listener = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof(addr));
  socklen_t len = sizeof(addr);
  getsockname(listener, reinterpret_cast<sockaddr*>(&addr), &len);
  listen(listener, 1);
  fds[0] = socket(AF_INET, SOCK_STREAM, 0);
  connect(fds[0], reinterpret_cast<sockaddr*>(&addr), sizeof(addr));
  fds[1] = accept(listener, nullptr, nullptr);
  close(listener);
  int one = 1;
  setsockopt(fds[0], IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
  setsockopt(fds[1], IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

StartLine::StartLine() {
  char dir[] = "/tmp/npud-bench-start-XXXXXX";
  if (mkdtemp(dir) != nullptr) dir_ = dir;
}

StartLine::~StartLine() {
  if (!dir_.empty()) std::filesystem::remove_all(dir_);
}

bool StartLine::ReleaseWhenArrived(int clients) {
  const double give_up = MonotonicSeconds() + 60;
  while (MonotonicSeconds() < give_up) {
    int arrived = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir_)) {
      arrived += entry.path().filename().string().rfind("ready.", 0) == 0;
    }
    if (arrived >= clients) break;
    usleep(1000);
  }
  std::ofstream(dir_ + "/go").put('1');
  return MonotonicSeconds() < give_up;
}

void StartLine::Arrive(const std::string& dir) {
  if (dir.empty()) return;
  std::ofstream(dir + "/ready." + std::to_string(getpid())).put('1');
  // Polling every 200 µs: the clients start within that of each other.
  while (access((dir + "/go").c_str(), F_OK) != 0) usleep(200);
}

BenchDaemon::BenchDaemon(const std::string& tls_dir) {
  char dir[] = "/tmp/npud-bench-XXXXXX";
  if (mkdtemp(dir) == nullptr) return;
  dir_ = dir;
  const std::string socket_path = dir_ + "/npud.sock";
  const std::string ready = dir_ + "/ready";
  pid_ = fork();
  if (pid_ == 0) {
    const std::string listen = "--listen=unix://" + socket_path + ",127.0.0.1:0";
    const std::string ready_flag = "--ready_file=" + ready;
    std::vector<std::string> args = {NPUD_BINARY, listen, ready_flag, "--log_level=warn",
                                     "--exit_with_parent=true"};
    if (!tls_dir.empty()) {
      args.push_back("--tls_cert=" + tls_dir + "/server.crt");
      args.push_back("--tls_key=" + tls_dir + "/server.key");
    }
    std::vector<char*> argv;
    for (std::string& arg : args) argv.push_back(arg.data());
    argv.push_back(nullptr);
    execv(NPUD_BINARY, argv.data());
    _exit(127);
  }
  for (int i = 0; i < 400 && access(ready.c_str(), F_OK) != 0; ++i) usleep(25000);
  std::ifstream in(ready);
  // The unix socket's 0, the TCP port, then "npud <port>".
  std::string port;
  std::string own;
  if (!std::getline(in, port) || !std::getline(in, port) || !std::getline(in, own) ||
      own.rfind("npud ", 0) != 0) {
    return;
  }
  unix_address_ = "unix://" + socket_path;
  tcp_address_ = "127.0.0.1:" + port;
  framed_address_ = "npud://127.0.0.1:" + own.substr(5);
}

BenchDaemon::~BenchDaemon() {
  if (pid_ > 0) {
    kill(pid_, SIGTERM);
    waitpid(pid_, nullptr, 0);
  }
  if (!dir_.empty()) {
    unlink((dir_ + "/ready").c_str());
    unlink((dir_ + "/npud.sock").c_str());
    rmdir(dir_.c_str());
  }
}

bool RunSelfAsClient(const char* self, const std::string& address,
                     const std::vector<std::string>& args, std::string* output) {
  int pipefd[2];
  if (pipe(pipefd) != 0) return false;
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(pipefd[1], 1);
    close(pipefd[0]);
    setenv("NPUD_ADDRESS", address.c_str(), 1);
    std::vector<std::string> all = {self, "--client"};
    all.insert(all.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& arg : all) argv.push_back(arg.data());
    argv.push_back(nullptr);
    execv(self, argv.data());
    _exit(127);
  }
  close(pipefd[1]);
  output->clear();
  char buffer[4096];
  ssize_t n;
  while ((n = read(pipefd[0], buffer, sizeof(buffer))) > 0) output->append(buffer, n);
  close(pipefd[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

uint64_t ResidentMiB(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stoull(line.substr(6)) >> 10;
  }
  return 0;
}

ResidentMemory::ResidentMemory(pid_t pid)
    : pid_(pid), idle_mib_(ResidentMiB(pid)), peak_mib_(idle_mib_) {
  sampler_ = std::thread([this] {
    while (!stop_.load()) {
      const uint64_t now = ResidentMiB(pid_);
      if (now > peak_mib_.load()) peak_mib_.store(now);
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  });
}

ResidentMemory::~ResidentMemory() {
  stop_.store(true);
  if (sampler_.joinable()) sampler_.join();
}

void ResidentMemory::Stop(std::chrono::milliseconds settle, uint64_t slack_mib) {
  stop_.store(true);
  if (sampler_.joinable()) sampler_.join();
  const auto end = std::chrono::steady_clock::now() + settle;
  after_mib_ = ResidentMiB(pid_);
  while (after_mib_ > idle_mib_ + slack_mib && std::chrono::steady_clock::now() < end) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    after_mib_ = ResidentMiB(pid_);
  }
}

bool RunClientsTogether(const char* self, const std::string& address,
                        const std::vector<std::vector<std::string>>& clients,
                        std::vector<std::string>* outputs) {
  StartLine start_line;
  outputs->assign(clients.size(), "");
  std::vector<char> ok(clients.size(), 0);
  std::vector<std::thread> threads;
  for (size_t c = 0; c < clients.size(); ++c) {
    threads.emplace_back([&, c] {
      std::vector<std::string> args = clients[c];
      args.push_back(start_line.Argument());
      ok[c] = RunSelfAsClient(self, address, args, &(*outputs)[c]);
    });
  }
  const bool arrived = start_line.ReleaseWhenArrived(static_cast<int>(clients.size()));
  for (std::thread& t : threads) t.join();
  return arrived && std::all_of(ok.begin(), ok.end(), [](char c) { return c != 0; });
}

}  // namespace npud::bench
