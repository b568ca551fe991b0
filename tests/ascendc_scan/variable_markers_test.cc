// Tests of the device-variable scan (kernel_scan.h, DeviceVariable) and its markers
// (variable_markers.h): which definitions are device variables, and the marked text.

#include "simdevice/ascendc/scanner/variable_markers.h"

#include <algorithm>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "simdevice/ascendc/scanner/kernel_scan.h"
#include "simdevice/ascendc/scanner/source_lexer.h"

namespace npud::ascendc {
namespace {

std::vector<std::string> Names(const KernelScan& scan) {
  std::vector<std::string> names;
  for (const DeviceVariable& variable : scan.variables) {
    names.push_back(variable.name + ":" + std::to_string(variable.line));
  }
  return names;
}

constexpr char kSource[] = R"src(#include "kernel_operator.h"
__gm__ float g_scale = 2.0f;
static __gm__ int32_t g_count;
__gm__ float g_table[4] = {1, 2,
                           3, 4};
extern __gm__ float g_elsewhere;
constexpr __gm__ int kConstant = 3;
__gm__ void (*g_function)(int);
__gm__ int g_a, g_b;
float g_host;
struct Point { __gm__ float* p; };
__gm__ struct Point g_point;
__gm__ struct Tagged { int a; };
namespace ns { __gm__ int g_in_namespace; }
extern "C" { __gm__ uint8_t g_in_linkage[16]; }
__global__ void k(__gm__ float* x) { static __gm__ int local; x[0] = g_scale; }
// __gm__ int g_comment;
)src";

TEST(AscendcScanVariables, FindsOneDeclaratorDefinitionsAtGlobalScope) {
  const KernelScan scan = ScanKernels(Lex(kSource, InputKind::kSource, "k.asc"), ScanRules{});
  EXPECT_EQ(Names(scan), (std::vector<std::string>{"g_scale:2", "g_count:3", "g_table:4",
                                                   "g_point:12", "g_in_linkage:15"}));
  ASSERT_EQ(scan.definitions.size(), 1u);
  EXPECT_EQ(scan.definitions[0].name, "k");
}

TEST(AscendcScanVariables, MarkersWrapEachDefinitionOnItsOwnLines) {
  const std::string text = kSource;
  const KernelScan scan = ScanKernels(Lex(text, InputKind::kSource, "k.asc"), ScanRules{});
  const std::string marked = MarkDeviceVariables(text, scan.variables);
  EXPECT_NE(
      marked.find("NPUD_GM_BEGIN(g_scale) __gm__ float g_scale = 2.0f; NPUD_GM_END(g_scale);\n"),
      std::string::npos)
      << marked;
  EXPECT_NE(marked.find("NPUD_GM_BEGIN(g_table) __gm__ float g_table[4] = {1, 2,\n"
                        "                           3, 4}; NPUD_GM_END(g_table);\n"),
            std::string::npos)
      << marked;
  EXPECT_NE(marked.find("NPUD_GM_BEGIN(g_count) static __gm__ int32_t g_count; "
                        "NPUD_GM_END(g_count);"),
            std::string::npos);
  EXPECT_EQ(std::count(marked.begin(), marked.end(), '\n'),
            std::count(text.begin(), text.end(), '\n'));
  // The marked text has no variables left to mark, and the same kernels.
  const KernelScan again = ScanKernels(Lex(marked, InputKind::kSource, "k.asc"), ScanRules{});
  EXPECT_TRUE(again.variables.empty());
  ASSERT_EQ(again.definitions.size(), 1u);
  EXPECT_EQ(again.definitions[0].name, "k");
}

TEST(AscendcScanVariables, NoVariablesLeavesTheTextAlone) {
  const std::string text = "__global__ void k(__gm__ float* x) {}\n";
  EXPECT_EQ(MarkDeviceVariables(text, {}), text);
}

}  // namespace
}  // namespace npud::ascendc
