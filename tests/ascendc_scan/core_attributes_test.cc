// Tests of StripCoreAttributes (simdevice/ascendc/scanner/core_attributes.h): the
// [aicore] attributes of bisheng that npud's bisheng blanks in preprocessed units.

#include "simdevice/ascendc/scanner/core_attributes.h"

#include <string>

#include "gtest/gtest.h"

namespace npud::ascendc {
namespace {

TEST(AscendcScanCoreAttributesTest, BlanksEveryFormKeepingColumns) {
  std::string text =
      "# 1 \"k.asc\"\n"
      "inline [aicore] int f() { return 1; }\n"
      "inline [host, aicore] int g();\n"
      "extern \"C\" [ aicore ,host ] void k();\n"
      "inline[aicore]int h();\n";
  EXPECT_EQ(StripCoreAttributes(text), 4);
  EXPECT_EQ(text,
            "# 1 \"k.asc\"\n"
            "inline          int f() { return 1; }\n"
            "inline                int g();\n"
            "extern \"C\"                  void k();\n"
            "inline        int h();\n");
}

TEST(AscendcScanCoreAttributesTest, LeavesStringsCommentsAndOtherBracketsAlone) {
  const std::string original =
      "printf(\"[aicore] block %d\\n\", i); // [aicore]\n"
      "/* [host, aicore] */ int a[aicore_count]; auto l = [host](int x) { return x; };\n"
      "int v = table[aicore + 1]; char c = '[';\n";
  std::string text = original;
  EXPECT_EQ(StripCoreAttributes(text), 0);
  EXPECT_EQ(text, original);
}

}  // namespace
}  // namespace npud::ascendc
