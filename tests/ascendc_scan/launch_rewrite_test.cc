// Tests of the <<<>>> rewrite (simdevice/ascendc/scanner/launch_rewrite.h). The
// fixture test of tests/toolchain (rewrite/launches.cpp) checks a whole source
// byte for byte through the installed program; these check the rules one by one.

#include "simdevice/ascendc/scanner/launch_rewrite.h"

#include <algorithm>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "simdevice/ascendc/scanner/source_lexer.h"

namespace npud::ascendc {
namespace {

absl::StatusOr<std::string> Rewrite(const std::string& text) {
  return RewriteLaunches(Lex(text, InputKind::kSource, "dir/k.cpp"));
}

TEST(AscendcScanRewriteTest, PlainQualifiedAndTemplateLaunches) {
  EXPECT_EQ(*Rewrite("r = K<<<8, nullptr, s>>>(a, b);"),
            "r = ::npud_ascendc_launch<(K)>(\"K\", 8, nullptr, s)(a, b);");
  EXPECT_EQ(*Rewrite("::ns :: K<<<1,2,3>>>();"),
            "::npud_ascendc_launch<(::ns :: K)>(\"ns::K\", 1,2,3)();");
  EXPECT_EQ(*Rewrite("K<T, (1 > 2)> <<<f(a, b), c[1], {s}>>>(x);"),
            "::npud_ascendc_launch<(K<T, (1 > 2)>)>(\"K<T, (1 > 2)>\", f(a, b), c[1], {s}) (x);");
}

TEST(AscendcScanRewriteTest, ListsTheKernelsLaunched) {
  std::vector<std::string> launched;
  ASSERT_TRUE(RewriteLaunches(Lex("a<<<1, 0>>>(); ns::b<T, (1 > 2)><<<1, 0, s>>>(); a<<<2, 0>>>();",
                                  InputKind::kSource, "k.cpp"),
                              &launched)
                  .ok());
  EXPECT_EQ(launched, (std::vector<std::string>{"a", "b"}));
}

TEST(AscendcScanRewriteTest, TheStreamMayBeLeftOut) {
  EXPECT_EQ(*Rewrite("K<T, 8><<<n, 0>>>(x);"),
            "::npud_ascendc_launch<(K<T, 8>)>(\"K<T, 8>\", n, 0)(x);");
}

TEST(AscendcScanRewriteTest, LineBreaksStayWhereTheyWere) {
  const std::string text = "x = K\n  <<<a,\n b, c>>>\n (p,\n q);\nint line = __LINE__;\n";
  const std::string rewritten = *Rewrite(text);
  EXPECT_EQ(rewritten,
            "x = ::npud_ascendc_launch<(K)>(\"K\", a,\n b, c)\n  \n (p,\n q);\n"
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
            "#define LAUNCH(k) ::npud_ascendc_launch<(k)>(\"k\", 1, 2, 3)()\n"
            "int v = a << b < c;\n");
}

TEST(AscendcScanRewriteTest, MalformedLaunchesAreErrorsWithTheirLine) {
  struct Case {
    const char* text;
    const char* message;
  };
  for (const Case& c : {
           Case{"\nK<<<1>>>(0);",
                "dir/k.cpp:2: error: a kernel launch takes two or three "
                "arguments, <<<blockDim, l2ctrl[, stream]>>>; this one has 1"},
           Case{"K<<<1, 2, s, 4>>>(0);",
                "dir/k.cpp:1: error: a kernel launch takes two or three "
                "arguments, <<<blockDim, l2ctrl[, stream]>>>; this one has 4"},
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
