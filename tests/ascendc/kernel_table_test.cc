// Kernel objects as the executor sees them: the table, the exported symbols, entry
// argument checks, argument passing, block identity, and two objects side by side.
#include <dlfcn.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "npud_ascendc/fp16.h"
#include "tests/ascendc/kernel_harness.h"
#include "tests/ascendc/kernels/test_kernel_defs.h"
#include "tiling/platform/platform_ascendc.h"

namespace npud::ascendc_test {
namespace {

TEST(KernelTableTest, ListsKernelsInRegistrationOrder) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_BASIC);
  ASSERT_NE(lib, nullptr);
  ASSERT_EQ(lib->size(), 6u);
  const char* names[] = {"args_probe",         "no_args",     "block_identity",
                         "increment_own_slot", "scalar_axpy", "workspace_pointers"};
  const uint32_t sizes[] = {48, 0, 8, 8, 32, 16};
  for (size_t i = 0; i < 6; ++i) {
    EXPECT_STREQ(lib->table()[i].name, names[i]);
    EXPECT_EQ(lib->table()[i].args_size, sizes[i]) << names[i];
    EXPECT_NE(lib->table()[i].entry, nullptr);
  }
  EXPECT_EQ(lib->Find("block_identity")->kernel_type, NPUD_CORE_TYPE_VECTOR);
  EXPECT_EQ(lib->Find("scalar_axpy")->kernel_type, NPUD_CORE_TYPE_MIX);
}

TEST(KernelTableTest, ObjectsExportOnlyTheTables) {
  for (const char* path :
       {ASCENDC_TEST_KERNELS_BASIC, ASCENDC_TEST_KERNELS_VECTOR, ASCENDC_TEST_KERNELS_COPY,
        ASCENDC_TEST_KERNELS_FAULT, ASCENDC_TEST_KERNELS_PRINT, ASCENDC_TEST_KERNELS_ISOLATION_1}) {
    std::string error;
    const std::vector<std::string> symbols = DefinedDynamicSymbols(path, &error);
    EXPECT_EQ(error, "");
    std::vector<std::string> sorted = symbols;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(sorted, (std::vector<std::string>{"npud_kernel_params", "npud_kernel_table"}))
        << path;
  }
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_BASIC);
  ASSERT_NE(lib, nullptr);
  EXPECT_EQ(dlsym(lib->handle(), "args_probe"), nullptr);
}

TEST(KernelTableTest, EntryChecksContextAndArgsSize) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_BASIC);
  ASSERT_NE(lib, nullptr);
  const NpudKernelInfo* kernel = lib->Find("increment_own_slot");
  ASSERT_NE(kernel, nullptr);
  uint32_t slots[1] = {0};
  uint32_t* ptr = slots;
  uint8_t args[8];
  std::memcpy(args, &ptr, sizeof(ptr));

  NpudBlockContext ctx{};
  ctx.abi_version = NPUD_KERNEL_ABI_VERSION;
  ctx.block_num = 1;
  EXPECT_EQ(kernel->entry(&ctx, args, 4), NPUD_KERNEL_ENTRY_BAD_ARGS);
  EXPECT_EQ(kernel->entry(&ctx, args, 16), NPUD_KERNEL_ENTRY_BAD_ARGS);
  EXPECT_EQ(kernel->entry(&ctx, nullptr, 8), NPUD_KERNEL_ENTRY_BAD_ARGS);
  EXPECT_EQ(kernel->entry(nullptr, args, 8), NPUD_KERNEL_ENTRY_BAD_CONTEXT);
  ctx.abi_version = NPUD_KERNEL_ABI_VERSION + 1;
  EXPECT_EQ(kernel->entry(&ctx, args, 8), NPUD_KERNEL_ENTRY_BAD_CONTEXT);
  EXPECT_EQ(slots[0], 0u);  // rejected entries never ran the kernel
  ctx.abi_version = NPUD_KERNEL_ABI_VERSION;
  EXPECT_EQ(kernel->entry(&ctx, args, 8), NPUD_KERNEL_ENTRY_OK);
  EXPECT_EQ(slots[0], 1u);
}

TEST(KernelTableTest, MixedArgumentsArriveIntact) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_BASIC);
  ASSERT_NE(lib, nullptr);
  std::vector<npud_test::ProbeRecord> records(3);
  int32_t pointee = 77;
  auto outcomes = Launch(*lib, "args_probe", 3, reinterpret_cast<uint8_t*>(records.data()), -1.75f,
                         uint32_t{4000000000u}, int64_t{-9000000000000}, half(0.333f),
                         uint8_t{0xab}, 1e-300, &pointee);
  ASSERT_EQ(outcomes.size(), 3u);
  for (size_t b = 0; b < 3; ++b) {
    EXPECT_EQ(outcomes[b].entry_result, NPUD_KERNEL_ENTRY_OK);
    EXPECT_EQ(records[b].f, -1.75f);
    EXPECT_EQ(records[b].u, 4000000000u);
    EXPECT_EQ(records[b].i64, -9000000000000);
    EXPECT_EQ(records[b].half_bits, half(0.333f).ToBits());
    EXPECT_EQ(records[b].byte, 0xab);
    EXPECT_EQ(records[b].d, 1e-300);
    EXPECT_EQ(records[b].ptr, reinterpret_cast<uint64_t>(&pointee));
    EXPECT_EQ(records[b].ptr_value, 77);
  }
}

TEST(KernelTableTest, KernelWithoutArguments) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_BASIC);
  ASSERT_NE(lib, nullptr);
  auto outcomes = Launch(*lib, "no_args", 2);
  ASSERT_EQ(outcomes.size(), 2u);
  EXPECT_EQ(outcomes[0].entry_result, NPUD_KERNEL_ENTRY_OK);
  EXPECT_EQ(outcomes[1].entry_result, NPUD_KERNEL_ENTRY_OK);
}

TEST(KernelTableTest, BlockIdentityPerBlock) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_BASIC);
  ASSERT_NE(lib, nullptr);
  constexpr uint32_t kBlocks = 8;
  std::vector<int64_t> out(4 * kBlocks, -7);
  auto outcomes = Launch(*lib, "block_identity", kBlocks, out.data());
  ASSERT_EQ(outcomes.size(), kBlocks);
  for (uint32_t b = 0; b < kBlocks; ++b) {
    EXPECT_EQ(outcomes[b].entry_result, NPUD_KERNEL_ENTRY_OK);
    EXPECT_EQ(out[4 * b + 0], b);
    EXPECT_EQ(out[4 * b + 1], kBlocks);
    EXPECT_EQ(out[4 * b + 2], b);
    EXPECT_EQ(out[4 * b + 3], kBlocks);
  }
}

TEST(KernelTableTest, CoreTypeReachesTheKernel) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_BASIC);
  ASSERT_NE(lib, nullptr);
  std::vector<int64_t> out(4, 0);
  int64_t* ptr = out.data();
  uint8_t args[8];
  std::memcpy(args, &ptr, sizeof(ptr));
  LaunchOptions cube;
  cube.core_type = NPUD_CORE_TYPE_CUBE;
  RunBlocks(*lib->Find("block_identity"), 1, args, sizeof(args), cube);
  EXPECT_EQ(out[0], -1);  // the kernel's `if ASCEND_IS_AIC` branch
}

TEST(KernelTableTest, ScalarGlobalMemoryKernels) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_BASIC);
  ASSERT_NE(lib, nullptr);
  std::vector<uint32_t> slots = {10, 20, 30, 40};
  Launch(*lib, "increment_own_slot", 4, slots.data());
  EXPECT_EQ(slots, (std::vector<uint32_t>{11, 21, 31, 41}));

  std::vector<float> a = {1, 2, 3, 4, 5, 6, 7, 8};
  std::vector<float> b = {8, 7, 6, 5, 4, 3, 2, 1};
  std::vector<float> dst(8, 0);
  // Every block would run the whole loop (as in the runtime sample): one block is enough.
  Launch(*lib, "scalar_axpy", 1, a.data(), b.data(), dst.data(), 0.5f, uint32_t{8});
  for (size_t i = 0; i < 8; ++i) EXPECT_EQ(dst[i], a[i] + 0.5f * b[i]);
}

// The same names defined in two objects, both loaded RTLD_GLOBAL: each object must keep
// using its own helper, global, inline function, registry and block state.
TEST(KernelTableTest, TwoObjectsWithSameNamesDoNotClash) {
  auto one = LoadOrFail(ASCENDC_TEST_KERNELS_ISOLATION_1, RTLD_NOW | RTLD_GLOBAL);
  auto two = LoadOrFail(ASCENDC_TEST_KERNELS_ISOLATION_2, RTLD_NOW | RTLD_GLOBAL);
  ASSERT_NE(one, nullptr);
  ASSERT_NE(two, nullptr);
  ASSERT_EQ(one->size(), 2u);
  ASSERT_EQ(two->size(), 2u);
  EXPECT_NE(one->table(), two->table());
  EXPECT_NE(one->Find("which_library")->entry, two->Find("which_library")->entry);

  constexpr uint32_t kBlocks = 4;
  std::vector<int32_t> out_one(kBlocks, 0);
  std::vector<int32_t> out_two(kBlocks, 0);
  std::vector<int64_t> state_one(kBlocks, 0);
  std::vector<int64_t> state_two(kBlocks, 0);
  // Run both objects' kernels at the same time.
  std::thread t1([&] {
    Launch(*one, "which_library", kBlocks, out_one.data());
    Launch(*one, "own_block_state", kBlocks, state_one.data());
  });
  std::thread t2([&] {
    Launch(*two, "which_library", kBlocks, out_two.data());
    Launch(*two, "own_block_state", kBlocks, state_two.data());
  });
  t1.join();
  t2.join();
  for (uint32_t b = 0; b < kBlocks; ++b) {
    EXPECT_EQ(out_one[b], 101);
    EXPECT_EQ(out_two[b], 202);
    EXPECT_EQ(state_one[b], 10 * b + 1);
    EXPECT_EQ(state_two[b], 10 * b + 2);
  }
}

// The user's part of a workspace starts where the system workspace that host tiling
// reserves (GetLibApiWorkSpaceSize) ends; SetSysWorkspace sets what
// GetSysWorkSpacePtr returns, for this block only; a launch without a workspace has
// neither.
TEST(KernelTableTest, UserWorkspaceFollowsTheSystemWorkspaceTheHostReserves) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_BASIC);
  ASSERT_NE(lib, nullptr);
  const uint32_t sys =
      platform_ascendc::PlatformAscendCManager::GetInstance()->GetLibApiWorkSpaceSize();
  ASSERT_GT(sys, 0u);
  constexpr uint32_t kBlocks = 2;
  std::vector<uint8_t> workspace(sys + kBlocks * sizeof(uint32_t), 0);
  std::vector<uint64_t> out(3 * kBlocks, ~uint64_t{0});
  auto outcomes = Launch(*lib, "workspace_pointers", kBlocks, workspace.data(), out.data());
  ASSERT_EQ(outcomes.size(), kBlocks);
  const uint64_t base = reinterpret_cast<uint64_t>(workspace.data());
  for (uint32_t b = 0; b < kBlocks; ++b) {
    ASSERT_FALSE(outcomes[b].trapped) << outcomes[b].trap_message;
    EXPECT_EQ(out[3 * b + 0], 0u) << "block " << b;
    EXPECT_EQ(out[3 * b + 1], base) << "block " << b;
    EXPECT_EQ(out[3 * b + 2], base + sys) << "block " << b;
    uint32_t word = 0;
    std::memcpy(&word, workspace.data() + sys + b * sizeof(uint32_t), sizeof(word));
    EXPECT_EQ(word, b + 1) << "block " << b;
  }
  EXPECT_TRUE(std::all_of(workspace.begin(), workspace.begin() + sys, [](uint8_t byte) {
    return byte == 0;
  })) << "a block wrote into the system workspace";

  std::vector<uint64_t> none(3, ~uint64_t{0});
  outcomes = Launch(*lib, "workspace_pointers", 1, static_cast<uint8_t*>(nullptr), none.data());
  ASSERT_EQ(outcomes.size(), 1u);
  ASSERT_FALSE(outcomes[0].trapped) << outcomes[0].trap_message;
  EXPECT_EQ(none, (std::vector<uint64_t>{0, 0, 0}));
}

// One object from several kernel sources: one npud_kernel_table listing every kernel.
TEST(KernelTableTest, ObjectFromSeveralSources) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_COMBINED);
  ASSERT_NE(lib, nullptr);
  std::vector<std::string> names;
  for (size_t i = 0; i < lib->size(); ++i) names.push_back(lib->table()[i].name);
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names,
            (std::vector<std::string>{"atomic_accumulate", "dump_local", "hello_blocks",
                                      "l1_roundtrip", "pad_copy", "print_formats", "print_long",
                                      "print_slot", "strided_copy", "ub_copy_f32", "ub_copy_u16"}));
  auto outcomes = Launch(*lib, "hello_blocks", 2);
  ASSERT_EQ(outcomes.size(), 2u);
  EXPECT_EQ(Printed(outcomes[1]), "Hello from block 1 of 2\n");
}

// A kernel object built with default visibility still keeps the library's state to
// itself and has no STB_GNU_UNIQUE symbols.
TEST(KernelTableTest, DefaultVisibilityObjectKeepsItsOwnState) {
  std::string error;
  const std::vector<std::string> symbols =
      DefinedDynamicSymbols(ASCENDC_TEST_KERNELS_DEFAULT_VISIBILITY, &error);
  EXPECT_EQ(error, "");
  EXPECT_NE(std::find(symbols.begin(), symbols.end(), "npud_kernel_table"), symbols.end());
  for (const std::string& name : symbols) EXPECT_NE(name.rfind("unique:", 0), 0u) << name;

  auto plain = LoadOrFail(ASCENDC_TEST_KERNELS_DEFAULT_VISIBILITY);
  auto other = LoadOrFail(ASCENDC_TEST_KERNELS_ISOLATION_1);
  ASSERT_NE(plain, nullptr);
  ASSERT_NE(other, nullptr);
  ASSERT_EQ(plain->size(), 1u);
  EXPECT_STREQ(plain->table()[0].name, "copy_plus_block");

  constexpr uint32_t kBlocks = 4;
  std::vector<float> x(8 * kBlocks, 1.0f);
  std::vector<float> y(8 * kBlocks, 0.0f);
  std::vector<int64_t> state(kBlocks, 0);
  std::thread t([&] { Launch(*other, "own_block_state", kBlocks, state.data()); });
  auto outcomes = Launch(*plain, "copy_plus_block", kBlocks, reinterpret_cast<uint8_t*>(x.data()),
                         reinterpret_cast<uint8_t*>(y.data()));
  t.join();
  for (const BlockOutcome& o : outcomes) EXPECT_FALSE(o.trapped) << o.trap_message;
  for (uint32_t i = 0; i < 8 * kBlocks; ++i) EXPECT_EQ(y[i], 1.0f + static_cast<float>(i / 8)) << i;
  for (uint32_t b = 0; b < kBlocks; ++b) EXPECT_EQ(state[b], 10 * b + 1);
}

// Nothing keeps a kernel object loaded once its last handle is closed (an STB_GNU_UNIQUE
// symbol would), so the executor can unload binaries.
TEST(KernelTableTest, ObjectsUnloadWhenClosed) {
  for (const char* path : {ASCENDC_TEST_KERNELS_BASIC, ASCENDC_TEST_KERNELS_VECTOR,
                           ASCENDC_TEST_KERNELS_PRINT, ASCENDC_TEST_KERNELS_DEFAULT_VISIBILITY}) {
    {
      auto lib = LoadOrFail(path);  // reads the table, building it
      ASSERT_NE(lib, nullptr);
      RunBlocks(lib->table()[0], 0, nullptr, 0);
    }
    void* again = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
    EXPECT_EQ(again, nullptr) << path << " is still loaded";
    if (again != nullptr) dlclose(again);
  }
}

}  // namespace
}  // namespace npud::ascendc_test
