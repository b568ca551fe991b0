// The host matmul tiling (tiling/tiling_api.h): the splits CANN's algorithm makes
// for the shapes of asc-devkit's matmul examples, whose kernels depend on them,
// and refusals of bad input.
#include "tiling/tiling_api.h"

#include <gtest/gtest.h>

#include "tiling/platform/platform_ascendc.h"

namespace {

using matmul_tiling::CubeFormat;
using matmul_tiling::DataType;
using matmul_tiling::TPosition;

matmul_tiling::MultiCoreMatmulTiling HalfTiling(int32_t dim, int32_t m, int32_t n, int32_t k,
                                                TPosition c_pos) {
  matmul_tiling::MultiCoreMatmulTiling tiling(
      *platform_ascendc::PlatformAscendCManager::GetInstance("Ascend910B1"));
  tiling.SetDim(dim);
  tiling.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16, false);
  tiling.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16, false);
  tiling.SetCType(c_pos, CubeFormat::ND, DataType::DT_FLOAT);
  tiling.SetOrgShape(m, n, k);
  tiling.SetShape(m, n, k);
  return tiling;
}

TEST(MatmulTilingTest, SquareShapeOnTwoCoresSplitsM) {
  auto api = HalfTiling(2, 512, 512, 128, TPosition::GM);
  api.EnableBias(false);
  ASSERT_EQ(api.SetBufferSpace(-1, -1, -1), 0);
  TCubeTiling t;
  ASSERT_EQ(api.GetTiling(t), 0);
  EXPECT_EQ(t.usedCoreNum, 2);
  EXPECT_EQ(t.singleCoreM, 256);
  EXPECT_EQ(t.singleCoreN, 512);
  EXPECT_EQ(t.singleCoreK, 128);
  EXPECT_EQ(t.baseM, 128);
  EXPECT_EQ(t.baseN, 256);
  EXPECT_EQ(t.baseK, 64);
  EXPECT_EQ(t.depthA1, 4);
  EXPECT_EQ(t.depthB1, 4);
  EXPECT_EQ(t.stepM, 2);
  EXPECT_EQ(t.stepN, 2);
  EXPECT_EQ(t.stepKa, 2);
  EXPECT_EQ(t.iterateOrder, 0);
  EXPECT_EQ(t.shareL1Size, 196608);
  EXPECT_EQ(t.shareL0CSize, 131072);
}

TEST(MatmulTilingTest, NarrowShapeWithFixedSplitSplitsN) {
  auto api = HalfTiling(2, 512, 128, 128, TPosition::VECIN);
  api.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  api.EnableBias(true);
  ASSERT_EQ(api.SetFixSplit(128, 64, 128), 0);
  uint64_t ub = 0;
  platform_ascendc::PlatformAscendCManager::GetInstance()->GetCoreMemSize(
      platform_ascendc::CoreMemType::UB, ub);
  ASSERT_EQ(api.SetBufferSpace(-1, -1, static_cast<int32_t>(ub - 128 * 64 * 4)), 0);
  TCubeTiling t;
  ASSERT_EQ(api.GetTiling(t), 0);
  EXPECT_EQ(t.usedCoreNum, 2);
  EXPECT_EQ(t.singleCoreM, 512);
  EXPECT_EQ(t.singleCoreN, 64);
  EXPECT_EQ(t.baseM, 128);
  EXPECT_EQ(t.baseN, 64);
  EXPECT_EQ(t.baseK, 128);
  EXPECT_EQ(t.depthA1, 4);
  EXPECT_EQ(t.depthB1, 1);
  EXPECT_EQ(t.stepM, 4);
  EXPECT_EQ(t.stepN, 1);
  EXPECT_EQ(t.isBias, 1);
  EXPECT_EQ(t.shareL1Size, 147712);
  EXPECT_EQ(t.shareL0CSize, 32768);
}

TEST(MatmulTilingTest, BadInputIsRefused) {
  matmul_tiling::MultiCoreMatmulTiling api;
  TCubeTiling t;
  EXPECT_EQ(api.GetTiling(t), -1);  // no shape
  EXPECT_EQ(api.SetDim(0), -1);
  EXPECT_EQ(api.SetFixSplit(100, 64, 128), -1);  // not a multiple of 16
  EXPECT_EQ(api.SetFixSplit(128, 64, 0), -1);
  EXPECT_EQ(api.SetBufferSpace(1 << 30), -1);  // more L1 than there is
}

}  // namespace

namespace optiling {
BEGIN_TILING_DATA_DEF(NpudTestTilingData)
TILING_DATA_FIELD_DEF(uint32_t, length);
TILING_DATA_FIELD_DEF(uint16_t, tiles);
TILING_DATA_FIELD_DEF_ARR(uint32_t, 3, steps);
TILING_DATA_FIELD_DEF_STRUCT(SoftMaxTiling, softmax);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(NpudTestOp, NpudTestTilingData)
}  // namespace optiling

namespace {

// What a kernel declares for the same fields.
struct KernelSideTiling {
  uint32_t length;
  uint16_t tiles;
  uint32_t steps[3];
  SoftMaxTiling softmax;
};

TEST(TilingDataTest, SavedBytesAreTheKernelStruct) {
  optiling::NpudTestTilingData tiling;
  tiling.set_length(4096);
  tiling.set_tiles(8);
  const uint32_t steps[3] = {1, 2, 3};
  tiling.set_steps(steps);
  AscendC::SoftMaxTilingFunc(AscendC::TensorShape({320, 64}), sizeof(uint16_t), 1024,
                             tiling.softmax);
  ASSERT_EQ(tiling.GetDataSize(), sizeof(KernelSideTiling));
  KernelSideTiling kernel{};
  tiling.SaveToBuffer(&kernel, sizeof(kernel));
  EXPECT_EQ(kernel.length, 4096u);
  EXPECT_EQ(kernel.tiles, 8u);
  EXPECT_EQ(kernel.steps[2], 3u);
  EXPECT_EQ(kernel.softmax.srcM, 320u);
  EXPECT_EQ(kernel.softmax.srcK, 64u);
  EXPECT_EQ(kernel.softmax.outMaxK, 16u);  // one 32-byte block of half per row
  EXPECT_EQ(tiling.get_length(), 4096u);
}

}  // namespace

namespace {

TEST(NormalizationTilingTest, ShapesFoldIntoBsh) {
  AscendC::tiling::LayerNormTiling layer_norm;
  AscendC::GetLayerNormNDTilingInfo(AscendC::TensorShape({2, 3, 4, 64}), 4096, sizeof(float), false,
                                    layer_norm);
  EXPECT_EQ(layer_norm.bLength, 6u);
  EXPECT_EQ(layer_norm.sLength, 4u);
  EXPECT_EQ(layer_norm.hLength, 64u);
  EXPECT_EQ(layer_norm.meanVarSize, 24u);
  AscendC::tiling::RmsNormTiling rms_norm;
  ASSERT_TRUE(AscendC::GetRmsNormTilingInfo(AscendC::TensorShape({2, 8, 64}),
                                            AscendC::TensorShape({2, 8, 50}), 4096, sizeof(float),
                                            rms_norm));
  EXPECT_EQ(rms_norm.hLength, 64u);
  EXPECT_EQ(rms_norm.originalHLength, 50u);
  EXPECT_FLOAT_EQ(rms_norm.reciprocalOfHLength, 1.0f / 50);
}

}  // namespace
