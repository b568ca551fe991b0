// The packed kernel argument layout (npud_kernel_args.h), on the host.
#include "npud_kernel_args.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include "npud_ascendc/fp16.h"

namespace {

using npud::kernel::ArgLayout;
using npud::kernel::PackedSize;

struct MixedStruct {
  uint8_t* p;
  float f;
  uint32_t u;
  int64_t i;
  half h;
  uint8_t b;
  double d;
  int32_t* q;
};
using MixedLayout = ArgLayout<uint8_t*, float, uint32_t, int64_t, half, uint8_t, double, int32_t*>;

// The layout is the C struct's: same offsets, same size.
static_assert(MixedLayout::Size() == sizeof(MixedStruct));
static_assert(MixedLayout::Size() == 48);
static_assert(MixedLayout::Offsets()[0] == offsetof(MixedStruct, p));
static_assert(MixedLayout::Offsets()[1] == offsetof(MixedStruct, f));
static_assert(MixedLayout::Offsets()[2] == offsetof(MixedStruct, u));
static_assert(MixedLayout::Offsets()[3] == offsetof(MixedStruct, i));
static_assert(MixedLayout::Offsets()[4] == offsetof(MixedStruct, h));
static_assert(MixedLayout::Offsets()[5] == offsetof(MixedStruct, b));
static_assert(MixedLayout::Offsets()[6] == offsetof(MixedStruct, d));
static_assert(MixedLayout::Offsets()[7] == offsetof(MixedStruct, q));

struct TailPadded {
  double d;
  uint8_t c;
};
static_assert(ArgLayout<double, uint8_t>::Size() == sizeof(TailPadded));
static_assert(ArgLayout<uint8_t, uint16_t, uint8_t>::Size() == 6);
static_assert(ArgLayout<float, uint32_t>::Size() == 8);
static_assert(ArgLayout<>::Size() == 0);

// Kernel signatures (only their types are used).
using ThreePointers = void (*)(uint8_t*, uint8_t*, uint8_t*);
using ScalarKernel = void (*)(float*, float*, float*, float, uint32_t);
using NoParams = void();
static_assert(PackedSize<ThreePointers>::value == 24);
static_assert(PackedSize<ScalarKernel>::value == 32);
static_assert(PackedSize<NoParams>::value == 0);

MixedStruct g_seen;
int g_calls = 0;
void Mixed(uint8_t* p, float f, uint32_t u, int64_t i, half h, uint8_t b, double d, int32_t* q) {
  g_seen = MixedStruct{p, f, u, i, h, b, d, q};
  ++g_calls;
}
void CountCall() { ++g_calls; }

TEST(KernelArgsTest, PackMatchesTheCStructLayout) {
  uint8_t byte = 0;
  int32_t word = 0;
  std::vector<uint8_t> packed(MixedLayout::Size(), 0xee);
  npud::kernel::Pack(packed.data(), &byte, 1.25f, uint32_t{0xdeadbeef}, int64_t{-5000000000},
                     half(0.5f), uint8_t{200}, 2.5, &word);
  MixedStruct s;
  std::memcpy(&s, packed.data(), sizeof(s));
  EXPECT_EQ(s.p, &byte);
  EXPECT_EQ(s.f, 1.25f);
  EXPECT_EQ(s.u, 0xdeadbeefu);
  EXPECT_EQ(s.i, -5000000000);
  EXPECT_EQ(s.h.ToBits(), 0x3800);
  EXPECT_EQ(s.b, 200);
  EXPECT_EQ(s.d, 2.5);
  EXPECT_EQ(s.q, &word);
  // Padding bytes are zeroed, not left over.
  EXPECT_EQ(packed[27], 0);
  EXPECT_EQ(packed[31], 0);
}

TEST(KernelArgsTest, InvokeUnpacksEveryParameter) {
  uint8_t byte = 0;
  int32_t word = 0;
  // An unaligned source buffer: unpacking must not assume alignment.
  std::vector<uint8_t> storage(MixedLayout::Size() + 1);
  uint8_t* packed = storage.data() + 1;
  npud::kernel::Pack(packed, &byte, -3.5f, uint32_t{7}, int64_t{1} << 40, half(-2.0f), uint8_t{9},
                     -0.125, &word);
  g_calls = 0;
  npud::kernel::Invoke(&Mixed, packed);
  EXPECT_EQ(g_calls, 1);
  EXPECT_EQ(g_seen.p, &byte);
  EXPECT_EQ(g_seen.f, -3.5f);
  EXPECT_EQ(g_seen.u, 7u);
  EXPECT_EQ(g_seen.i, int64_t{1} << 40);
  EXPECT_EQ(g_seen.h.ToBits(), 0xc000);
  EXPECT_EQ(g_seen.b, 9);
  EXPECT_EQ(g_seen.d, -0.125);
  EXPECT_EQ(g_seen.q, &word);
}

TEST(KernelArgsTest, PackForConvertsToTheKernelsTypes) {
  std::vector<uint8_t> packed(PackedSize<decltype(&Mixed)>::value);
  // int, double and nullptr arguments become the kernel's uint32_t, float, half...
  npud::kernel::PackFor(&Mixed, packed.data(), nullptr, 2.0, 3, 4, 1.5, 6, 7.0f, nullptr);
  g_calls = 0;
  npud::kernel::Invoke(&Mixed, packed.data());
  EXPECT_EQ(g_calls, 1);
  EXPECT_EQ(g_seen.f, 2.0f);
  EXPECT_EQ(g_seen.u, 3u);
  EXPECT_EQ(g_seen.i, 4);
  EXPECT_EQ(static_cast<float>(g_seen.h), 1.5f);
  EXPECT_EQ(g_seen.b, 6);
  EXPECT_EQ(g_seen.d, 7.0);
  EXPECT_EQ(g_seen.q, nullptr);
}

TEST(KernelArgsTest, KernelWithoutParameters) {
  g_calls = 0;
  npud::kernel::Pack(nullptr);
  npud::kernel::Invoke(&CountCall, nullptr);
  EXPECT_EQ(g_calls, 1);
}

}  // namespace
