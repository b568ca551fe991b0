// The host scratch sizes of Digamma, Lgamma and FasterGeluV2
// (tiling/gamma_gelu_tmp_size.h): ordered, and room for the float intermediates.
#include <cstdint>

#include <gtest/gtest.h>

#include "tiling/tiling_api.h"

namespace {

TEST(GammaGeluTilingTest, ScratchSizesHoldTheIntermediates) {
  const AscendC::TensorShape shape({1024});
  uint32_t max_value = 0, min_value = 0;
  AscendC::GetDigammaMaxMinTmpSize(shape, 2, false, max_value, min_value);
  EXPECT_GE(max_value, 1024u * sizeof(float));
  EXPECT_GE(max_value, min_value);
  EXPECT_GT(min_value, 0u);
  AscendC::GetLgammaMaxMinTmpSize(shape, 4, false, max_value, min_value);
  EXPECT_GE(max_value, 1024u * sizeof(float));
  EXPECT_GE(max_value, min_value);
  AscendC::GetGeluMaxMinTmpSize(shape, 2, max_value, min_value);
  EXPECT_EQ(max_value, AscendC::GetGeluMaxTmpSize(shape, 2));
  EXPECT_EQ(min_value, AscendC::GetGeluMinTmpSize(shape, 2));
}

}  // namespace
