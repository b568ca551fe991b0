// The advanced Matmul API (lib/matmul_intf.h) with tilings from the host tiling API:
// a cube kernel's IterateAll with bias, and a mix kernel's vector cores iterating base
// blocks through the UB, both against a host golden.
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
  const NpudKernelInfo* kernel = FindOrFail(*lib, "matmul_all");
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
      ASSERT_EQ(c[i * n + j], Dot(a, b, n, k, i, j) + bias[j]) << i << "," << j;
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

}  // namespace
}  // namespace npud::ascendc_test
