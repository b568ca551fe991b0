// The host side of the advanced APIs of issue 44: the tilings record the shapes the
// kernels read (SoftmaxGrad, LayerNormGrad/-Beta, Pad/UnPad), the scratch sizes leave
// room, and TensorDataType has ge::DataType's values.
#include <gtest/gtest.h>

#include "tiling/tiling_api.h"

namespace {

TEST(AdvancedTilingTest, SoftmaxGradTilingHasTheRows) {
  AscendC::TensorShape shape({3, 5, 64});
  optiling::SoftMaxTiling t;
  AscendC::SoftMaxGradTilingFunc(shape, sizeof(float), 4096, t, true);
  EXPECT_EQ(t.srcM, 15u);
  EXPECT_EQ(t.srcK, 64u);
  EXPECT_EQ(t.outMaxK, 8u);
  EXPECT_GE(AscendC::GetSoftMaxGradMaxTmpSize(shape, 4, false, false),
            AscendC::GetSoftMaxGradMinTmpSize(shape, 4, false, false));
  EXPECT_GT(AscendC::GetSoftMaxGradMinTmpSize(shape, 4, true, false), 0u);
}

TEST(AdvancedTilingTest, LayerNormGradTilingsHaveBsh) {
  AscendC::TensorShape shape({2, 32, 16});
  optiling::LayerNormGradTiling grad;
  AscendC::GetLayerNormGradNDTilingInfo(shape, 1024, 4, false, grad);
  EXPECT_EQ(grad.bLength, 2u);
  EXPECT_EQ(grad.sLength, 32u);
  EXPECT_EQ(grad.hLength, 16u);
  EXPECT_EQ(grad.stackBufferSize, 1024u);
  AscendC::tiling::LayerNormGradBetaTiling beta;
  AscendC::GetLayerNormGradBetaNDTilingInfo(shape, 1024, 4, false, beta);
  EXPECT_EQ(beta.bLength, 2u);
  EXPECT_EQ(beta.sLength, 32u);
  EXPECT_EQ(beta.hLength, 16u);
  EXPECT_EQ(beta.bshLength, 1024u);
  uint32_t max_value = 0, min_value = 0;
  AscendC::GetLayerNormGradMaxMinTmpSize(shape, 4, false, max_value, min_value);
  EXPECT_GE(max_value, min_value);
  EXPECT_GT(min_value, 0u);
  AscendC::GetLayerNormGradBetaMaxMinTmpSize(shape, 4, false, max_value, min_value);
  EXPECT_GE(max_value, min_value);
}

TEST(AdvancedTilingTest, PadAndUnPadTilingsHaveTheShape) {
  optiling::PadTiling pad;
  AscendC::PadTilingFunc(AscendC::TensorShape({16, 32}), AscendC::TensorShape({16, 29}), 2048, 4,
                         pad);
  EXPECT_EQ(pad.srcHeight, 16u);
  EXPECT_EQ(pad.srcWidth, 32u);
  EXPECT_EQ(pad.srcOriWidth, 29u);
  AscendC::tiling::UnPadTiling unpad;
  AscendC::UnPadTilingFunc(AscendC::TensorShape({2, 4, 8}), 2048, 4, unpad);
  EXPECT_EQ(unpad.srcHeight, 8u);
  EXPECT_EQ(unpad.srcWidth, 8u);
  // The tiling is the kernel's struct, field for field (CANN's order).
  EXPECT_EQ(sizeof(AscendC::tiling::UnPadTiling), 8 * sizeof(uint32_t));
  EXPECT_EQ(sizeof(AscendC::tiling::PadTiling), 26 * sizeof(uint32_t));
}

TEST(AdvancedTilingTest, QuantAndDropOutScratchSizes) {
  EXPECT_EQ(static_cast<int>(AscendC::TensorDataType::DT_FLOAT16), 1);
  EXPECT_EQ(static_cast<int>(AscendC::TensorDataType::DT_INT8), 2);
  EXPECT_EQ(static_cast<int>(AscendC::TensorDataType::DT_BF16), 27);
  AscendC::TensorShape src({8, 128}), scale({128});
  uint32_t max_value = 0, min_value = 0;
  AscendC::GetAscendAntiQuantMaxMinTmpSize(src, scale, false, AscendC::TensorDataType::DT_INT8,
                                           AscendC::TensorDataType::DT_FLOAT16, max_value,
                                           min_value);
  EXPECT_GE(max_value, min_value);
  EXPECT_GT(min_value, 0u);
  EXPECT_EQ(
      AscendC::GetAscendAntiQuantMinTmpSize(src, scale, false, AscendC::TensorDataType::DT_INT8,
                                            AscendC::TensorDataType::DT_FLOAT16),
      min_value);
  AscendC::GetDropOutMaxMinTmpSize(src, 4, false, max_value, min_value);
  EXPECT_GE(max_value, min_value);
  EXPECT_EQ(AscendC::GetDropOutMaxTmpSize(src, 4, false), max_value);
}

}  // namespace
