#include "simdevice/ascendc/scanner/source_lexer.h"

#include <algorithm>
#include <utility>

#include "absl/container/flat_hash_map.h"

namespace npud::ascendc {
namespace {

bool IsIdentifierStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$';
}
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsIdentifierChar(char c) { return IsIdentifierStart(c) || IsDigit(c); }

// A character of a raw string's delimiter (C++'s d-char).
bool IsDelimiterChar(char c) {
  return c != ' ' && c != '(' && c != ')' && c != '\\' && c != '\t' && c != '\v' && c != '\f' &&
         c != '\r' && c != '\n';
}
constexpr size_t kMaxDelimiter = 16;

// The file name of a line marker's string literal.
std::string Unquote(absl::string_view literal) {
  std::string name;
  for (size_t i = 1; i + 1 < literal.size(); ++i) {
    if (literal[i] == '\\' && i + 2 < literal.size()) ++i;
    name += literal[i];
  }
  return name;
}

class Lexer {
 public:
  Lexer(std::string text, InputKind kind, std::string main_file) : kind_(kind) {
    out_.code = text;
    out_.text = std::move(text);
    file_index_[main_file] = 0;
    out_.files.push_back(std::move(main_file));
  }

  LexedSource Run() && {
    while (pos_ < size()) Step();
    if (in_directive_) EndDirective(size());
    if (disabled_depth_ > 0) Blank(disabled_from_, size());
    return std::move(out_);
  }

 private:
  size_t size() const { return out_.text.size(); }
  char At(size_t i) const { return i < size() ? out_.text[i] : '\0'; }

  void Step() {
    const char c = out_.text[pos_];
    if (c == '\n') {
      if (in_directive_) EndDirective(pos_);
      ++pos_;
      ++line_;
      line_begin_ = pos_;
      at_line_start_ = true;
      return;
    }
    if (c == '\\' && At(pos_ + 1) == '\n') {  // line splice: the logical line goes on
      pos_ += 2;
      ++line_;
      return;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      ++pos_;
      return;
    }
    // Comments are whitespace: a directive may follow one on its line.
    if (c == '/' && At(pos_ + 1) == '/') {
      LineComment();
      return;
    }
    if (c == '/' && At(pos_ + 1) == '*') {
      const size_t end = out_.text.find("*/", pos_ + 2);
      const size_t begin = pos_;
      AdvanceTo(end == std::string::npos ? size() : end + 2);
      Blank(begin, pos_);
      return;
    }
    if (c == '#' && at_line_start_ && !in_directive_) {
      in_directive_ = true;
      directive_.clear();
      directive_line_begin_ = line_begin_;
      ++pos_;
      return;
    }
    at_line_start_ = false;
    if (IsIdentifierStart(c)) {
      Word();
    } else if (IsDigit(c) || (c == '.' && IsDigit(At(pos_ + 1)))) {
      Number();
    } else if (c == '"' || c == '\'') {
      Quoted(pos_, pos_);
    } else {
      Emit(Token::Kind::kPunct, pos_, pos_ + 1, line_);
      ++pos_;
    }
  }

  // Moves to `stop`, counting the newlines passed.
  void AdvanceTo(size_t stop) {
    for (; pos_ < stop; ++pos_) {
      if (out_.text[pos_] == '\n') {
        ++line_;
        line_begin_ = pos_ + 1;
      }
    }
  }

  // Blanks [begin, end) of the code, newlines excepted.
  void Blank(size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      if (out_.code[i] != '\n') out_.code[i] = ' ';
    }
  }

  void Emit(Token::Kind kind, size_t begin, size_t end, int line) {
    Token token{kind, out_.text.substr(begin, end - begin), file_, line, begin};
    if (in_directive_) {
      directive_.push_back(std::move(token));
    } else if (disabled_depth_ == 0 && user_file_) {
      out_.tokens.push_back(std::move(token));
    }
  }

  void LineComment() {
    const size_t begin = pos_;
    while (pos_ < size() && out_.text[pos_] != '\n') {
      if (out_.text[pos_] == '\\' && At(pos_ + 1) == '\n') {  // a spliced comment goes on
        ++line_;
        ++pos_;
      }
      ++pos_;
    }
    Blank(begin, pos_);
  }

  void Word() {
    const size_t begin = pos_;
    while (pos_ < size() && IsIdentifierChar(out_.text[pos_])) ++pos_;
    const absl::string_view word(out_.text.data() + begin, pos_ - begin);
    const char next = At(pos_);
    if (next == '"' &&
        (word == "R" || word == "LR" || word == "uR" || word == "UR" || word == "u8R")) {
      RawString(begin);
    } else if ((next == '"' || next == '\'') &&
               (word == "L" || word == "u" || word == "U" || word == "u8")) {
      Quoted(begin, pos_);
    } else {
      Emit(Token::Kind::kIdentifier, begin, pos_, line_);
    }
  }

  // A pp-number, digit separators included (1'000'000).
  void Number() {
    const size_t begin = pos_++;
    while (pos_ < size()) {
      const char c = out_.text[pos_];
      if ((c == '+' || c == '-') &&
          absl::string_view("eEpP").find(out_.text[pos_ - 1]) != absl::string_view::npos) {
        ++pos_;
      } else if (IsIdentifierChar(c) || c == '.') {
        ++pos_;
      } else if (c == '\'' && IsIdentifierChar(At(pos_ + 1))) {
        pos_ += 2;
      } else {
        break;
      }
    }
    Emit(Token::Kind::kNumber, begin, pos_, line_);
  }

  // A string or character literal whose prefix starts at `begin` and whose opening
  // quote is at `quote`.
  void Quoted(size_t begin, size_t quote) {
    const char delimiter = out_.text[quote];
    const int line = line_;
    pos_ = quote + 1;
    while (pos_ < size() && out_.text[pos_] != delimiter && out_.text[pos_] != '\n') {
      if (out_.text[pos_] == '\\' && pos_ + 1 < size()) {
        if (out_.text[pos_ + 1] == '\n') ++line_;
        ++pos_;
      }
      ++pos_;
    }
    if (pos_ < size() && out_.text[pos_] == delimiter) ++pos_;
    Blank(begin, pos_);
    Emit(delimiter == '"' ? Token::Kind::kString : Token::Kind::kCharacter, begin, pos_, line);
  }

  // prefix R"delimiter( ... )delimiter"; without a valid opening, an ordinary string.
  void RawString(size_t begin) {
    const size_t quote = pos_;
    const int line = line_;
    size_t open = quote + 1;
    while (open < size() && open - quote - 1 <= kMaxDelimiter && IsDelimiterChar(out_.text[open])) {
      ++open;
    }
    if (At(open) != '(' || open - quote - 1 > kMaxDelimiter) {
      Quoted(begin, quote);
      return;
    }
    const std::string closing = ")" + out_.text.substr(quote + 1, open - quote - 1) + "\"";
    const size_t end = out_.text.find(closing, open + 1);
    AdvanceTo(end == std::string::npos ? size() : end + closing.size());
    Blank(begin, pos_);
    Emit(Token::Kind::kString, begin, pos_, line);
  }

  // The directive whose tokens are in directive_ ends at `end` (its newline, or the
  // end of the text).
  void EndDirective(size_t end) {
    in_directive_ = false;
    const std::string name = !directive_.empty() && directive_[0].kind == Token::Kind::kIdentifier
                                 ? directive_[0].text
                                 : std::string();
    if (disabled_depth_ > 0) {
      if (name == "if" || name == "ifdef" || name == "ifndef") {
        ++disabled_depth_;
      } else if (name == "endif") {
        --disabled_depth_;
      } else if (disabled_depth_ == 1 && (name == "else" || name.rfind("elif", 0) == 0)) {
        disabled_depth_ = 0;
      }
      // The closing line itself is code again.
      if (disabled_depth_ == 0) Blank(disabled_from_, directive_line_begin_);
      return;
    }
    if (name == "if" && directive_.size() == 2 && directive_[1].kind == Token::Kind::kNumber &&
        directive_[1].text == "0") {
      disabled_depth_ = 1;
      disabled_from_ = std::min(end + 1, size());
      return;
    }
    if (kind_ == InputKind::kPreprocessed) LineMarker();
  }

  // `# <line> "<file>" <flags>` or `#line <line> "<file>"`.
  void LineMarker() {
    size_t i = !directive_.empty() && directive_[0].IsWord("line") ? 1 : 0;
    if (i >= directive_.size() || directive_[i].kind != Token::Kind::kNumber) return;
    int number = 0;
    for (char c : directive_[i].text) {
      if (!IsDigit(c)) return;
      if (number < 100000000) number = number * 10 + (c - '0');
    }
    if (i + 1 < directive_.size() && directive_[i + 1].kind == Token::Kind::kString) {
      SetFile(Unquote(directive_[i + 1].text));
    }
    line_ = number - 1;  // the newline that ends the marker makes it `number`
  }

  void SetFile(std::string name) {
    // The main file, or one of the program's own (relative) headers; not the absolute
    // paths of the toolchain's and system headers, nor <built-in> or <command-line>.
    user_file_ = name == out_.files[0] || (!name.empty() && name[0] != '/' && name[0] != '<');
    auto [it, added] = file_index_.try_emplace(name, static_cast<int>(out_.files.size()));
    if (added) out_.files.push_back(std::move(name));
    file_ = it->second;
  }

  const InputKind kind_;
  LexedSource out_;
  absl::flat_hash_map<std::string, int> file_index_;
  size_t pos_ = 0;
  int line_ = 1;
  // Where the current physical line begins.
  size_t line_begin_ = 0;
  // Nothing but whitespace and comments so far on this line.
  bool at_line_start_ = true;
  int file_ = 0;
  bool user_file_ = true;

  bool in_directive_ = false;
  std::vector<Token> directive_;
  size_t directive_line_begin_ = 0;

  // Inside an `#if 0` group: its nesting depth, and where its disabled lines begin.
  int disabled_depth_ = 0;
  size_t disabled_from_ = 0;
};

}  // namespace

int LexedSource::LineOf(size_t offset) const {
  offset = std::min(offset, text.size());
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + offset, '\n'));
}

LexedSource Lex(std::string text, InputKind kind, std::string main_file) {
  return Lexer(std::move(text), kind, std::move(main_file)).Run();
}

}  // namespace npud::ascendc
