// The advanced Matmul API (lib/matmul_intf.h) with tilings from the host tiling API:
// a cube kernel's IterateAll with bias, and a mix kernel's vector cores iterating base
// blocks through the UB, both against a host golden.
#include <algorithm>
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "npud_ascendc/fp16.h"
#include "tests/ascendc/kernel_harness.h"
#include "tiling/tiling_api.h"

namespace npud::ascendc_test {
namespace {

using matmul_tiling::CubeFormat;
using matmul_tiling::DataType;
using matmul_tiling::TPosition;

TCubeTiling Tiling(int32_t dim, int32_t m, int32_t n, int32_t k, bool bias, int32_t fix_m = -1,
                   int32_t fix_n = -1, int32_t fix_k = -1) {
  matmul_tiling::MultiCoreMatmulTiling api(
      *platform_ascendc::PlatformAscendCManager::GetInstance());
  api.SetDim(dim);
  api.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  api.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  api.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  api.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  api.SetOrgShape(m, n, k);
  api.SetShape(m, n, k);
  api.EnableBias(bias);
  if (fix_m > 0) api.SetFixSplit(fix_m, fix_n, fix_k);
  TCubeTiling t;
  EXPECT_EQ(api.GetTiling(t), 0);
  return t;
}

std::vector<half> Matrix(uint32_t rows, uint32_t cols, int seed) {
  std::vector<half> m(rows * cols);
  for (uint32_t i = 0; i < m.size(); ++i) m[i] = half(static_cast<int>((i * 5 + seed) % 7) - 3);
  return m;
}

float Dot(const std::vector<half>& a, const std::vector<half>& b, uint32_t n, uint32_t k,
          uint32_t i, uint32_t j) {
  float sum = 0;
  for (uint32_t p = 0; p < k; ++p)
    sum += static_cast<float>(a[i * k + p]) * static_cast<float>(b[p * n + j]);
  return sum;
}

TEST(MatmulTest, CubeKernelComputesItsCoresPartsWithBias) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_MATMUL);
  ASSERT_NE(lib, nullptr);
  const uint32_t m = 512, n = 512, k = 64;
  const TCubeTiling tiling = Tiling(2, m, n, k, true);
  ASSERT_EQ(tiling.singleCoreN, static_cast<int32_t>(n));  // the kernel splits M
  ASSERT_EQ(tiling.usedCoreNum, 2);
  const std::vector<half> a = Matrix(m, k, 1), b = Matrix(k, n, 4);
  std::vector<float> bias(n), c(m * n, -9.0f);
  for (uint32_t j = 0; j < n; ++j) bias[j] = static_cast<float>(j % 5);
  // IterateAll, and its asynchronous form with WaitIterateAll.
  for (const char* name : {"matmul_all", "matmul_all_async"}) {
    std::fill(c.begin(), c.end(), -9.0f);
    const NpudKernelInfo* kernel = FindOrFail(*lib, name);
    ASSERT_NE(kernel, nullptr);
    struct {
      const void* a;
      const void* b;
      const void* bias;
      void* c;
      TCubeTiling tiling;
    } args{a.data(), b.data(), bias.data(), c.data(), tiling};
    LaunchOptions cube;
    cube.core_type = NPUD_CORE_TYPE_CUBE;
    auto outcomes = RunBlocks(*kernel, 2, &args, sizeof(args), cube);
    ASSERT_EQ(outcomes.size(), 2u);
    for (const BlockOutcome& o : outcomes) ASSERT_FALSE(o.trapped) << o.trap_message;
    for (uint32_t i = 0; i < m; ++i) {
      for (uint32_t j = 0; j < n; ++j) {
        ASSERT_EQ(c[i * n + j], Dot(a, b, n, k, i, j) + bias[j]) << name << " " << i << "," << j;
      }
    }
  }
}

TEST(MatmulTest, MixKernelVectorCoresIterateBaseBlocks) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_MATMUL);
  ASSERT_NE(lib, nullptr);
  const uint32_t m = 256, n = 128, k = 64;
  const TCubeTiling tiling = Tiling(2, m, n, k, false, 128, 64, 64);
  ASSERT_EQ(tiling.singleCoreN, 64);  // the kernel splits N
  ASSERT_EQ(tiling.singleCoreM, static_cast<int32_t>(m));
  const std::vector<half> a = Matrix(m, k, 2), b = Matrix(k, n, 3);
  std::vector<float> c(m * n, -9.0f);
  const NpudKernelInfo* kernel = FindOrFail(*lib, "matmul_blocks_plus_one");
  ASSERT_NE(kernel, nullptr);
  struct {
    const void* a;
    const void* b;
    void* c;
    TCubeTiling tiling;
  } args{a.data(), b.data(), c.data(), tiling};
  LaunchOptions mix;
  mix.core_type = NPUD_CORE_TYPE_MIX;
  auto outcomes = RunBlocks(*kernel, 1, &args, sizeof(args), mix);  // one group: 2 vector cores
  ASSERT_EQ(outcomes.size(), 1u);
  ASSERT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
  for (uint32_t i = 0; i < m; ++i) {
    for (uint32_t j = 0; j < n; ++j) {
      ASSERT_EQ(c[i * n + j], Dot(a, b, n, k, i, j) + 1.0f) << i << "," << j;
    }
  }
}

// isPartialOutput: each Iterate is one baseK slice; the slices add up to the product,
// the bias in the first only.
TEST(MatmulTest, PartialOutputIteratesKSlices) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_MATMUL);
  ASSERT_NE(lib, nullptr);
  const uint32_t m = 64, n = 64, k = 128;
  const TCubeTiling tiling = Tiling(1, m, n, k, true, 64, 64, 32);
  ASSERT_EQ(tiling.baseK, 32);
  const uint32_t slices = k / 32;
  const std::vector<half> a = Matrix(m, k, 5), b = Matrix(k, n, 6);
  std::vector<float> bias(n), out(slices * m * n, -9.0f);
  for (uint32_t j = 0; j < n; ++j) bias[j] = static_cast<float>(j % 3);
  const NpudKernelInfo* kernel = FindOrFail(*lib, "matmul_partial_slices");
  ASSERT_NE(kernel, nullptr);
  struct {
    const void* a;
    const void* b;
    const void* bias;
    void* slices;
    TCubeTiling tiling;
  } args{a.data(), b.data(), bias.data(), out.data(), tiling};
  LaunchOptions cube;
  cube.core_type = NPUD_CORE_TYPE_CUBE;
  auto outcomes = RunBlocks(*kernel, 1, &args, sizeof(args), cube);
  ASSERT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
  for (uint32_t i = 0; i < m; ++i) {
    for (uint32_t j = 0; j < n; ++j) {
      float sum = 0;
      for (uint32_t s = 0; s < slices; ++s) sum += out[s * m * n + i * n + j];
      ASSERT_EQ(sum, Dot(a, b, n, k, i, j) + bias[j]) << i << "," << j;
    }
  }
  // The first slice is the first 32 products plus the bias.
  float first = bias[1];
  for (uint32_t p = 0; p < 32; ++p)
    first += static_cast<float>(a[p]) * static_cast<float>(b[p * n + 1]);
  EXPECT_EQ(out[1], first);
}

// A constant tiling configuration: no TCubeTiling at all.
TEST(MatmulTest, ConstantTilingNeedsNoTilingStruct) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_MATMUL);
  ASSERT_NE(lib, nullptr);
  const uint32_t m = 96, n = 128, k = 64;  // M not a multiple of the 64-row block
  const std::vector<half> a = Matrix(m, k, 7), b = Matrix(k, n, 8);
  std::vector<float> c(m * n, -9.0f);
  const NpudKernelInfo* kernel = FindOrFail(*lib, "matmul_constant");
  ASSERT_NE(kernel, nullptr);
  struct {
    const void* a;
    const void* b;
    void* c;
    int32_t m, n, k;
  } args{a.data(),
         b.data(),
         c.data(),
         static_cast<int32_t>(m),
         static_cast<int32_t>(n),
         static_cast<int32_t>(k)};
  LaunchOptions cube;
  cube.core_type = NPUD_CORE_TYPE_CUBE;
  auto outcomes = RunBlocks(*kernel, 1, &args, sizeof(args), cube);
  ASSERT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
  for (uint32_t i = 0; i < m; ++i) {
    for (uint32_t j = 0; j < n; ++j)
      ASSERT_EQ(c[i * n + j], Dot(a, b, n, k, i, j)) << i << "," << j;
  }
}

// Iterate<false> then GetTensorC<false> per block, in the iterateOrder CANN defines;
// the cube core of the group returns at REGIST_MATMUL_OBJ.
TEST(MatmulTest, AsyncIterateWalksBlocksInTheTilingsOrder) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_MATMUL);
  ASSERT_NE(lib, nullptr);
  const uint32_t m = 256, n = 128, k = 32;
  for (int32_t order : {0, 1}) {
    TCubeTiling tiling = Tiling(2, m, n, k, false, 64, 32, 32);
    ASSERT_EQ(tiling.singleCoreN, 64);
    ASSERT_EQ(tiling.singleCoreM, static_cast<int32_t>(m));
    tiling.iterateOrder = order;
    const std::vector<half> a = Matrix(m, k, 9), b = Matrix(k, n, 10);
    std::vector<float> c(m * n, -9.0f);
    std::vector<int32_t> ran(3, 0);
    const NpudKernelInfo* kernel = FindOrFail(*lib, "matmul_async_blocks");
    ASSERT_NE(kernel, nullptr);
    struct {
      const void* a;
      const void* b;
      void* c;
      void* ran;
      TCubeTiling tiling;
    } args{a.data(), b.data(), c.data(), ran.data(), tiling};
    LaunchOptions mix;
    mix.core_type = NPUD_CORE_TYPE_MIX;
    auto outcomes = RunBlocks(*kernel, 1, &args, sizeof(args), mix);
    ASSERT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
    EXPECT_EQ(ran, (std::vector<int32_t>{0, 1, 1}));
    for (uint32_t i = 0; i < m; ++i) {
      for (uint32_t j = 0; j < n; ++j) {
        ASSERT_EQ(c[i * n + j], Dot(a, b, n, k, i, j)) << "order " << order << " " << i << "," << j;
      }
    }
  }
}

// The host's optiling::TCubeTiling: accessors over the kernel's layout, its bytes,
// and SetShape's -1 for "the original shape".
TEST(MatmulTest, HostTilingClassCarriesTheKernelsBytes) {
  matmul_tiling::MultiCoreMatmulTiling api(
      *platform_ascendc::PlatformAscendCManager::GetInstance());
  api.SetDim(4);
  api.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  api.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  api.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  api.SetOrgShape(256, 512, 128);
  api.SetShape(-1, -1, 128);
  optiling::TCubeTiling host;
  ASSERT_EQ(api.GetTiling(host), 0);
  EXPECT_EQ(host.get_M(), 256);
  EXPECT_EQ(host.get_N(), 512);
  int32_t sm = 0, sn = 0, sk = 0;
  ASSERT_EQ(api.GetSingleShape(sm, sn, sk), 0);
  EXPECT_EQ(sm, host.get_singleCoreM());
  EXPECT_EQ(sn, host.get_singleCoreN());
  EXPECT_EQ(sk, 128);
  host.set_stepM(3);
  ASSERT_EQ(host.GetDataSize(), sizeof(TCubeTiling));
  TCubeTiling kernel_side;
  host.SaveToBuffer(&kernel_side, sizeof(kernel_side));
  EXPECT_EQ(kernel_side.stepM, 3);
  EXPECT_EQ(kernel_side.M, 256);
  EXPECT_EQ(kernel_side.singleCoreN, sn);
}

}  // namespace
}  // namespace npud::ascendc_test
