// Memory management and data movement around the vector core (tbuf_pool.h,
// onchip_buffers.h, data_copy_slice.h, list_tensor.h, Cast to int4b_t, the cache
// fence of sys_var.h): the kernels of resource_kernels.cc against host references.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include "npud_ascendc/fp16.h"
#include "tests/ascendc/kernel_harness.h"

namespace npud::ascendc_test {
namespace {

void ExpectClean(const std::vector<BlockOutcome>& outcomes, size_t blocks) {
  ASSERT_EQ(outcomes.size(), blocks);
  for (const BlockOutcome& o : outcomes) ASSERT_FALSE(o.trapped) << o.trap_message;
}

TEST(ResourceTest, BufPoolsHandOutSharedMemoryStageByStage) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_RESOURCE);
  ASSERT_NE(lib, nullptr);
  const uint32_t n = 256;
  std::vector<float> x(n), y(n), z(3 * n, -1);
  for (uint32_t i = 0; i < n; ++i) {
    x[i] = 0.5f * static_cast<float>(i);
    y[i] = 3.0f - static_cast<float>(i);
  }
  ExpectClean(Launch(*lib, "pool_stages", 1, x.data(), y.data(), z.data(), n), 1);
  for (uint32_t i = 0; i < n; ++i) {
    ASSERT_EQ(z[i], x[i] + y[i]) << i;
    ASSERT_EQ(z[n + i], x[i]) << "the shared pool does not alias, element " << i;
    ASSERT_EQ(z[2 * n + i], 2 * x[i]) << "the custom pool, element " << i;
  }
}

TEST(ResourceTest, RawL1TensorsAliasTheTPipesBuffers) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_RESOURCE);
  ASSERT_NE(lib, nullptr);
  const uint32_t n = 64;
  std::vector<half> x(n), out(n, half(-1));
  for (uint32_t i = 0; i < n; ++i) x[i] = half(static_cast<float>(i) - 7.0f);
  LaunchOptions cube;
  cube.core_type = NPUD_CORE_TYPE_CUBE;
  std::vector<uint8_t> args = PackBytes(npud::kernel::ArgLayout<half*, half*, uint32_t>::Size());
  npud::kernel::Pack(args.data(), x.data(), out.data(), n);
  const NpudKernelInfo* kernel = FindOrFail(*lib, "l1_alias");
  ASSERT_NE(kernel, nullptr);
  ExpectClean(RunBlocks(*kernel, 1, args.data(), args.size(), cube), 1);
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(static_cast<float>(out[i]), static_cast<float>(x[i]));
}

TEST(ResourceTest, SliceCopyMovesTheReferencesExample) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_RESOURCE);
  ASSERT_NE(lib, nullptr);
  std::vector<float> src(3 * 87), dst(96, -1);
  for (uint32_t i = 0; i < src.size(); ++i) src[i] = static_cast<float>(i);
  ExpectClean(Launch(*lib, "slice_copy", 1, src.data(), dst.data()), 1);
  // Rows 0 and 2, bursts [16, 40) and [47, 71) of each.
  for (uint32_t r = 0; r < 2; ++r) {
    for (uint32_t i = 0; i < 48; ++i) {
      const uint32_t col = i < 24 ? 16 + i : 47 + (i - 24);
      ASSERT_EQ(dst[r * 48 + i], src[(r * 2) * 87 + col]) << "row " << r << " element " << i;
    }
  }
}

TEST(ResourceTest, ListTensorDescReadsTheLayout) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_RESOURCE);
  ASSERT_NE(lib, nullptr);
  std::vector<int32_t> t0 = {11, 12, 13}, t1 = {21, 22};
  // Word 0: the pointers' byte offset; tensor 0: dim 2 (index 0), shape 3 x 1;
  // tensor 1: dim 1 (index 1), shape 2; then the two pointers.
  std::vector<uint64_t> list = {0,
                                2,
                                3,
                                1,
                                1 | (uint64_t{1} << 32),
                                2,
                                reinterpret_cast<uint64_t>(t0.data()),
                                reinterpret_cast<uint64_t>(t1.data())};
  list[0] = 6 * sizeof(uint64_t);
  std::vector<int64_t> out(16, -1);
  ExpectClean(Launch(*lib, "list_tensors", 1, reinterpret_cast<uint8_t*>(list.data()), out.data()),
              1);
  const std::vector<int64_t> want = {2, 2, 0, 3, 1, 11, 12, 1, 1, 2, 21, 22};
  for (size_t i = 0; i < want.size(); ++i) ASSERT_EQ(out[i], want[i]) << "word " << i;
}

TEST(ResourceTest, CastToInt4PacksRoundedUpSaturatedNibbles) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_RESOURCE);
  ASSERT_NE(lib, nullptr);
  std::vector<half> x(128);
  for (uint32_t i = 0; i < 128; ++i) x[i] = half(static_cast<float>(i % 25) * 0.75f - 9.0f);
  std::vector<uint8_t> out(64, 0xAA);
  ExpectClean(Launch(*lib, "cast_to_int4", 1, x.data(), out.data()), 1);
  for (uint32_t i = 0; i < 128; ++i) {
    int want = static_cast<int>(std::ceil(static_cast<float>(x[i])));
    want = want < -8 ? -8 : want > 7 ? 7 : want;
    const int nibble = (out[i / 2] >> (i % 2 == 0 ? 0 : 4)) & 0xF;
    ASSERT_EQ(nibble >= 8 ? nibble - 16 : nibble, want) << "element " << i;
  }
}

TEST(ResourceTest, PollingAFlagAcrossCacheOperationsSeesOtherBlocks) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_RESOURCE);
  ASSERT_NE(lib, nullptr);
  for (int round = 0; round < 3; ++round) {
    std::vector<int32_t> value(4, 0), flag(64, 0), result(1, -1);
    ExpectClean(Launch(*lib, "poll_flags", 4, value.data(), flag.data(), result.data()), 4);
    ASSERT_EQ(result[0], 10 + 20 + 30) << "round " << round;
  }
}

}  // namespace
}  // namespace npud::ascendc_test
