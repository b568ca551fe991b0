// Tests of the kernel scan (simdevice/ascendc/scanner/kernel_scan.h) under the rules
// of both callers: ascendc.cmake's source pass (any linkage) and run-time compilation
// (extern "C" only), and of the registration order.

#include "simdevice/ascendc/scanner/kernel_scan.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "simdevice/ascendc/scanner/source_lexer.h"

namespace npud::ascendc {
namespace {

// "name:what:line" per definition, what being the core type or "skipped-<reason>".
std::vector<std::string> Summary(const KernelScan& scan) {
  std::vector<std::string> out;
  for (const KernelDefinition& k : scan.definitions) {
    std::string what;
    if (k.skipped.has_value()) {
      switch (*k.skipped) {
        case SkipReason::kTemplate:
          what = "skipped-template";
          break;
        case SkipReason::kNamespace:
          what = "skipped-namespace";
          break;
        case SkipReason::kScope:
          what = "skipped-scope";
          break;
        case SkipReason::kCxxLinkage:
          what = "skipped-linkage";
          break;
      }
    } else {
      what = k.type == CoreType::kVector ? "vector" : (k.type == CoreType::kCube ? "cube" : "mix");
    }
    out.push_back(k.name + ":" + what + ":" + std::to_string(k.line));
  }
  return out;
}

KernelScan ScanSource(const std::string& text, bool require_c_linkage) {
  return ScanKernels(Lex(text, InputKind::kSource, "k.cpp"), ScanRules{require_c_linkage});
}

constexpr char kMixed[] = R"src(#define KERNEL extern "C" __global__
extern "C" __global__ __aicore__ void plain(GM_ADDR x) { x[0] = '}'; }
extern "C" __global__ __aicore__ void declared(GM_ADDR x);
extern "C" {
__global__ void in_block() {}
}
extern "C++" {
__global__ void cxx_block() {}
extern "C" __global__ void c_in_cxx_block() {}
}
__global__ __vector__ void cxx() {}
extern "C" __global__ __cube__ void cube() {}
extern "C" __global__ __mix__(1, 2) void mix(int a) {}
extern "C" __global__ __attribute__((noinline)) void attributed(int a) noexcept {}
template <typename T>
__global__ void templated(T x) {}
namespace ns {
extern "C" __global__ void namespaced() {}
}
inline namespace v1 { extern "C" __global__ void in_inline_namespace() {} }
__global__ void ns::qualified() {}
struct Holder {
  __global__ void member() {}
  void method() { auto f = [](int x) { return x; }; }
};
extern "C" __global__ void plain(GM_ADDR x) {}
KERNEL from_macro() {}
)src";

TEST(AscendcScanKernelTest, SourcePassRegistersGlobalKernelsOfAnyLinkage) {
  const KernelScan scan = ScanSource(kMixed, /*require_c_linkage=*/false);
  EXPECT_EQ(Summary(scan),
            (std::vector<std::string>{
                "plain:vector:2", "in_block:vector:5", "cxx_block:vector:8",
                "c_in_cxx_block:vector:9", "cxx:vector:11", "cube:cube:12", "mix:mix:13",
                "attributed:vector:14", "templated:skipped-template:16",
                "namespaced:skipped-namespace:18", "in_inline_namespace:skipped-namespace:20",
                "qualified:skipped-namespace:21", "member:skipped-scope:23"}));
  EXPECT_EQ(scan.definitions[0].file, "k.cpp");
  EXPECT_TRUE(scan.self_registered.empty());
}

// CANN builds the plain __aicore__ kernels of a source that uses the Matmul API in
// its default mix mode as mix kernels; ASCENDC_CUBE_ONLY before the include, or an
// explicit __vector__ / __cube__, keeps them what they say.
TEST(AscendcScanKernelTest, TheMatmulApiMakesPlainKernelsMixKernels) {
  const std::string kernels = R"src(
__global__ __aicore__ void plain() {}
__global__ __vector__ void vector_only() {}
__global__ __cube__ void cube_only() {}
)src";
  const std::string mix_include = "#include \"lib/matmul_intf.h\"\n";
  EXPECT_EQ(Summary(ScanSource(mix_include + kernels, false)),
            (std::vector<std::string>{"plain:mix:3", "vector_only:vector:4", "cube_only:cube:5"}));
  const std::string cube_only = "#define ASCENDC_CUBE_ONLY\n" + mix_include;
  EXPECT_EQ(
      Summary(ScanSource(cube_only + kernels, false)),
      (std::vector<std::string>{"plain:vector:4", "vector_only:vector:5", "cube_only:cube:6"}));
  const std::string commented = "// #include \"lib/matmul_intf.h\"\n";
  EXPECT_EQ(Summary(ScanSource(commented + kernels, false))[0], "plain:vector:3");
  // A preprocessed unit names the header in a line marker.
  const std::string unit =
      "# 1 \"k.cpp\"\n# 1 \"/opt/include/lib/matmul_intf.h\" 1\n# 2 \"k.cpp\" 2\n" + kernels;
  const KernelScan preprocessed =
      ScanKernels(Lex(unit, InputKind::kPreprocessed, "k.cpp"), ScanRules{false});
  ASSERT_FALSE(preprocessed.definitions.empty());
  EXPECT_EQ(preprocessed.definitions[0].type, CoreType::kMix);
}

TEST(AscendcScanKernelTest, RunTimeCompilationRegistersOnlyCLinkage) {
  const KernelScan scan = ScanSource(kMixed, /*require_c_linkage=*/true);
  EXPECT_EQ(Summary(scan),
            (std::vector<std::string>{
                "plain:vector:2", "in_block:vector:5", "cxx_block:skipped-linkage:8",
                "c_in_cxx_block:vector:9", "cxx:skipped-linkage:11", "cube:cube:12", "mix:mix:13",
                "attributed:vector:14", "templated:skipped-template:16",
                "namespaced:skipped-namespace:18", "in_inline_namespace:skipped-namespace:20",
                "qualified:skipped-namespace:21", "member:skipped-scope:23"}));
}

TEST(AscendcScanKernelTest, SelfRegisteredKernelsComeFirstAndAreNotRegisteredAgain) {
  const KernelScan scan = ScanSource(R"src(
extern "C" __global__ void first() {}
extern "C" __global__ void own() {}
NPUD_KERNEL_REGISTER(own);
extern "C" __global__ __cube__ void own_cube() {}
NPUD_KERNEL_REGISTER_AS(own_cube, NPUD_CORE_TYPE_CUBE);
void f() { NPUD_KERNEL_REGISTER(not_at_namespace_scope); }
extern "C" __global__ void last() {}
)src",
                                     /*require_c_linkage=*/true);
  EXPECT_EQ(scan.self_registered, (std::vector<std::string>{"own", "own_cube"}));
  std::vector<std::string> to_register;
  for (const KernelDefinition* k : KernelsToRegister(scan)) to_register.push_back(k->name);
  EXPECT_EQ(to_register, (std::vector<std::string>{"first", "last"}));
  EXPECT_EQ(KernelTable(scan), (std::vector<std::string>{"own", "own_cube", "first", "last"}));
}

TEST(AscendcScanKernelTest, PreprocessedProgramsIncludeTheirOwnHeadersOnly) {
  const std::string text =
      "# 1 \"prog.cpp\"\n"
      "# 1 \"/toolchain/kernel_operator.h\" 1\n"
      "namespace AscendC { extern \"C\" __global__ void toolchain_kernel() {} }\n"
      "extern \"C\" __global__ void toolchain_global() {}\n"
      "# 2 \"prog.cpp\" 2\n"
      "# 1 \"inc/own.h\" 1\n"
      "extern \"C\" __global__ void from_header() {}\n"
      "# 3 \"prog.cpp\" 2\n"
      "extern \"C\" __global__ void from_program() {}\n";
  const KernelScan scan =
      ScanKernels(Lex(text, InputKind::kPreprocessed, "prog.cpp"), ScanRules{true});
  EXPECT_EQ(Summary(scan),
            (std::vector<std::string>{"from_header:vector:1", "from_program:vector:3"}));
  EXPECT_EQ(scan.definitions[0].file, "inc/own.h");
  EXPECT_EQ(scan.definitions[1].file, "prog.cpp");
}

TEST(AscendcScanKernelTest, LookAlikesAreNotKernels) {
  const KernelScan scan = ScanSource(R"src(
// extern "C" __global__ void in_comment() {}
const char* s = "extern \"C\" __global__ void in_string() {}";
const char* r = R"x(__global__ void in_raw() {} )x";
#if 0
extern "C" __global__ void disabled() {}
#endif
extern "C" __global__ void declared_only(int);
extern "C" void not_global() {}
int table[] = {1, 2};
extern "C" __global__ void
    split_over_lines(int a,
                     int b) {}
)src",
                                     /*require_c_linkage=*/false);
  EXPECT_EQ(Summary(scan), (std::vector<std::string>{"split_over_lines:vector:12"}));
}

}  // namespace
}  // namespace npud::ascendc

namespace npud::ascendc {
namespace {

// KERNEL_TASK_TYPE_DEFAULT in a kernel's body sets its core type (MIX_AIC_1_1: mix
// groups of one vector core); a per-key KERNEL_TASK_TYPE or the macro in another
// function do not.
TEST(AscendcScanKernelTest, KernelTaskTypeDefaultSetsTheCoreType) {
  const KernelScan scan = ScanSource(R"src(
extern "C" __global__ __aicore__ void aic(GM_ADDR x) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
  if (x) { x[0] = 1; }
}
extern "C" __global__ __aicore__ void mix12(GM_ADDR x) {
  if (x) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
  }
}
extern "C" __global__ __cube__ void aiv(GM_ADDR x) { KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY); }
extern "C" __global__ __aicore__ void keyed(GM_ADDR x) { KERNEL_TASK_TYPE(1, KERNEL_TYPE_AIC_ONLY); }
extern "C" __global__ __aicore__ void mix11(GM_ADDR x) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_1);
}
void helper() { KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY); }
extern "C" __global__ __aicore__ void after_helper(GM_ADDR x) {}
template <class T>
__global__ __aicore__ void tmpl(T x) { KERNEL_TASK_TYPE_DEFAULT(KernelMetaType::KERNEL_TYPE_MIX_AIC_1_0); }
)src",
                                     /*require_c_linkage=*/false);
  EXPECT_EQ(Summary(scan),
            (std::vector<std::string>{"aic:cube:2", "mix12:mix:6", "aiv:vector:11",
                                      "keyed:vector:12", "mix11:mix:13", "after_helper:vector:17",
                                      "tmpl:skipped-template:19"}));
  ASSERT_EQ(scan.definitions.size(), 7u);
  EXPECT_EQ(scan.definitions[6].type, CoreType::kCube);  // registered by its launches
  EXPECT_EQ(scan.definitions[1].mix_vectors, 2);         // MIX_AIC_1_2
  EXPECT_EQ(scan.definitions[4].mix_vectors, 1);         // MIX_AIC_1_1
}

// __mix__(1, 1) kernels have groups of one vector core, __mix__(1, 2) ones of two.
TEST(AscendcScanKernelTest, MixQualifierGivesTheVectorCoresPerGroup) {
  const KernelScan scan = ScanSource(R"src(
extern "C" __global__ __mix__(1, 1) void one(GM_ADDR x) {}
extern "C" __global__ __mix__(1, 2) void two(GM_ADDR x) {}
)src",
                                     /*require_c_linkage=*/false);
  ASSERT_EQ(scan.definitions.size(), 2u);
  EXPECT_EQ(scan.definitions[0].type, CoreType::kMix);
  EXPECT_EQ(scan.definitions[0].mix_vectors, 1);
  EXPECT_EQ(scan.definitions[1].type, CoreType::kMix);
  EXPECT_EQ(scan.definitions[1].mix_vectors, 2);
}

}  // namespace
}  // namespace npud::ascendc
