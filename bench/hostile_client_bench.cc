// hostile_client_bench: what a hostile client costs an honest one (issue 41's
// third goal). Two client processes on one npud:
//
//   honest   4 KiB host-to-device and device-to-host copies (checked) and an
//            empty kernel with aclrtSynchronizeStream, back to back; the
//            round's latency p50 / p99 / max and its failed calls
//   hostile  everything a client may try short of computing (the fair share
//            of the cores is fair_share_bench's): device memory until its
//            limit, streams and events until theirs, 16 MiB copies back to
//            back, kernel binaries of garbage, and on raw sockets
//            connections that trickle their hello a byte at a time and
//            headers announcing 256 MiB frames, on the unix socket and on
//            npud's TCP port
//
// The honest client runs alone first (the baseline, same run), then beside
// the hostile one. Goal: every honest call succeeds and its p99 stays within
// 2x of alone.
//
//   hostile_client_bench [--seconds=N] [--attacks=memory,copies,binaries,connections]

#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "bench_support.h"

namespace {

using Clock = std::chrono::steady_clock;

// Client: prints "rounds p50_us p99_us max_us failures".
int HonestMain(double seconds, const std::string& start_line) {
  NPUD_BENCH_CHECK(aclInit(nullptr));
  NPUD_BENCH_CHECK(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  NPUD_BENCH_CHECK(aclrtCreateStream(&stream));
  const aclrtFuncHandle empty = npud::bench::LoadKernel(BENCH_KERNELS_PATH, "empty");
  constexpr size_t kBytes = 4096;
  void* device = nullptr;
  NPUD_BENCH_CHECK(aclrtMalloc(&device, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  std::vector<unsigned char> out(kBytes), back(kBytes);
  auto round = [&](unsigned seed) {
    for (size_t i = 0; i < kBytes; ++i) out[i] = static_cast<unsigned char>(seed + i * 7);
    long failures = 0;
    failures += aclrtMemcpy(device, kBytes, out.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE) != 0;
    failures += aclrtMemcpy(back.data(), kBytes, device, kBytes, ACL_MEMCPY_DEVICE_TO_HOST) != 0;
    failures += back != out;
    failures +=
        aclrtLaunchKernelWithHostArgs(empty, 1, stream, nullptr, nullptr, 0, nullptr, 0) != 0;
    failures += aclrtSynchronizeStream(stream) != 0;
    return failures;
  };
  for (unsigned i = 0; i < 100; ++i) round(i);  // warm: the kernel host is up
  npud::bench::StartLine::Arrive(start_line);
  std::vector<double> us;
  long failures = 0;
  const auto end = Clock::now() + std::chrono::duration<double>(seconds);
  for (unsigned i = 0; Clock::now() < end; ++i) {
    const auto start = Clock::now();
    failures += round(i);
    us.push_back(npud::bench::SecondsSince(start) * 1e6);
  }
  std::sort(us.begin(), us.end());
  std::printf("%zu %.1f %.1f %.1f %ld\n", us.size(), us[us.size() / 2], us[us.size() * 99 / 100],
              us.back(), failures);
  return 0;
}

int ConnectUnix(const std::string& path) {
  const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::strncpy(address.sun_path, path.c_str(), sizeof(address.sun_path) - 1);
  if (connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

int ConnectTcp(int port) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

// Keeps `count` connections open until `stop`, each sending one byte of
// `prefix` per `interval` (a reconnect once npud has cut it). Returns the
// connections npud cut.
long Trickle(const std::function<int()>& connect, const std::string& prefix, int count,
             std::chrono::milliseconds interval, const std::atomic<bool>& stop) {
  std::vector<int> fds(count, -1);
  std::vector<size_t> sent(count, 0);
  long cut = 0;
  while (!stop.load()) {
    for (int i = 0; i < count; ++i) {
      if (fds[i] < 0) {
        fds[i] = connect();
        sent[i] = 0;
        if (fds[i] < 0) continue;
      }
      const char byte = prefix[sent[i] % prefix.size()];
      if (send(fds[i], &byte, 1, MSG_NOSIGNAL | MSG_DONTWAIT) != 1) {
        close(fds[i]);
        fds[i] = -1;
        ++cut;
        continue;
      }
      ++sent[i];
    }
    std::this_thread::sleep_for(interval);
  }
  for (int fd : fds) {
    if (fd >= 0) close(fd);
  }
  return cut;
}

// Client: the attacks above for `seconds`; prints what it got.
int HostileMain(double seconds, int framed_port, const std::string& attacks_to_run,
                const std::string& start_line) {
  auto runs = [&](const char* attack) {
    return attacks_to_run.empty() || attacks_to_run.find(attack) != std::string::npos;
  };
  setenv("NPUD_LOG_LEVEL", "error", 1);  // its refusals are the point, not news
  NPUD_BENCH_CHECK(aclInit(nullptr));
  NPUD_BENCH_CHECK(aclrtSetDevice(0));
  const char* address = std::getenv("NPUD_ADDRESS");
  const std::string socket_path =
      address != nullptr && std::strncmp(address, "unix://", 7) == 0 ? address + 7 : "";
  void* copy_target = nullptr;
  constexpr size_t kCopyBytes = 16 << 20;
  NPUD_BENCH_CHECK(aclrtMalloc(&copy_target, kCopyBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  std::vector<char> copy_source(kCopyBytes, 'h');
  npud::bench::StartLine::Arrive(start_line);

  std::atomic<bool> stop{false};
  std::atomic<long> held_mib{0}, streams{0}, events{0}, copies{0}, binaries{0}, cut{0};
  std::vector<std::thread> attacks;
  if (runs("memory"))
    attacks.emplace_back([&] {
      // Contexts are per thread: bind the device in each attacking thread.
      aclrtSetDevice(0);
      void* block = nullptr;
      while (!stop.load() && aclrtMalloc(&block, 64 << 20, ACL_MEM_MALLOC_HUGE_FIRST) == 0) {
        held_mib += 64;
      }
      aclrtStream stream = nullptr;
      while (!stop.load() && streams.load() < 20000 && aclrtCreateStream(&stream) == 0) ++streams;
      aclrtEvent event = nullptr;
      while (!stop.load() && events.load() < 50000 && aclrtCreateEvent(&event) == 0) ++events;
    });
  if (runs("copies"))
    attacks.emplace_back([&] {
      aclrtSetDevice(0);
      while (!stop.load()) {
        if (aclrtMemcpy(copy_target, kCopyBytes, copy_source.data(), kCopyBytes,
                        ACL_MEMCPY_HOST_TO_DEVICE) == 0) {
          ++copies;
        }
      }
    });
  if (runs("binaries"))
    attacks.emplace_back([&] {
      aclrtSetDevice(0);
      // An ELF magic, so that npud (not the client library) looks at it.
      std::string garbage(1 << 20, '\x7f');
      garbage.replace(0, 4,
                      "\x7f"
                      "ELF");
      while (!stop.load()) {
        aclrtBinHandle binary = nullptr;
        if (aclrtBinaryLoadFromData(garbage.data(), garbage.size(), nullptr, &binary) == 0) {
          aclrtBinaryUnLoad(binary);
        }
        ++binaries;
      }
    });
  // A local hello is a frame header announcing its length, then the
  // message: trickled, it never completes in time. A header announcing
  // 256 MiB is refused at once before the hello.
  const std::string trickled_hello("\x40\x00\x00\x00\x00\x00\x00\x00", 8);
  const std::string huge_header("\x00\x00\x00\x10\x00\x00\x00\x00", 8);
  // npud's port: a session header (bulk frame, 32 bytes) byte by byte.
  const std::string trickled_session(32, '\x01');
  if (runs("connections"))
    attacks.emplace_back([&] {
      cut += Trickle([&] { return ConnectUnix(socket_path); }, trickled_hello, 96,
                     std::chrono::milliseconds(500), stop);
    });
  if (runs("connections"))
    attacks.emplace_back([&] {
      cut += Trickle([&] { return ConnectUnix(socket_path); }, huge_header, 16,
                     std::chrono::milliseconds(50), stop);
    });
  if (runs("connections"))
    attacks.emplace_back([&] {
      cut += Trickle([&] { return ConnectTcp(framed_port); }, trickled_session, 64,
                     std::chrono::milliseconds(500), stop);
    });
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
  stop = true;
  for (std::thread& attack : attacks) attack.join();
  std::printf("%ld %ld %ld %ld %ld %ld\n", held_mib.load(), streams.load(), events.load(),
              copies.load(), binaries.load(), cut.load());
  return 0;
}

struct Honest {
  long rounds = 0;
  double p50 = 0, p99 = 0, max = 0;
  long failures = 0;
};

bool ParseHonest(const std::string& line, Honest* h) {
  return std::sscanf(line.c_str(), "%ld %lf %lf %lf %ld", &h->rounds, &h->p50, &h->p99, &h->max,
                     &h->failures) == 5;
}

}  // namespace

int main(int argc, char** argv) {
  double seconds = 5;
  int framed_port = 0;
  std::string role, start_line, attacks;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--seconds=", 10) == 0) seconds = std::atof(argv[i] + 10);
    if (std::strncmp(argv[i], "--attacks=", 10) == 0) attacks = argv[i] + 10;
    if (std::strncmp(argv[i], "--framed_port=", 14) == 0) framed_port = std::atoi(argv[i] + 14);
    if (std::strncmp(argv[i], "--role=", 7) == 0) role = argv[i] + 7;
    if (std::strncmp(argv[i], "--start_line=", 13) == 0) start_line = argv[i] + 13;
  }
  if (role == "honest") return HonestMain(seconds, start_line);
  if (role == "hostile") return HostileMain(seconds, framed_port, attacks, start_line);

  npud::bench::BenchDaemon daemon;
  if (!daemon.ok()) {
    std::fprintf(stderr, "npud did not start\n");
    return 1;
  }
  const std::string time = "--seconds=" + std::to_string(seconds);
  const std::string framed = daemon.framed_address();
  const std::string port = framed.substr(framed.rfind(':') + 1);
  const std::vector<std::string> honest = {"--role=honest", time};
  const std::vector<std::string> hostile = {"--role=hostile", time, "--framed_port=" + port,
                                            "--attacks=" + attacks};
  std::vector<std::string> alone, shared;
  if (!npud::bench::RunClientsTogether(argv[0], daemon.unix_address(), {honest}, &alone) ||
      !npud::bench::RunClientsTogether(argv[0], daemon.unix_address(), {honest, hostile},
                                       &shared)) {
    std::fprintf(stderr, "a benchmark client failed\n");
    return 1;
  }
  Honest h_alone, h_shared;
  long held_mib = 0, streams = 0, events = 0, copies = 0, binaries = 0, cut = 0;
  if (!ParseHonest(alone[0], &h_alone) || !ParseHonest(shared[0], &h_shared) ||
      std::sscanf(shared[1].c_str(), "%ld %ld %ld %ld %ld %ld", &held_mib, &streams, &events,
                  &copies, &binaries, &cut) != 6) {
    std::fprintf(stderr, "unreadable client output\n");
    return 1;
  }
  std::printf("honest client beside a hostile one, %.0f s per phase, attacks: %s\n", seconds,
              attacks.empty() ? "all" : attacks.c_str());
  std::printf(
      "hostile client got: %ld MiB of device memory, %ld streams, %ld events, %ld copies of "
      "16 MiB, %ld garbage binaries, %ld raw connections cut\n",
      held_mib, streams, events, copies, binaries, cut);
  std::printf("%-40s %12s %12s %10s\n", "figure", "shared", "alone", "ratio");
  std::printf("%-40s %12.1f %12.1f %10.2f\n", "honest round p50 (us)", h_shared.p50, h_alone.p50,
              h_shared.p50 / h_alone.p50);
  std::printf("%-40s %12.1f %12.1f %10.2f\n", "honest round p99 (us)", h_shared.p99, h_alone.p99,
              h_shared.p99 / h_alone.p99);
  std::printf("%-40s %12.1f %12.1f %10.2f\n", "honest round max (us)", h_shared.max, h_alone.max,
              h_shared.max / h_alone.max);
  std::printf("%-40s %12ld %12ld\n", "honest failed calls", h_shared.failures, h_alone.failures);
  std::printf("goals (issue 41): no honest call fails; honest p99 shared <= 2x alone\n");
  return h_shared.failures == 0 && h_alone.failures == 0 ? 0 : 3;
}
