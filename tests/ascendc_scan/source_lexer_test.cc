// Tests of the scanner's lexer (simdevice/ascendc/scanner/source_lexer.h): what is
// code, which tokens the scan sees, and the files and lines they come from.

#include "simdevice/ascendc/scanner/source_lexer.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace npud::ascendc {
namespace {

// The token texts, space-separated.
std::string Texts(const LexedSource& lexed) {
  std::string texts;
  for (const Token& token : lexed.tokens) {
    if (!texts.empty()) texts += ' ';
    texts += token.text;
  }
  return texts;
}

TEST(AscendcScanLexerTest, CommentsAndLiteralsAreBlankedInTheCode) {
  const std::string text =
      "a // one <<<\n"
      "/* two\n   lines */ b\n"
      "\"s<<<\" 'c' L\"wide\" u8'x'\n"
      "R\"tag(raw )\" still\n raw)tag\" 1'000'000 c\n";
  const LexedSource lexed = Lex(text, InputKind::kSource, "f.cpp");
  EXPECT_EQ(lexed.text, text);
  // Every byte of a comment or literal is a space (the newlines stay).
  EXPECT_EQ(lexed.code, "a" + std::string(11, ' ') + "\n" + std::string(6, ' ') + "\n" +
                            std::string(12, ' ') + "b\n" + std::string(24, ' ') + "\n" +
                            std::string(18, ' ') + "\n" + std::string(10, ' ') + "1'000'000 c\n");
  EXPECT_EQ(Texts(lexed),
            "a b \"s<<<\" 'c' L\"wide\" u8'x' R\"tag(raw )\" still\n raw)tag\" "
            "1'000'000 c");
  ASSERT_EQ(lexed.tokens.size(), 9u);
  EXPECT_EQ(lexed.tokens[0].kind, Token::Kind::kIdentifier);
  EXPECT_EQ(lexed.tokens[2].kind, Token::Kind::kString);
  EXPECT_EQ(lexed.tokens[3].kind, Token::Kind::kCharacter);
  EXPECT_EQ(lexed.tokens[6].kind, Token::Kind::kString);
  EXPECT_EQ(lexed.tokens[7].kind, Token::Kind::kNumber);
  // Lines: b after the block comment, c after the two-line raw string.
  EXPECT_EQ(lexed.tokens[1].line, 3);
  EXPECT_EQ(lexed.tokens[6].line, 5);
  EXPECT_EQ(lexed.tokens[8].line, 6);
}

TEST(AscendcScanLexerTest, UnterminatedLiteralsEndAtTheirLine) {
  const LexedSource lexed = Lex("x = 'unclosed\ny \"open\nz", InputKind::kSource, "f.cpp");
  EXPECT_EQ(Texts(lexed), "x = 'unclosed y \"open z");
  EXPECT_EQ(lexed.tokens.back().line, 3);
}

TEST(AscendcScanLexerTest, AnInvalidRawStringDelimiterIsAnOrdinaryString) {
  const LexedSource lexed = Lex("R\"a b(x)a b\" y", InputKind::kSource, "f.cpp");
  EXPECT_EQ(Texts(lexed), "R\"a b(x)a b\" y");
}

TEST(AscendcScanLexerTest, DirectivesAreCodeButNotTokens) {
  const LexedSource lexed =
      Lex("#define K(x) x<<<1, 2, 3>>>() // c\n  /* c */ # include \"h.h\"\nint v;\n",
          InputKind::kSource, "f.cpp");
  EXPECT_EQ(Texts(lexed), "int v ;");
  EXPECT_EQ(lexed.code, "#define K(x) x<<<1, 2, 3>>>()     \n          # include      \nint v;\n");
}

TEST(AscendcScanLexerTest, IfZeroGroupsAreDisabled) {
  const std::string text =
      "a\n"
      "#if 0\n"
      "b /* #endif */\n"
      "#ifdef X\n"
      "c\n"
      "#else\n"
      "d\n"
      "#endif\n"
      "e\n"
      "#else\n"
      "f\n"
      "#endif\n"
      "#if 0 || X\n"
      "g\n"
      "#endif\n";
  const LexedSource lexed = Lex(text, InputKind::kSource, "f.cpp");
  EXPECT_EQ(Texts(lexed), "a f g");
  EXPECT_EQ(lexed.code,
            "a\n#if 0\n              \n        \n \n     \n \n      \n \n#else\nf\n#endif\n"
            "#if 0 || X\ng\n#endif\n");
}

TEST(AscendcScanLexerTest, AnUnclosedIfZeroDisablesTheRest) {
  const LexedSource lexed = Lex("a\n#if 0\nb\n#elif 1\nc\n#if 0\nd\n", InputKind::kSource, "f");
  EXPECT_EQ(Texts(lexed), "a c");
  EXPECT_EQ(lexed.code, "a\n#if 0\n \n#elif 1\nc\n#if 0\n \n");
}

TEST(AscendcScanLexerTest, SourceLinesArePhysicalLines) {
  const LexedSource lexed =
      Lex("#line 100 \"other.cpp\"\nint \\\nx;\n", InputKind::kSource, "f.cpp");
  ASSERT_EQ(lexed.tokens.size(), 3u);
  EXPECT_EQ(lexed.tokens[0].line, 2);
  EXPECT_EQ(lexed.tokens[1].line, 3);
  EXPECT_EQ(lexed.files, std::vector<std::string>{"f.cpp"});
  EXPECT_EQ(lexed.LineOf(0), 1);
  EXPECT_EQ(lexed.LineOf(lexed.text.find('x')), 3);
}

TEST(AscendcScanLexerTest, PreprocessedInputKeepsOnlyTheProgramsOwnFiles) {
  const std::string text =
      "# 0 \".npud_rtc_unit.cpp\"\n"
      "# 0 \"<built-in>\"\n"
      "builtin\n"
      "# 1 \"/abs/kernel_operator.h\" 1\n"
      "toolchain {\n"
      "# 3 \"/abs/prog.cpp\" 2\n"
      "main_file\n"
      "# 1 \"sub/own.h\" 1\n"
      "header\n"
      "#line 20 \"./other.h\"\n"
      "\n"
      "other\n";
  const LexedSource lexed = Lex(text, InputKind::kPreprocessed, "/abs/prog.cpp");
  EXPECT_EQ(Texts(lexed), "main_file header other");
  ASSERT_EQ(lexed.tokens.size(), 3u);
  EXPECT_EQ(lexed.files[lexed.tokens[0].file], "/abs/prog.cpp");
  EXPECT_EQ(lexed.tokens[0].line, 3);
  EXPECT_EQ(lexed.files[lexed.tokens[1].file], "sub/own.h");
  EXPECT_EQ(lexed.tokens[1].line, 1);
  EXPECT_EQ(lexed.files[lexed.tokens[2].file], "./other.h");
  EXPECT_EQ(lexed.tokens[2].line, 21);
  EXPECT_EQ(lexed.files[0], "/abs/prog.cpp");
}

TEST(AscendcScanLexerTest, LineMarkerFileNamesAreUnescaped) {
  const LexedSource lexed =
      Lex("# 7 \"dir/a\\\"b\\\\c.h\"\nx\n", InputKind::kPreprocessed, "main.cpp");
  ASSERT_EQ(lexed.tokens.size(), 1u);
  EXPECT_EQ(lexed.files[lexed.tokens[0].file], "dir/a\"b\\c.h");
  EXPECT_EQ(lexed.tokens[0].line, 7);
}

}  // namespace
}  // namespace npud::ascendc
