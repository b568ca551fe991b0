// The LayerNorm tiling family (tiling/normalization_tiling.h) as the reference's
// LayerNorm-Tiling pages call it: both LayerNorm tilings (the [B, S, H] one, under its
// older spelling too, and the [A, R] one of the rstd form) and their scratch sizes.
#include <cstdint>

#include <gtest/gtest.h>

#include "tiling/normalization_tiling.h"

namespace {

TEST(LayerNormTilingTest, BshTilingUnderBothSpellings) {
  const AscendC::TensorShape shape({2, 8, 64});
  optiling::LayerNormTiling a, b;
  AscendC::GetLayerNormNDTilingInfo(shape, 2048, sizeof(float), false, a);
  AscendC::GetLayerNormNDTillingInfo(shape, 2048, sizeof(float), false, b);
  EXPECT_EQ(a.bLength, 2u);
  EXPECT_EQ(a.sLength, 8u);
  EXPECT_EQ(a.hLength, 64u);
  EXPECT_EQ(a.inputXSize, 2u * 8 * 64);
  EXPECT_EQ(a.meanVarSize, 16u);
  EXPECT_FLOAT_EQ(a.lastDimValueBack, 1.0f / 64);
  EXPECT_EQ(a.tmpBufSize, 2048u);
  EXPECT_EQ(b.bLength, a.bLength);
  EXPECT_EQ(b.sLength, a.sLength);
  EXPECT_EQ(b.hLength, a.hLength);
  EXPECT_EQ(b.inputXSize, a.inputXSize);
  EXPECT_EQ(b.tmpBufSize, a.tmpBufSize);
}

TEST(LayerNormTilingTest, RstdFormTilesRowsOfTheLastAxis) {
  optiling::LayerNormSeparateTiling t;
  AscendC::GetLayerNormNDTilingInfo(AscendC::TensorShape({3, 5, 32}), 4096, sizeof(float), false,
                                    true, t);
  EXPECT_EQ(t.aLength, 15u);
  EXPECT_EQ(t.rLength, 32u);
  EXPECT_EQ(t.inputXSize, 15u * 32);
  EXPECT_EQ(t.meanVarSize, 15u);
  EXPECT_FLOAT_EQ(t.rValueBack, 1.0f / 32);
}

TEST(LayerNormTilingTest, ScratchSizesAreOrdered) {
  const AscendC::TensorShape shape({4, 16, 128});
  uint32_t max_value = 0, min_value = 0;
  AscendC::GetLayerNormMaxMinTmpSize(shape, sizeof(float), false, max_value, min_value);
  EXPECT_GT(min_value, 0u);
  EXPECT_GE(max_value, min_value);
  AscendC::GetLayerNormMaxMinTmpSize(shape, sizeof(float), false, true, false, max_value,
                                     min_value);
  EXPECT_GT(min_value, 0u);
  EXPECT_GE(max_value, min_value);
}

}  // namespace
