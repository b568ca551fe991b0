// gemm_bench: a 1024 x 1024 x 1024 half GEMM on the simulated device, through npud
// over the unix socket, two ways: the basic API's cube path (bench_kernels.cc,
// cube_gemm: L1, L0A/L0B, Mmad, Fixpipe) and the advanced Matmul API (matmul_gemm,
// tiled by tiling/tiling_api.h for 24 cores), against a plain blocked C++ GEMM over
// the same half data in this process (float accumulation, one thread). Each is the
// best of five runs; the results must agree element for element.
//
//   gemm_bench [--size=N]     (N a multiple of 128)

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "bench/bench_support.h"
#include "npud_ascendc/fp16.h"
#include "tiling/tiling_api.h"

namespace {

constexpr int kRepeats = 5;
using Half = half;  // npud's binary16 (clang 14 has no _Float16 on x86)

// c = a * b, blocked over 64 x 64 x 64 for the caches; a row of b at a time.
__attribute__((noinline)) void BlockedGemm(const float* a, const float* b, float* c, uint32_t n) {
  constexpr uint32_t kB = 64;
  std::fill(c, c + uint64_t{n} * n, 0.0f);
  for (uint32_t i0 = 0; i0 < n; i0 += kB) {
    for (uint32_t p0 = 0; p0 < n; p0 += kB) {
      for (uint32_t j0 = 0; j0 < n; j0 += kB) {
        for (uint32_t i = i0; i < i0 + kB; ++i) {
          for (uint32_t p = p0; p < p0 + kB; ++p) {
            const float av = a[uint64_t{i} * n + p];
            const float* brow = &b[uint64_t{p} * n + j0];
            float* crow = &c[uint64_t{i} * n + j0];
            for (uint32_t j = 0; j < kB; ++j) crow[j] += av * brow[j];
          }
        }
      }
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  uint32_t n = 1024;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--size=", 7) == 0) n = static_cast<uint32_t>(std::atoi(argv[i] + 7));
  }
  if (n == 0 || n % 128 != 0) {
    std::fprintf(stderr, "--size must be a positive multiple of 128\n");
    return 2;
  }
  const uint64_t count = uint64_t{n} * n;
  // Small integers: exact in half, and every sum exact in float.
  std::vector<Half> a(count), b(count), c(count);
  std::vector<float> fa(count), fb(count), fc(count);
  for (uint64_t i = 0; i < count; ++i) {
    a[i] = static_cast<Half>(static_cast<int>(i * 7 % 5) - 2);
    b[i] = static_cast<Half>(static_cast<int>(i * 3 % 7) - 3);
    fa[i] = static_cast<float>(a[i]);
    fb[i] = static_cast<float>(b[i]);
  }
  const double plain =
      npud::bench::BestSeconds(kRepeats, [&] { BlockedGemm(fa.data(), fb.data(), fc.data(), n); });

  npud::bench::BenchDaemon daemon;
  if (!daemon.ok()) {
    std::fprintf(stderr, "npud did not start\n");
    return 1;
  }
  aclrtStream stream = npud::bench::OpenStreamOn(daemon);
  aclrtBinHandle binary = nullptr;
  aclrtFuncHandle gemm = nullptr;
  NPUD_BENCH_CHECK(aclrtBinaryLoadFromFile(BENCH_KERNELS_PATH, nullptr, &binary));
  NPUD_BENCH_CHECK(aclrtBinaryGetFunction(binary, "cube_gemm", &gemm));
  const size_t bytes = count * sizeof(Half);
  void *da = nullptr, *db = nullptr, *dc = nullptr;
  NPUD_BENCH_CHECK(aclrtMalloc(&da, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  NPUD_BENCH_CHECK(aclrtMalloc(&db, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  NPUD_BENCH_CHECK(aclrtMalloc(&dc, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  NPUD_BENCH_CHECK(aclrtMemcpy(da, bytes, a.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  NPUD_BENCH_CHECK(aclrtMemcpy(db, bytes, b.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  struct {
    void* a;
    void* b;
    void* c;
    uint32_t m, n, k;
  } args{da, db, dc, n, n, n};
  const uint32_t blocks = 48;  // the 910B's cube cores; npud runs them on this machine's cores
  const double device = npud::bench::BestSeconds(kRepeats, [&] {
    NPUD_BENCH_CHECK(aclrtLaunchKernelWithHostArgs(gemm, blocks, stream, nullptr, &args,
                                                   sizeof(args), nullptr, 0));
    NPUD_BENCH_CHECK(aclrtSynchronizeStream(stream));
  });
  NPUD_BENCH_CHECK(aclrtMemcpy(c.data(), bytes, dc, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
  for (uint64_t i = 0; i < count; ++i) {
    if (c[i].ToBits() != Half(fc[i]).ToBits()) {
      std::fprintf(stderr, "cube_gemm element %llu: device %f, baseline %f\n",
                   static_cast<unsigned long long>(i), static_cast<double>(c[i]),
                   static_cast<double>(fc[i]));
      return 1;
    }
  }

  // The advanced Matmul API, float results, tiled for the 910B's 24 cube cores.
  matmul_tiling::MultiCoreMatmulTiling tiling_api(
      *platform_ascendc::PlatformAscendCManager::GetInstance());
  tiling_api.SetDim(24);
  tiling_api.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                      matmul_tiling::DataType::DT_FLOAT16);
  tiling_api.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                      matmul_tiling::DataType::DT_FLOAT16);
  tiling_api.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                      matmul_tiling::DataType::DT_FLOAT);
  const int32_t size = static_cast<int32_t>(n);
  tiling_api.SetOrgShape(size, size, size);
  tiling_api.SetShape(size, size, size);
  TCubeTiling tiling;
  if (tiling_api.GetTiling(tiling) != 0) {
    std::fprintf(stderr, "GetTiling failed\n");
    return 1;
  }
  aclrtFuncHandle matmul = nullptr;
  NPUD_BENCH_CHECK(aclrtBinaryGetFunction(binary, "matmul_gemm", &matmul));
  void* dcf = nullptr;
  NPUD_BENCH_CHECK(aclrtMalloc(&dcf, count * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
  struct {
    void* a;
    void* b;
    void* c;
    TCubeTiling tiling;
  } margs{da, db, dcf, tiling};
  const double advanced = npud::bench::BestSeconds(kRepeats, [&] {
    NPUD_BENCH_CHECK(aclrtLaunchKernelWithHostArgs(matmul, tiling.usedCoreNum, stream, nullptr,
                                                   &margs, sizeof(margs), nullptr, 0));
    NPUD_BENCH_CHECK(aclrtSynchronizeStream(stream));
  });
  std::vector<float> cf(count);
  NPUD_BENCH_CHECK(aclrtMemcpy(cf.data(), count * sizeof(float), dcf, count * sizeof(float),
                               ACL_MEMCPY_DEVICE_TO_HOST));
  for (uint64_t i = 0; i < count; ++i) {
    if (cf[i] != fc[i]) {
      std::fprintf(stderr, "matmul_gemm element %llu: device %f, baseline %f\n",
                   static_cast<unsigned long long>(i), static_cast<double>(cf[i]),
                   static_cast<double>(fc[i]));
      return 1;
    }
  }

  const double flops = 2.0 * n * n * n;
  std::printf("half GEMM %ux%ux%u, blocked C++ baseline %.3f s (%.2f GFLOP/s):\n", n, n, n, plain,
              flops / plain / 1e9);
  std::printf(
      "  cube path (LoadData/Mmad/Fixpipe)  %.3f s (%.2f GFLOP/s), ratio %.2f (goal >= 1.5)\n",
      device, flops / device / 1e9, plain / device);
  std::printf(
      "  advanced Matmul API (%d cores)     %.3f s (%.2f GFLOP/s), ratio %.2f (goal >= 2.5)\n",
      tiling.usedCoreNum, advanced, flops / advanced / 1e9, plain / advanced);
  aclrtFree(dcf);
  aclrtFree(da);
  aclrtFree(db);
  aclrtFree(dc);
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
  return 0;
}
