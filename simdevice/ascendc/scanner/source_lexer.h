// source_lexer.h
//
// The lexical view of an AscendC kernel source that both passes of the scanner
// (kernel_scan.h, launch_rewrite.h) work on. Everything that is not code is set
// apart here once, so that neither pass can mistake a comment, a string or a
// disabled branch for a kernel or a launch:
//
//   * `code` is the text with comments, string and character literals (raw strings
//     and encoding prefixes included) and the lines of disabled `#if 0` groups
//     replaced by spaces. Newlines stay, so offsets and line numbers of `code` are
//     those of the text. Preprocessing directives stay code: a `<<<>>>` in a macro
//     body is a launch.
//   * `tokens` are the tokens of the code outside preprocessing directives, in order.
//     Punctuation is one character per token ("::" is two ':' tokens).
//
// Two kinds of input:
//   kSource        a source as written. Lines are its physical lines; `#line` is not
//                  followed. The only condition evaluated is `#if 0` (the condition
//                  is the single token 0): its group, up to the #else, #elif or
//                  #endif of the same level, is disabled.
//   kPreprocessed  `g++ -E -fdirectives-only` output (conditions resolved, includes
//                  expanded, macros not expanded). Line markers set file and line,
//                  and only tokens of the program's own files are kept: the main
//                  file and files with relative paths. The AscendC and system
//                  headers, found through absolute include directories, are not.
//
// Unterminated comments and literals end at the end of the text (strings and
// character literals at the end of their line), as a compiler would report them;
// the lexer itself never fails.

#ifndef NPUD_SIMDEVICE_ASCENDC_SCANNER_SOURCE_LEXER_H_
#define NPUD_SIMDEVICE_ASCENDC_SCANNER_SOURCE_LEXER_H_

#include <cstddef>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace npud::ascendc {

struct Token {
  enum class Kind { kIdentifier, kString, kCharacter, kNumber, kPunct };
  Kind kind;
  // Literals with their prefix and quotes.
  std::string text;
  // Index into LexedSource::files.
  int file;
  int line;
  // Byte offset of the token in LexedSource::text.
  size_t offset = 0;

  bool Is(char punct) const { return kind == Kind::kPunct && text.size() == 1 && text[0] == punct; }
  bool IsWord(absl::string_view word) const { return kind == Kind::kIdentifier && text == word; }
};

enum class InputKind { kSource, kPreprocessed };

struct LexedSource {
  std::string text;
  std::string code;
  std::vector<Token> tokens;
  // The files tokens come from; files[0] is the main file.
  std::vector<std::string> files;

  // The 1-based physical line of byte `offset` of the text.
  int LineOf(size_t offset) const;
};

// Lexes `text`; `main_file` names the source in diagnostics (kSource) or is the
// name its line markers give the main file (kPreprocessed).
LexedSource Lex(std::string text, InputKind kind, std::string main_file);

}  // namespace npud::ascendc

#endif  // NPUD_SIMDEVICE_ASCENDC_SCANNER_SOURCE_LEXER_H_
