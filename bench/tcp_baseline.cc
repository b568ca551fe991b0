#include "bench/tcp_baseline.h"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <thread>
#include <vector>

#include "bench/bench_support.h"

namespace npud::bench {
namespace {

// Receives `reps` + 1 messages of `size` bytes on `fd`, acknowledging each
// with one byte; the child side of the TCP baselines.
[[noreturn]] void ReceiveMessages(int fd, size_t size, int reps) {
  std::vector<char> buffer(1 << 20);
  for (int i = 0; i < reps + 1; ++i) {
    size_t got = 0;
    while (got < size) {
      const ssize_t n = read(fd, buffer.data(), std::min(buffer.size(), size - got));
      if (n <= 0) _exit(1);
      got += n;
    }
    if (write(fd, "k", 1) != 1) _exit(1);
  }
  _exit(0);
}

// Sends one message of `size` bytes on `fd` and waits for its ack.
bool SendMessage(int fd, const std::vector<char>& data) {
  size_t sent = 0;
  while (sent < data.size()) {
    const ssize_t n = write(fd, data.data() + sent, std::min<size_t>(1 << 20, data.size() - sent));
    if (n <= 0) return false;
    sent += n;
  }
  char ack;
  return read(fd, &ack, 1) == 1;
}

}  // namespace

int RepsFor(size_t size) {
  return static_cast<int>(std::clamp<size_t>((size_t{512} << 20) / size, 2, 2000));
}

double TcpStreamGbps(size_t size, int streams) {
  const int reps = RepsFor(size);
  std::vector<int> fds(streams);
  std::vector<pid_t> children;
  for (int s = 0; s < streams; ++s) {
    int pair[2];
    TcpLoopbackPair(pair);
    const pid_t pid = fork();
    if (pid == 0) {
      close(pair[0]);
      ReceiveMessages(pair[1], size, reps);
    }
    close(pair[1]);
    fds[s] = pair[0];
    children.push_back(pid);
  }
  const std::vector<char> data(size, 7);
  for (int fd : fds) SendMessage(fd, data);
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::thread> senders;
  for (int fd : fds) {
    senders.emplace_back([&data, fd, reps] {
      for (int i = 0; i < reps; ++i) SendMessage(fd, data);
    });
  }
  for (std::thread& t : senders) t.join();
  const double gbps = static_cast<double>(size) * reps * streams / SecondsSince(start) / 1e9;
  for (int fd : fds) close(fd);
  for (pid_t pid : children) waitpid(pid, nullptr, 0);
  return gbps;
}

}  // namespace npud::bench
