// acl_test_client's scenarios of one session's kernels against another's:
// a hog that keeps the device's cores busy, a victim that measures how long
// its own short kernel takes meanwhile, and a hog of npud's compile queue.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_rt_compile.h"
#include "tests/e2e/acl_test_client_scenarios.h"

namespace npud::test_client {
namespace {

using Clock = std::chrono::steady_clock;

struct SpinArgs {
  void* flag;
  uint32_t ms;
};

constexpr int kHogStreams = 4;

}  // namespace

int Hog(const char* kernels, uint32_t blocks, uint32_t kilo_rounds, double seconds) {
  aclrtStream streams[kHogStreams] = {};
  aclrtFuncHandle burn = nullptr;
  SpinArgs args{nullptr, kilo_rounds};
  if (!OpenKernel(kernels, "burn", &streams[0], &burn) ||
      aclrtMalloc(&args.flag, 4096, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
    return 3;
  }
  for (int i = 1; i < kHogStreams; ++i) {
    if (aclrtCreateStream(&streams[i]) != ACL_SUCCESS) return 3;
  }
  auto launch = [&](aclrtStream stream) {
    return aclrtLaunchKernelWithHostArgs(burn, blocks, stream, nullptr, &args, sizeof(args),
                                         nullptr, 0) == ACL_SUCCESS;
  };
  std::printf("READY\n");
  std::fflush(stdout);
  long launches = 0;
  const auto end = Clock::now() + std::chrono::duration<double>(seconds);
  for (aclrtStream stream : streams) {
    if (!launch(stream)) return 4;
  }
  while (Clock::now() < end) {
    // Two launches per stream in flight: one runs while the next waits.
    for (aclrtStream stream : streams) {
      if (!launch(stream) || aclrtSynchronizeStream(stream) != ACL_SUCCESS || !launch(stream)) {
        return 4;
      }
      launches += 2;
    }
  }
  for (aclrtStream stream : streams) {
    if (aclrtSynchronizeStream(stream) != ACL_SUCCESS) return 4;
  }
  std::printf("HOG %ld\n", launches);
  return 0;
}

int Victim(const char* kernels, double seconds) {
  aclrtStream stream = nullptr;
  aclrtFuncHandle spin = nullptr;
  SpinArgs args{nullptr, 0};
  if (!OpenKernel(kernels, "spin", &stream, &spin) ||
      aclrtMalloc(&args.flag, 4096, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
    return 3;
  }
  auto round = [&] {
    return aclrtLaunchKernelWithHostArgs(spin, 1, stream, nullptr, &args, sizeof(args), nullptr,
                                         0) == ACL_SUCCESS &&
           aclrtSynchronizeStream(stream) == ACL_SUCCESS;
  };
  if (!round()) return 4;  // the kernel host is up
  std::printf("READY\n");
  std::fflush(stdout);
  std::vector<double> us;
  const auto end = Clock::now() + std::chrono::duration<double>(seconds);
  while (Clock::now() < end) {
    const auto start = Clock::now();
    if (!round()) return 4;
    us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count());
  }
  std::sort(us.begin(), us.end());
  std::printf("VICTIM %zu %.0f %.0f %.0f\n", us.size(), us[us.size() / 2], us[us.size() * 99 / 100],
              us.back());
  return 0;
}

int CompileHog(int threads, double seconds) {
  std::atomic<int> next{0}, compiled{0}, refused{0}, failed{0};
  std::printf("READY\n");
  std::fflush(stdout);
  const auto end = Clock::now() + std::chrono::duration<double>(seconds);
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&] {
      do {  // at least once
        // A program of its own each time: npud's compile cache never helps.
        const std::string source =
            "#include \"kernel_operator.h\"\nextern \"C\" __global__ __aicore__ void k" +
            std::to_string(next++) + "() {}\n";
        aclrtcProg prog = nullptr;
        if (aclrtcCreateProg(&prog, source.c_str(), "hog.cpp", 0, nullptr, nullptr) != 0) {
          ++failed;
          break;
        }
        const aclError rc = aclrtcCompileProg(prog, 0, nullptr);
        aclrtcDestroyProg(&prog);
        if (rc == ACL_SUCCESS) {
          ++compiled;
        } else {  // the session's share of the queue is full
          ++refused;
          std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
      } while (Clock::now() < end);
    });
  }
  for (std::thread& worker : workers) worker.join();
  std::printf("COMPILE-HOG %d %d %d\n", compiled.load(), refused.load(), failed.load());
  return 0;
}

}  // namespace npud::test_client
