// Tests of what npud-ascendc-scan writes (simdevice/ascendc/scanner/generated_files.h):
// the formats the compiler, ascendc.cmake and the daemon read.

#include "simdevice/ascendc/scanner/generated_files.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "simdevice/ascendc/scanner/kernel_scan.h"
#include "simdevice/ascendc/scanner/source_lexer.h"

namespace npud::ascendc {
namespace {

constexpr char kSource[] = R"src(extern "C" __global__ void vec() {}
extern "C" __global__ __cube__ void cube() {}
extern "C" __global__ __mix__(1, 2) void mix() {}
__global__ void cxx() {}
template <int N> __global__ void templated() {}
extern "C" __global__ void own() {}
namespace ns { __global__ __cube__ void in_ns() {} }
NPUD_KERNEL_REGISTER(own);
)src";

KernelScan Scan(bool require_c_linkage) {
  return ScanKernels(Lex(kSource, InputKind::kSource, "src/k.cpp"), ScanRules{require_c_linkage});
}

TEST(AscendcScanOutputTest, KernelReport) {
  EXPECT_EQ(KernelReport(Scan(false)),
            "registered vec vector 1\n"
            "registered cube cube 2\n"
            "registered mix mix 3\n"
            "registered cxx vector 4\n"
            "skipped templated template 5\n"
            "registered own vector 6\n"
            "skipped in_ns namespace 7\n");
  EXPECT_NE(KernelReport(Scan(true)).find("skipped cxx linkage 4\n"), std::string::npos);
  EXPECT_EQ(KernelReport(KernelScan{}), "");
}

TEST(AscendcScanOutputTest, DeviceAndHostUnits) {
  const std::string device = DeviceUnit("/abs/k.cpp", "gen/0_k.rewritten.cpp", Scan(false));
  EXPECT_NE(device.find("from /abs/k.cpp; do not edit."), std::string::npos);
  const std::string expected_tail =
      "#include \"npud_ascendc/device_launch.h\"\n"
      "#include \"gen/0_k.rewritten.cpp\"\n"
      "#include \"npud_kernel_register.h\"\n"
      "\n"
      "// The kernels this source defines, listed in the object's npud_kernel_table (those\n"
      "// its launches name register themselves).\n"
      "NPUD_KERNEL_REGISTER(vec);\n"
      "NPUD_KERNEL_REGISTER_AS(cube, NPUD_CORE_TYPE_CUBE);\n"
      "NPUD_KERNEL_REGISTER_AS(mix, NPUD_CORE_TYPE_MIX);\n"
      "NPUD_KERNEL_REGISTER(cxx);\n"
      "NPUD_KERNEL_CORE_TYPE(\"in_ns\", NPUD_CORE_TYPE_CUBE);\n";
  ASSERT_GE(device.size(), expected_tail.size());
  EXPECT_EQ(device.substr(device.size() - expected_tail.size()), expected_tail);

  const std::string host = HostUnit("/abs/k.cpp", "gen/0_k.rewritten.cpp", "lib_ns", Scan(false));
  const std::string host_head =
      "#define NPUD_KERNEL_NO_TABLE 1\n"
      "#include \"npud_ascendc/host_launch.h\"\n"
      "NPUD_ASCENDC_HOST_LAUNCHER(lib_ns);\n"
      "#include \"gen/0_k.rewritten.cpp\"\n";
  EXPECT_NE(host.find(host_head), std::string::npos) << host;
  // One ACLRT_LAUNCH_KERNEL entry per kernel registered by name, none for the template.
  EXPECT_NE(host.find("uint32_t aclrtlaunch_vec(uint32_t npud_block_dim, void* npud_stream) {\n"
                      "  return ::npud_ascendc_launch<(vec)>(\"vec\", npud_block_dim, nullptr, "
                      "npud_stream)();\n}\n"),
            std::string::npos)
      << host;
  EXPECT_EQ(host.find("aclrtlaunch_templated"), std::string::npos);
  // Each kernel registered by name is a device symbol (aclrtGetFuncBySymbol).
  EXPECT_NE(host.find("NPUD_ASCENDC_KERNEL_SYMBOL(vec);\n"), std::string::npos) << host;
  EXPECT_EQ(host.find("NPUD_ASCENDC_KERNEL_SYMBOL(templated)"), std::string::npos);
}

// Mix kernels of one vector core per group name themselves to the registry, whether
// registered by name or by their launches.
TEST(AscendcScanOutputTest, OneToOneMixKernelsSayTheirVectorCores) {
  const KernelScan scan = ScanKernels(Lex(R"src(extern "C" __global__ __mix__(1, 1) void a() {}
extern "C" __global__ __aicore__ void b() { KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_1); }
template <int N> __global__ __mix__(1, 1) void t() {}
extern "C" __global__ __mix__(1, 2) void c() {}
)src",
                                          InputKind::kSource, "src/k.cpp"),
                                      ScanRules{false});
  const std::string device = DeviceUnit("/abs/k.cpp", "gen/0_k.rewritten.cpp", scan);
  const std::string expected_tail =
      "NPUD_KERNEL_REGISTER_AS(a, NPUD_CORE_TYPE_MIX);\n"
      "NPUD_KERNEL_REGISTER_AS(b, NPUD_CORE_TYPE_MIX);\n"
      "NPUD_KERNEL_REGISTER_AS(c, NPUD_CORE_TYPE_MIX);\n"
      "NPUD_KERNEL_CORE_TYPE(\"t\", NPUD_CORE_TYPE_MIX);\n"
      "NPUD_KERNEL_MIX_VECTORS(\"a\", 1);\n"
      "NPUD_KERNEL_MIX_VECTORS(\"b\", 1);\n"
      "NPUD_KERNEL_MIX_VECTORS(\"t\", 1);\n";
  ASSERT_GE(device.size(), expected_tail.size());
  EXPECT_EQ(device.substr(device.size() - expected_tail.size()), expected_tail) << device;
}

TEST(AscendcScanOutputTest, LaunchHeadersDeclareTheKernelsParameters) {
  const KernelScan scan =
      ScanKernels(Lex("extern \"C\" __global__ void k(__gm__ float* x, GM_ADDR y, uint32_t n, int, "
                      "const Tiling t = {}) {}\n",
                      InputKind::kSource, "k.cpp"),
                  ScanRules{});
  ASSERT_EQ(scan.definitions.size(), 1u);
  const std::vector<KernelParam>& params = scan.definitions[0].params;
  ASSERT_EQ(params.size(), 5u);
  EXPECT_EQ(params[0].declaration, "__gm__ float * x");
  EXPECT_EQ(params[0].name, "x");
  EXPECT_EQ(params[3].name, "");  // unnamed
  EXPECT_EQ(params[4].declaration, "const Tiling t");
  const std::string header = LaunchHeader(scan.definitions[0]);
  EXPECT_NE(header.find("#define ACLRT_LAUNCH_KERNEL(kernel_func) aclrtlaunch_##kernel_func"),
            std::string::npos);
  EXPECT_NE(header.find("uint32_t aclrtlaunch_k(uint32_t blockDim, void* stream, float * x, "
                        "uint8_t * y, uint32_t n, int npud_arg3, const Tiling t);"),
            std::string::npos)
      << header;
  const std::string host = HostUnit("/k.cpp", "k.rewritten.cpp", "ns", scan);
  EXPECT_NE(host.find("\"k\", npud_block_dim, nullptr, npud_stream)(x, y, n, npud_arg3, t);"),
            std::string::npos)
      << host;
}

TEST(AscendcScanOutputTest, RunTimeCompilationFiles) {
  const KernelScan scan = Scan(true);
  EXPECT_EQ(RtcRegistrations(scan),
            "#line 1 \"<npud kernel registration>\"\n"
            "#include \"npud_kernel_register.h\"\n"
            "NPUD_KERNEL_REGISTER(vec);\n"
            "NPUD_KERNEL_REGISTER_AS(cube, NPUD_CORE_TYPE_CUBE);\n"
            "NPUD_KERNEL_REGISTER_AS(mix, NPUD_CORE_TYPE_MIX);\n");
  EXPECT_EQ(KernelList(scan), "own\nvec\ncube\nmix\n");
}

TEST(AscendcScanOutputTest, Diagnostics) {
  const KernelScan scan = Scan(true);
  ASSERT_EQ(scan.definitions.size(), 7u);
  EXPECT_EQ(Diagnostic(scan.definitions[0], Audience::kRtc), "");
  EXPECT_EQ(Diagnostic(scan.definitions[3], Audience::kRtc),
            "src/k.cpp:4: note: npud-rtc: __global__ function 'cxx' is not registered as a "
            "kernel: it has C++ linkage (declare it extern \"C\")");
  EXPECT_EQ(Diagnostic(scan.definitions[4], Audience::kBuild),
            "src/k.cpp:5: warning: __global__ function 'templated' is not registered as a "
            "kernel: it is a template; launching it fails");
}

TEST(AscendcScanOutputTest, LaunchedTemplatesAndNamespacedKernelsNeedNoName) {
  const KernelScan scan = Scan(false);
  const std::vector<std::string> launched = {"templated", "in_ns", "cxx"};
  EXPECT_TRUE(RegisteredByLaunch(scan.definitions[4], launched));   // templated
  EXPECT_TRUE(RegisteredByLaunch(scan.definitions[6], launched));   // in_ns
  EXPECT_FALSE(RegisteredByLaunch(scan.definitions[3], launched));  // registered by name
  EXPECT_FALSE(RegisteredByLaunch(scan.definitions[4], {"other"}));
}

TEST(AscendcScanOutputTest, LineDirectiveEscapesTheFileName) {
  EXPECT_EQ(LineDirective("/a \"b\"\\c.cpp"), "#line 1 \"/a \\\"b\\\"\\\\c.cpp\"\n");
}

}  // namespace
}  // namespace npud::ascendc
