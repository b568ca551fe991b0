// Tests of the <<<>>> rewrite (simdevice/ascendc/scanner/launch_rewrite.h). The
// fixture test of tests/toolchain (rewrite/launches.cpp) checks a whole source
// byte for byte through the installed program; these check the rules one by one.

#include "simdevice/ascendc/scanner/launch_rewrite.h"

#include <algorithm>
#include <string>

#include "gtest/gtest.h"
#include "simdevice/ascendc/scanner/source_lexer.h"

namespace npud::ascendc {
namespace {

absl::StatusOr<std::string> Rewrite(const std::string& text) {
  return RewriteLaunches(Lex(text, InputKind::kSource, "dir/k.cpp"));
}

TEST(AscendcScanRewriteTest, PlainQualifiedAndTemplateLaunches) {
  EXPECT_EQ(*Rewrite("r = K<<<8, nullptr, s>>>(a, b);"),
            "r = ::npud_ascendc_launch(K, \"K\", 8, nullptr, s)(a, b);");
  EXPECT_EQ(*Rewrite("::ns :: K<<<1,2,3>>>();"),
            "::npud_ascendc_launch(::ns :: K, \"ns::K\", 1,2,3)();");
  EXPECT_EQ(*Rewrite("K<T, (1 > 2)> <<<f(a, b), c[1], {s}>>>(x);"),
            "::npud_ascendc_launch(K<T, (1 > 2)>, \"K<T, (1 > 2)>\", f(a, b), c[1], {s}) (x);");
}

TEST(AscendcScanRewriteTest, LineBreaksStayWhereTheyWere) {
  const std::string text = "x = K\n  <<<a,\n b, c>>>\n (p,\n q);\nint line = __LINE__;\n";
  const std::string rewritten = *Rewrite(text);
  EXPECT_EQ(rewritten,
            "x = ::npud_ascendc_launch(K, \"K\", a,\n b, c)\n  \n (p,\n q);\n"
            "int line = __LINE__;\n");
  EXPECT_EQ(std::count(rewritten.begin(), rewritten.end(), '\n'),
            std::count(text.begin(), text.end(), '\n'));
}

TEST(AscendcScanRewriteTest, OnlyCodeIsRewritten) {
  const std::string text =
      "// K<<<1, 2, 3>>>();\n"
      "const char* s = \"K<<<1, 2, 3>>>()\";\n"
      "#if 0\n"
      "K<<<1, 2, 3>>>();\n"
      "#endif\n"
      "#define LAUNCH(k) k<<<1, 2, 3>>>()\n"
      "int v = a << b < c;\n";
  EXPECT_EQ(*Rewrite(text),
            "// K<<<1, 2, 3>>>();\n"
            "const char* s = \"K<<<1, 2, 3>>>()\";\n"
            "#if 0\n"
            "K<<<1, 2, 3>>>();\n"
            "#endif\n"
            "#define LAUNCH(k) ::npud_ascendc_launch(k, \"k\", 1, 2, 3)()\n"
            "int v = a << b < c;\n");
}

TEST(AscendcScanRewriteTest, MalformedLaunchesAreErrorsWithTheirLine) {
  struct Case {
    const char* text;
    const char* message;
  };
  for (const Case& c : {
           Case{"\nK<<<1, s>>>(0);",
                "dir/k.cpp:2: error: a kernel launch takes three "
                "arguments, <<<blockDim, l2ctrl, stream>>>; this one has 2"},
           Case{"K<<<1, nullptr, s;", "dir/k.cpp:1: error: no '>>>' closes this '<<<'"},
           Case{"f(K<<<1, nullptr, s);", "dir/k.cpp:1: error: no '>>>' closes this '<<<'"},
           Case{"\n\n(K)<<<1, nullptr, s>>>(0);",
                "dir/k.cpp:3: error: cannot find the kernel name before '<<<'"},
           Case{"x = 1 > <<<1, 2, 3>>>();",
                "dir/k.cpp:1: error: cannot find the kernel name before '<<<'"},
           Case{"K<<<1, nullptr, s>>>;",
                "dir/k.cpp:1: error: expected the kernel arguments '(...)' after '>>>'"},
       }) {
    const absl::StatusOr<std::string> rewritten = Rewrite(c.text);
    ASSERT_FALSE(rewritten.ok()) << c.text;
    EXPECT_EQ(rewritten.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(rewritten.status().message(), c.message) << c.text;
  }
}

}  // namespace
}  // namespace npud::ascendc
