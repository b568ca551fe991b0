// The image pre-processing (npud_ascendc/aipp.h), each case against a host reference
// written from the reference's text: crop, formats and swaps, the data type
// conversion formulas, padding modes 0 and 1, channel padding; and the parts npud does
// not simulate failing the block (aipp_kernels.cc).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "npud_ascendc/fp16.h"
#include "tests/ascendc/kernel_harness.h"

namespace npud::ascendc_test {
namespace {

enum Format : uint32_t { kYuv420sp = 0, kXrgb = 1, kRgb = 4, kYuv400 = 9 };

struct Case {
  Format format;
  uint32_t src_w, src_h;
  bool swap_rb = false, swap_uv = false, swap_ax = false, single_line = false;
  uint32_t padding_mode = 0;
  int32_t pad_value[4] = {0, 0, 0, 0};
  uint32_t mean[3] = {0, 0, 0};
  float min[3] = {0, 0, 0};
  float var[3] = {1, 1, 1};
  uint32_t c_pad_mode = 0;
  int32_t c_pad_value = 0;
  uint32_t horiz_size = 0, vert_size = 0, horiz_start = 0, vert_start = 0;
  uint32_t top = 0, bot = 0, left = 0, right = 0;
  bool csc = false;
};

uint32_t Bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, sizeof(b));
  return b;
}

std::vector<uint32_t> Params(const Case& c) {
  std::vector<uint32_t> q(32, 0);
  q[0] = c.format;
  q[1] = c.swap_rb;
  q[2] = c.swap_uv;
  q[3] = c.swap_ax;
  q[4] = c.single_line;
  q[5] = c.padding_mode;
  for (int i = 0; i < 4; ++i) q[6 + i] = static_cast<uint32_t>(c.pad_value[i]);
  for (int i = 0; i < 3; ++i) {
    q[10 + i] = c.mean[i];
    q[13 + i] = Bits(c.min[i]);
    q[16 + i] = Bits(c.var[i]);
  }
  q[19] = c.c_pad_mode;
  q[20] = static_cast<uint32_t>(c.c_pad_value);
  q[21] = c.horiz_size;
  q[22] = c.vert_size;
  q[23] = c.horiz_start;
  q[24] = c.vert_start;
  q[25] = c.src_w;
  q[26] = c.top;
  q[27] = c.bot;
  q[28] = c.left;
  q[29] = c.right;
  q[30] = c.csc;
  return q;
}

// The source planes: src0 (pixels of the format), src1 (YUV420SP's UV plane).
void MakeImage(const Case& c, std::vector<uint8_t>* src0, std::vector<uint8_t>* src1) {
  const uint32_t per_pixel = c.format == kRgb ? 3 : c.format == kXrgb ? 4 : 1;
  src0->resize(c.src_w * c.src_h * per_pixel);
  for (size_t i = 0; i < src0->size(); ++i) (*src0)[i] = static_cast<uint8_t>(i * 37 + 11);
  src1->assign(c.src_w * c.src_h / 2 + 2, 0);
  for (size_t i = 0; i < src1->size(); ++i) (*src1)[i] = static_cast<uint8_t>(i * 53 + 7);
}

// Channel ch (0..2) of source pixel (y, x): the formats' layouts from the reference
// (RGB888 and XRGB8888 interleaved, X dropped, moved from first to last by isSwapAX;
// YUV420SP's UV pairs shared by 2 x 2 pixels), then the swaps.
float Source(const Case& c, const std::vector<uint8_t>& s0, const std::vector<uint8_t>& s1,
             uint32_t y, uint32_t x, uint32_t ch) {
  switch (c.format) {
    case kYuv400:
      return s0[y * c.src_w + x];
    case kRgb: {
      const uint32_t from = c.swap_rb ? (ch == 0 ? 2 : ch == 2 ? 0 : 1) : ch;
      return s0[(y * c.src_w + x) * 3 + from];
    }
    case kXrgb: {
      uint32_t from = c.swap_rb ? (ch == 0 ? 2 : ch == 2 ? 0 : 1) : ch;
      if (c.swap_ax) from += 1;  // XRGB: R, G, B are bytes 1..3
      return s0[(y * c.src_w + x) * 4 + from];
    }
    case kYuv420sp: {
      if (ch == 0) return s0[y * c.src_w + x];
      const uint32_t uv = c.swap_uv ? 2 - ch : ch - 1;  // U first unless swapped
      return s1[(y / 2) * c.src_w + (x / 2) * 2 + uv];
    }
  }
  return 0;
}

template <class U>
std::vector<float> Expected(const Case& c, const std::vector<uint8_t>& s0,
                            const std::vector<uint8_t>& s1, uint32_t* c0_out) {
  const uint32_t channels = c.format == kYuv400 ? 1 : 3;
  const uint32_t c0 = c.c_pad_mode == 1 ? 4 : 32 / sizeof(U);
  const uint32_t rows = c.single_line ? 1 : c.vert_size;
  const uint32_t height = c.top + rows + c.bot, width = c.left + c.horiz_size + c.right;
  std::vector<float> out(height * width * c0);
  for (uint32_t h = 0; h < height; ++h) {
    for (uint32_t w = 0; w < width; ++w) {
      const bool inside =
          h >= c.top && h < c.top + rows && w >= c.left && w < c.left + c.horiz_size;
      // Mode 1 copies the nearest pixel of the crop.
      const int32_t y = std::clamp<int32_t>(static_cast<int32_t>(h) - static_cast<int32_t>(c.top),
                                            0, static_cast<int32_t>(rows) - 1);
      const int32_t x = std::clamp<int32_t>(static_cast<int32_t>(w) - static_cast<int32_t>(c.left),
                                            0, static_cast<int32_t>(c.horiz_size) - 1);
      for (uint32_t ch = 0; ch < c0; ++ch) {
        float v;
        if (ch >= channels) {
          v = static_cast<float>(c.c_pad_value);
        } else if (!inside && c.padding_mode == 0) {
          v = static_cast<float>(c.pad_value[ch]);
        } else {
          const float in = Source(c, s0, s1, c.vert_start + y, c.horiz_start + x, ch);
          if (sizeof(U) == 1) {
            v = std::min(127.0f, std::max(-128.0f, in - static_cast<float>(c.mean[ch])));
          } else {
            // The formula in float, rounded to half (the min and var are halves).
            const float min = static_cast<float>(half(c.min[ch]));
            const float var = static_cast<float>(half(c.var[ch]));
            v = static_cast<float>(half((in - static_cast<float>(c.mean[ch]) - min) * var));
          }
        }
        out[(h * width + w) * c0 + ch] = v;
      }
    }
  }
  *c0_out = c0;
  return out;
}

template <class U>
std::vector<BlockOutcome> Load(const Case& c, std::vector<float>* got, uint32_t need) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_AIPP);
  if (lib == nullptr) return {};
  std::vector<uint8_t> s0, s1;
  MakeImage(c, &s0, &s1);
  std::vector<uint32_t> q = Params(c);
  const uint32_t total = (need + 31) / 32 * 32;
  std::vector<U> out(total, U(-99));
  const bool int8 = sizeof(U) == 1;
  const NpudKernelInfo* kernel = FindOrFail(*lib, int8 ? "aipp_to_int8" : "aipp_to_half");
  if (kernel == nullptr) return {};
  std::vector<uint8_t> packed =
      PackBytes(npud::kernel::ArgLayout<uint8_t*, uint8_t*, U*, uint32_t*, uint32_t>::Size());
  npud::kernel::Pack(packed.data(), s0.data(), s1.data(), out.data(), q.data(), total);
  LaunchOptions options;
  options.core_type = NPUD_CORE_TYPE_CUBE;
  auto outcomes = RunBlocks(*kernel, 1, packed.data(), packed.size(), options);
  got->clear();
  for (uint32_t i = 0; i < need; ++i) got->push_back(static_cast<float>(out[i]));
  return outcomes;
}

template <class U>
void Check(const Case& c) {
  std::vector<uint8_t> s0, s1;
  MakeImage(c, &s0, &s1);
  uint32_t c0 = 0;
  const std::vector<float> want = Expected<U>(c, s0, s1, &c0);
  std::vector<float> got;
  auto outcomes = Load<U>(c, &got, static_cast<uint32_t>(want.size()));
  ASSERT_EQ(outcomes.size(), 1u);
  ASSERT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
  for (size_t i = 0; i < want.size(); ++i) {
    ASSERT_EQ(got[i], want[i]) << "element " << i << " (pixel " << i / c0 << ", channel " << i % c0
                               << ")";
  }
}

TEST(AippTest, Rgb888CropSwapToInt8WithConstantPadding) {
  Case c{kRgb, 8, 6};
  c.swap_rb = true;
  c.mean[0] = 10;
  c.mean[1] = 20;
  c.mean[2] = 30;  // 255 - 30 saturates to 127
  c.pad_value[0] = -5;
  c.pad_value[1] = -6;
  c.pad_value[2] = -7;
  c.c_pad_value = 9;
  c.horiz_size = 4;
  c.vert_size = 3;
  c.horiz_start = 2;
  c.vert_start = 1;
  c.left = 2;
  c.right = 1;
  Check<int8_t>(c);
}

TEST(AippTest, Yuv420spToHalfWithNormalisationAndEdgePadding) {
  Case c{kYuv420sp, 8, 6};
  c.swap_uv = true;
  c.mean[0] = 16;
  c.mean[1] = 128;
  c.mean[2] = 128;
  c.min[0] = 0.5f;
  c.min[1] = 1.0f;
  c.min[2] = 2.0f;
  c.var[0] = 1.0f / 255;
  c.var[1] = 0.5f;
  c.var[2] = 2.0f;
  c.padding_mode = 1;
  c.c_pad_mode = 1;  // 4 channels
  c.horiz_size = 4;
  c.vert_size = 4;
  c.horiz_start = 2;
  c.vert_start = 2;
  c.top = 1;
  c.bot = 2;
  c.left = 1;
  c.right = 1;
  Check<half>(c);
}

TEST(AippTest, XrgbWithTheXFirstAndASingleLine) {
  Case c{kXrgb, 6, 3};
  c.swap_ax = true;
  c.single_line = true;
  c.c_pad_value = 3;
  c.horiz_size = 6;
  c.vert_size = 2;  // ignored: one line
  c.horiz_start = 0;
  c.vert_start = 1;
  Check<half>(c);
}

TEST(AippTest, Yuv400ToInt8WithRowsOfTheEdge) {
  Case c{kYuv400, 6, 4};
  c.padding_mode = 1;
  c.mean[0] = 100;
  c.horiz_size = 4;
  c.vert_size = 2;
  c.horiz_start = 2;
  c.vert_start = 1;
  c.top = 2;
  c.bot = 1;
  Check<int8_t>(c);
}

TEST(AippTest, WhatIsNotSimulatedFailsTheBlock) {
  Case c{kRgb, 8, 6};
  c.horiz_size = 4;
  c.vert_size = 2;
  c.csc = true;
  std::vector<float> got;
  auto outcomes = Load<int8_t>(c, &got, 32);
  ASSERT_EQ(outcomes.size(), 1u);
  EXPECT_TRUE(outcomes[0].trapped);
  EXPECT_NE(outcomes[0].trap_message.find("colour space"), std::string::npos)
      << outcomes[0].trap_message;
  c.csc = false;
  c.padding_mode = 2;
  outcomes = Load<int8_t>(c, &got, 32 * 8);
  ASSERT_EQ(outcomes.size(), 1u);
  EXPECT_TRUE(outcomes[0].trapped);
  EXPECT_NE(outcomes[0].trap_message.find("padding mode 2"), std::string::npos)
      << outcomes[0].trap_message;
}

}  // namespace
}  // namespace npud::ascendc_test
