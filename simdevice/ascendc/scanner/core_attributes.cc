#include "simdevice/ascendc/scanner/core_attributes.h"

#include <cstddef>
#include <vector>

#include "simdevice/ascendc/scanner/source_lexer.h"

namespace npud::ascendc {
namespace {

// The length in tokens of an attribute starting at tokens[i] ('['), or 0.
size_t AttributeAt(const std::vector<Token>& tokens, size_t i) {
  const auto word = [&](size_t k, const char* w) {
    return k < tokens.size() && tokens[k].IsWord(w);
  };
  const auto punct = [&](size_t k, char c) { return k < tokens.size() && tokens[k].Is(c); };
  if (!punct(i, '[')) return 0;
  if (word(i + 1, "aicore") && punct(i + 2, ']')) return 3;
  if (word(i + 1, "host") && punct(i + 2, ',') && word(i + 3, "aicore") && punct(i + 4, ']')) {
    return 5;
  }
  if (word(i + 1, "aicore") && punct(i + 2, ',') && word(i + 3, "host") && punct(i + 4, ']')) {
    return 5;
  }
  return 0;
}

}  // namespace

int StripCoreAttributes(std::string& text) {
  // The lexer sets literals and comments apart; line markers are directives,
  // whose tokens it does not list.
  const LexedSource lexed = Lex(text, InputKind::kSource, "");
  int stripped = 0;
  for (size_t i = 0; i < lexed.tokens.size(); ++i) {
    const size_t length = AttributeAt(lexed.tokens, i);
    if (length == 0) continue;
    const size_t begin = lexed.tokens[i].offset;
    const size_t end = lexed.tokens[i + length - 1].offset + 1;
    for (size_t k = begin; k < end; ++k) {
      if (text[k] != '\n') text[k] = ' ';
    }
    ++stripped;
    i += length - 1;
  }
  return stripped;
}

}  // namespace npud::ascendc
