// The Matmul family beyond plain ND GM operands (kernels/matmul_family_kernels.cc),
// each against a host reference: batches in BSNGD and NORMAL layouts, dequantised
// int8 products, a CopyA1 callback, the upper-triangular policy, sparse B, NZ and TSCM
// operands, ND_ALIGN and kernel-managed L0C outputs, and the tensor operators.
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
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

template <class T>
uint8_t* Gm(std::vector<T>& v) {
  return reinterpret_cast<uint8_t*>(v.data());
}

// Runs cube kernel `name` of the family's library on one block; true if it did not trap.
template <class... A>
bool RunCube(const std::string& name, A... args) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_MATMUL_FAMILY);
  if (lib == nullptr) return false;
  const NpudKernelInfo* kernel = FindOrFail(*lib, name);
  if (kernel == nullptr) return false;
  std::vector<uint8_t> packed = PackBytes(npud::kernel::ArgLayout<A...>::Size());
  npud::kernel::Pack(packed.data(), args...);
  LaunchOptions cube;
  cube.core_type = NPUD_CORE_TYPE_CUBE;
  auto outcomes = RunBlocks(*kernel, 1, packed.data(), packed.size(), cube);
  EXPECT_EQ(outcomes.size(), 1u);
  if (outcomes.empty()) return false;
  EXPECT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
  return !outcomes[0].trapped;
}

TCubeTiling Tiling(int32_t m, int32_t n, int32_t k, DataType in, DataType out, int32_t base_m,
                   int32_t base_n, bool trans_b = false,
                   const std::function<void(matmul_tiling::MultiCoreMatmulTiling&)>& more = {}) {
  matmul_tiling::MultiCoreMatmulTiling api(
      *platform_ascendc::PlatformAscendCManager::GetInstance());
  api.SetDim(1);
  api.SetAType(TPosition::GM, CubeFormat::ND, in);
  api.SetBType(TPosition::GM, CubeFormat::ND, in, trans_b);
  api.SetCType(TPosition::GM, CubeFormat::ND, out);
  api.SetOrgShape(m, n, k);
  api.SetShape(m, n, k);
  api.SetFixSplit(base_m, base_n, -1);
  if (more) more(api);
  TCubeTiling t;
  EXPECT_EQ(api.GetTiling(t), 0);
  return t;
}

std::vector<half> Halves(size_t count, int seed) {
  std::vector<half> v(count);
  for (size_t i = 0; i < count; ++i) v[i] = half(static_cast<int>((i * 7 + seed) % 9) - 4);
  return v;
}

TEST(MatmulFamilyTest, IterateBatchWalksBsngdBatches) {
  const int32_t m = 32, n = 48, k = 32, g = 3;
  const TCubeTiling tiling =
      Tiling(m, n, k, DataType::DT_FLOAT16, DataType::DT_FLOAT, 16, 16, true, [&](auto& api) {
        api.SetALayout(1, m, 1, g, k);
        api.SetBLayout(1, n, 1, g, k);
        api.SetCLayout(1, m, 1, g, n);
        api.SetBatchNum(g);
      });
  ASSERT_EQ(tiling.ALayoutInfoG, g);
  ASSERT_EQ(tiling.CLayoutInfoS2, n);
  std::vector<half> a = Halves(size_t(m) * g * k, 1), b = Halves(size_t(n) * g * k, 2);
  std::vector<float> c(size_t(m) * g * n, -9.0f);
  ASSERT_TRUE(RunCube("mm_batch_bsngd", Gm(a), Gm(b), Gm(c), tiling, uint32_t(g)));
  for (int32_t h = 0; h < g; ++h) {
    for (int32_t s = 0; s < m; ++s) {
      for (int32_t j = 0; j < n; ++j) {
        float sum = 0;
        for (int32_t d = 0; d < k; ++d) {
          sum += float(a[(size_t(s) * g + h) * k + d]) * float(b[(size_t(j) * g + h) * k + d]);
        }
        ASSERT_EQ(c[(size_t(s) * g + h) * n + j], sum) << h << " " << s << "," << j;
      }
    }
  }
}

// One A for two B batches, one bias row for both.
TEST(MatmulFamilyTest, IterateBatchBroadcastsNormalBatches) {
  const int32_t m = 32, n = 32, k = 32;
  matmul_tiling::BatchMatmulTiling api(*platform_ascendc::PlatformAscendCManager::GetInstance());
  api.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  api.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  api.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  api.SetOrgShape(m, n, k);
  api.SetShape(m, n, k);
  api.EnableBias(true);
  ASSERT_EQ(api.SetBatchInfoForNormal(1, 2, m, n, k), 0);
  TCubeTiling tiling;
  ASSERT_EQ(api.GetTiling(tiling), 0);
  EXPECT_EQ(tiling.BatchNum, 2);
  std::vector<half> a = Halves(size_t(m) * k, 3), b = Halves(2 * size_t(k) * n, 4);
  std::vector<float> bias(n), c(2 * size_t(m) * n, -9.0f);
  for (int32_t j = 0; j < n; ++j) bias[j] = float(j % 4);
  ASSERT_TRUE(
      RunCube("mm_batch_normal", Gm(a), Gm(b), Gm(bias), Gm(c), tiling, uint32_t(1), uint32_t(2)));
  for (int32_t batch = 0; batch < 2; ++batch) {
    for (int32_t i = 0; i < m; ++i) {
      for (int32_t j = 0; j < n; ++j) {
        float sum = bias[j];
        for (int32_t p = 0; p < k; ++p) {
          sum += float(a[size_t(i) * k + p]) * float(b[(size_t(batch) * k + p) * n + j]);
        }
        ASSERT_EQ(c[(size_t(batch) * m + i) * n + j], sum) << batch << " " << i << "," << j;
      }
    }
  }
}

uint64_t Word(float scale) {
  uint32_t bits;
  std::memcpy(&bits, &scale, sizeof(bits));
  return bits & 0xFFFFE000u;
}

TEST(MatmulFamilyTest, QuantScalarAndVectorDequantiseToHalf) {
  const int32_t m = 32, n = 32, k = 64;
  const TCubeTiling tiling = Tiling(m, n, k, DataType::DT_INT8, DataType::DT_FLOAT16, 16, 16);
  std::vector<int8_t> a(size_t(m) * k), b(size_t(k) * n);
  for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<int8_t>(int(i * 5 % 11) - 5);
  for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<int8_t>(int(i * 3 % 7) - 3);
  const float scales[] = {0.5f, 0.25f, 2.0f};
  for (uint32_t vector : {0u, 1u}) {
    std::vector<uint64_t> words(n);
    for (int32_t j = 0; j < n; ++j) words[j] = Word(vector != 0 ? scales[j % 3] : 0.25f);
    std::vector<half> c(size_t(m) * n, half(-9.0f));
    ASSERT_TRUE(RunCube("mm_dequant", Gm(a), Gm(b), Gm(c), Gm(words), tiling, vector));
    for (int32_t i = 0; i < m; ++i) {
      for (int32_t j = 0; j < n; ++j) {
        int32_t sum = 0;
        for (int32_t p = 0; p < k; ++p) sum += a[size_t(i) * k + p] * b[size_t(p) * n + j];
        const float scale = vector != 0 ? scales[j % 3] : 0.25f;
        ASSERT_EQ(float(c[size_t(i) * n + j]), float(half(float(sum) * scale)))
            << vector << " " << i << "," << j;
      }
    }
  }
}

// The CopyA1 callback loads A's blocks from another matrix: C is that one times B.
TEST(MatmulFamilyTest, CopyA1CallbackSuppliesTheABlocks) {
  const int32_t m = 64, n = 32, k = 64;
  const TCubeTiling tiling = Tiling(m, n, k, DataType::DT_FLOAT16, DataType::DT_FLOAT, 32, 32,
                                    false, [](auto& api) { api.SetFixSplit(32, 32, 32); });
  ASSERT_EQ(tiling.baseK, 32);
  std::vector<half> a(size_t(m) * k, half(100.0f)), other(size_t(m) * k),
      b = Halves(size_t(k) * n, 6);
  // Not symmetric in (row, column), so that a transposed tile would show.
  for (int32_t i = 0; i < m; ++i)
    for (int32_t p = 0; p < k; ++p)
      other[size_t(i) * k + p] = half(float((i * 3 + p * 5) % 11) - 5);
  std::vector<float> c(size_t(m) * n, -9.0f);
  ASSERT_TRUE(RunCube("mm_copy_a_callback", Gm(a), Gm(other), Gm(b), Gm(c), tiling));
  for (int32_t i = 0; i < m; ++i) {
    for (int32_t j = 0; j < n; ++j) {
      float sum = 0;
      for (int32_t p = 0; p < k; ++p)
        sum += float(other[size_t(i) * k + p]) * float(b[size_t(p) * n + j]);
      ASSERT_EQ(c[size_t(i) * n + j], sum) << i << "," << j;
    }
  }
}

TEST(MatmulFamilyTest, UpperTrianglePolicyLeavesLowerBlocks) {
  const int32_t m = 64, n = 64, k = 32;
  const TCubeTiling tiling = Tiling(m, n, k, DataType::DT_FLOAT16, DataType::DT_FLOAT, 32, 32);
  std::vector<half> a = Halves(size_t(m) * k, 7), b = Halves(size_t(k) * n, 8);
  std::vector<float> c(size_t(m) * n, -9.0f);
  ASSERT_TRUE(RunCube("mm_triangle_upper", Gm(a), Gm(b), Gm(c), tiling));
  for (int32_t i = 0; i < m; ++i) {
    for (int32_t j = 0; j < n; ++j) {
      float sum = 0;
      for (int32_t p = 0; p < k; ++p)
        sum += float(a[size_t(i) * k + p]) * float(b[size_t(p) * n + j]);
      const bool lower = i / 32 > j / 32;
      ASSERT_EQ(c[size_t(i) * n + j], lower ? -9.0f : sum) << i << "," << j;
    }
  }
}

// Sparse B: every group of four K values of a row of B has two non-zeros, stored densely
// with their positions as 2-bit indices (an N x K/8 byte matrix in NZ).
TEST(MatmulFamilyTest, SparseBExpandsByItsIndices) {
  const int32_t m = 16, n = 32, k = 32;
  const TCubeTiling tiling = Tiling(m, n, k, DataType::DT_INT8, DataType::DT_INT32, 16, 16, true,
                                    [](auto& api) { api.SetSparse(true); });
  std::vector<int8_t> a(size_t(m) * k), dense(size_t(n) * k / 2);
  for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<int8_t>(int(i * 5 % 9) - 4);
  std::vector<int8_t> full(size_t(n) * k, 0);  // the sparse B, N x K
  // N x K/8 bytes in NZ: fractals of 16 rows x 8 bytes (here one column of them).
  std::vector<uint8_t> index(size_t(n) * 8);
  for (int32_t row = 0; row < n; ++row) {
    for (int32_t group = 0; group < k / 4; ++group) {
      const int32_t p1 = (row + group) % 3, p2 = p1 + 1 + (row * 3 + group) % (3 - p1);
      const int8_t v1 = static_cast<int8_t>(row % 5 + 1),
                   v2 = static_cast<int8_t>(-(group % 4) - 1);
      full[size_t(row) * k + group * 4 + p1] = v1;
      full[size_t(row) * k + group * 4 + p2] = v2;
      dense[size_t(row) * k / 2 + group * 2] = v1;
      dense[size_t(row) * k / 2 + group * 2 + 1] = v2;
      const int32_t d = group * 2;  // the 2-bit indices number d and d + 1 of the row
      const int32_t byte = d / 4;
      uint8_t& packed = index[((byte / 8) * n + row) * 8 + byte % 8];
      packed |= static_cast<uint8_t>(p1 << (2 * (d % 4)));
      packed |= static_cast<uint8_t>((p2 - 1) << (2 * ((d + 1) % 4)));
    }
  }
  std::vector<int32_t> c(size_t(m) * n, -9);
  ASSERT_TRUE(RunCube("mm_sparse", Gm(a), Gm(dense), Gm(index), Gm(c), tiling));
  for (int32_t i = 0; i < m; ++i) {
    for (int32_t j = 0; j < n; ++j) {
      int32_t sum = 0;
      for (int32_t p = 0; p < k; ++p) sum += a[size_t(i) * k + p] * full[size_t(j) * k + p];
      ASSERT_EQ(c[size_t(i) * n + j], sum) << i << "," << j;
    }
  }
}

size_t Nz(size_t r, size_t c, size_t rows, size_t c0) {
  return ((c / c0) * rows + r) * c0 + c % c0;
}

TEST(MatmulFamilyTest, TscmNzAAndNzC) {
  const int32_t m = 32, n = 32, k = 32;
  const TCubeTiling tiling =
      Tiling(m, n, k, DataType::DT_FLOAT16, DataType::DT_FLOAT, 16, 16, false, [](auto& api) {
        api.SetAType(TPosition::TSCM, CubeFormat::NZ, DataType::DT_FLOAT16);
        api.SetCType(TPosition::GM, CubeFormat::NZ, DataType::DT_FLOAT);
      });
  std::vector<half> a = Halves(size_t(m) * k, 9), a_nz(a.size()), b = Halves(size_t(k) * n, 10);
  for (int32_t i = 0; i < m; ++i)
    for (int32_t p = 0; p < k; ++p) a_nz[Nz(i, p, m, 16)] = a[size_t(i) * k + p];
  std::vector<float> c_nz(size_t(m) * n, -9.0f);
  ASSERT_TRUE(RunCube("mm_tscm_nz", Gm(a_nz), Gm(b), Gm(c_nz), tiling));
  for (int32_t i = 0; i < m; ++i) {
    for (int32_t j = 0; j < n; ++j) {
      float sum = 0;
      for (int32_t p = 0; p < k; ++p)
        sum += float(a[size_t(i) * k + p]) * float(b[size_t(p) * n + j]);
      ASSERT_EQ(c_nz[Nz(i, j, m, 16)], sum) << i << "," << j;
    }
  }
}

TEST(MatmulFamilyTest, NdAlignPadsRowsTo32Bytes) {
  const int32_t m = 16, n = 20, k = 16, ld = 24;  // 20 floats padded to 24
  const TCubeTiling tiling = Tiling(m, n, k, DataType::DT_FLOAT16, DataType::DT_FLOAT, 16, 32);
  std::vector<half> a = Halves(size_t(m) * k, 11), b = Halves(size_t(k) * n, 12);
  std::vector<float> c(size_t(m) * ld, -9.0f);
  ASSERT_TRUE(RunCube("mm_nd_align", Gm(a), Gm(b), Gm(c), tiling));
  for (int32_t i = 0; i < m; ++i) {
    for (int32_t j = 0; j < ld; ++j) {
      float sum = 0;
      for (int32_t p = 0; j < n && p < k; ++p)
        sum += float(a[size_t(i) * k + p]) * float(b[size_t(p) * n + j]);
      ASSERT_EQ(c[size_t(i) * ld + j], j < n ? sum : -9.0f) << i << "," << j;
    }
  }
}

TEST(MatmulFamilyTest, IterateIntoTheKernelsL0CIsNz) {
  const int32_t m = 64, n = 64, k = 32;
  const TCubeTiling tiling = Tiling(m, n, k, DataType::DT_FLOAT16, DataType::DT_FLOAT, 32, 32);
  ASSERT_EQ(tiling.iterateOrder, 0);
  std::vector<half> a = Halves(size_t(m) * k, 13), b = Halves(size_t(k) * n, 14);
  std::vector<float> c(size_t(m) * n, -9.0f);
  ASSERT_TRUE(RunCube("mm_own_co1", Gm(a), Gm(b), Gm(c), tiling));
  for (int32_t i = 0; i < m; ++i) {
    for (int32_t j = 0; j < n; ++j) {
      float sum = 0;
      for (int32_t p = 0; p < k; ++p)
        sum += float(a[size_t(i) * k + p]) * float(b[size_t(p) * n + j]);
      ASSERT_EQ(c[size_t(i) * n + j], sum) << i << "," << j;
    }
  }
}

TEST(MatmulFamilyTest, Int4OperandsAccumulateExactly) {
  const int32_t m = 32, n = 32, k = 64;
  const TCubeTiling tiling = Tiling(m, n, k, DataType::DT_INT4, DataType::DT_INT32, 16, 16);
  std::vector<int32_t> va(size_t(m) * k), vb(size_t(k) * n);
  for (size_t i = 0; i < va.size(); ++i) va[i] = int(i * 5 % 16) - 8;
  for (size_t i = 0; i < vb.size(); ++i) vb[i] = int(i * 3 % 15) - 7;
  const auto pack = [](const std::vector<int32_t>& v) {
    std::vector<uint8_t> out(v.size() / 2);
    for (size_t i = 0; i < v.size(); i += 2)
      out[i / 2] = uint8_t((v[i] & 0xF) | ((v[i + 1] & 0xF) << 4));
    return out;
  };
  std::vector<uint8_t> a = pack(va), b = pack(vb);
  std::vector<int32_t> c(size_t(m) * n, -9);
  ASSERT_TRUE(RunCube("mm_int4", Gm(a), Gm(b), Gm(c), tiling));
  for (int32_t i = 0; i < m; ++i) {
    for (int32_t j = 0; j < n; ++j) {
      int32_t sum = 0;
      for (int32_t p = 0; p < k; ++p) sum += va[size_t(i) * k + p] * vb[size_t(p) * n + j];
      ASSERT_EQ(c[size_t(i) * n + j], sum) << i << "," << j;
    }
  }
}

TEST(MatmulFamilyTest, ChannelSplitNzCWithRelu) {
  const int32_t m = 32, n = 32, k = 32;
  const TCubeTiling tiling = Tiling(m, n, k, DataType::DT_FLOAT16, DataType::DT_FLOAT, 16, 16);
  std::vector<half> a = Halves(size_t(m) * k, 15), b = Halves(size_t(k) * n, 16);
  std::vector<float> c_nz(size_t(m) * n, -9.0f);
  ASSERT_TRUE(RunCube("mm_split_relu", Gm(a), Gm(b), Gm(c_nz), tiling));
  int32_t negatives = 0;
  for (int32_t i = 0; i < m; ++i) {
    for (int32_t j = 0; j < n; ++j) {
      float sum = 0;
      for (int32_t p = 0; p < k; ++p)
        sum += float(a[size_t(i) * k + p]) * float(b[size_t(p) * n + j]);
      negatives += sum < 0;
      ASSERT_EQ(c_nz[Nz(i, j, m, 8)], sum < 0 ? 0.0f : sum) << i << "," << j;
    }
  }
  EXPECT_GT(negatives, 0);  // the data has results for ReLU to clip
}

TEST(MatmulFamilyTest, TensorOperatorsRunOverWholeTensors) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_MATMUL_FAMILY);
  ASSERT_NE(lib, nullptr);
  const uint32_t n = 64;
  std::vector<float> x(n), y(n), z(n, -9.0f);
  for (uint32_t i = 0; i < n; ++i) {
    x[i] = float(i);
    y[i] = float(i % 5) - 2;
  }
  const std::vector<float> x0 = x;
  auto outcomes = Launch(*lib, "tensor_operators", 1, Gm(x), Gm(y), Gm(z), n);
  ASSERT_EQ(outcomes.size(), 1u);
  ASSERT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
  for (uint32_t i = 0; i < n; ++i) {
    ASSERT_EQ(z[i], x0[i] + y[i]) << i;
    ASSERT_EQ(x[i], (x0[i] + y[i]) * y[i]) << i;
  }
}

}  // namespace
}  // namespace npud::ascendc_test
