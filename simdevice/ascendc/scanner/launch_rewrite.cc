#include "simdevice/ascendc/scanner/launch_rewrite.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace npud::ascendc {
namespace {

constexpr size_t kNone = std::string::npos;

bool IsBlank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
bool StartsIdentifier(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool IsIdentifierChar(char c) { return StartsIdentifier(c) || (c >= '0' && c <= '9'); }

// The kernel name's string: whitespace runs as one space, none around "::", no
// leading "::", escaped for a string literal.
std::string NameString(absl::string_view code) {
  std::string collapsed;
  for (size_t i = 0; i < code.size(); ++i) {
    if (IsBlank(code[i])) {
      if (collapsed.empty() || collapsed.back() != ' ') collapsed += ' ';
    } else if (code.compare(i, 2, "::") == 0) {
      if (!collapsed.empty() && collapsed.back() == ' ') collapsed.pop_back();
      collapsed += "::";
      ++i;
      if (i + 1 < code.size() && IsBlank(code[i + 1])) {
        while (i + 1 < code.size() && IsBlank(code[i + 1])) ++i;
      }
    } else {
      collapsed += code[i];
    }
  }
  absl::string_view name = collapsed;
  if (name.substr(0, 2) == "::") name.remove_prefix(2);
  std::string escaped;
  for (char c : name) {
    if (c == '"' || c == '\\') escaped += '\\';
    escaped += c;
  }
  return escaped;
}

class Rewriter {
 public:
  Rewriter(const LexedSource& source, std::vector<std::string>* launched)
      : source_(source), code_(source.code), text_(source.text), launched_(launched) {}

  absl::StatusOr<std::string> Run() {
    std::string out;
    size_t cursor = 0;
    for (size_t open = code_.find("<<<"); open != kNone; open = code_.find("<<<", open + 3)) {
      if (open < cursor) continue;  // "<<<<": part of the launch just rewritten
      absl::Status status = Launch(open, &cursor, &out);
      if (!status.ok()) return status;
    }
    absl::StrAppend(&out, text_.substr(cursor));
    return out;
  }

 private:
  absl::Status Fail(size_t at, absl::string_view what) const {
    return absl::InvalidArgumentError(
        absl::StrCat(source_.files[0], ":", source_.LineOf(at), ": error: ", what));
  }

  size_t SkipBlanksBack(size_t at) const {
    while (at > 0 && IsBlank(code_[at - 1])) --at;
    return at;
  }

  // The start of the identifier that ends at `at`, or kNone.
  size_t IdentifierEndingAt(size_t at) const {
    size_t run = at;
    while (run > 0 && IsIdentifierChar(code_[run - 1])) --run;
    for (size_t k = run; k < at; ++k) {
      if (StartsIdentifier(code_[k])) return k;
    }
    return kNone;
  }

  // Rewrites the launch whose "<<<" is at `open`: appends the text from *cursor
  // through the launch's ">>>" to *out and moves *cursor past it.
  absl::Status Launch(size_t open, size_t* cursor, std::string* out) const {
    // The name: [::]a::b[<template arguments>], whitespace allowed.
    const size_t name_end = SkipBlanksBack(open);
    size_t plain_end = name_end;
    if (plain_end > 0 && code_[plain_end - 1] == '>') {
      // Back over the template arguments; '<' and '>' in parentheses are operators.
      int angle = 0, paren = 0;
      size_t template_start = kNone;
      for (size_t i = plain_end; i > 0 && template_start == kNone;) {
        const char c = code_[--i];
        if (c == ')') {
          ++paren;
        } else if (c == '(') {
          --paren;
        } else if (paren == 0 && c == '>') {
          ++angle;
        } else if (paren == 0 && c == '<') {
          if (--angle == 0) template_start = i;
        } else if (paren == 0 && (c == ';' || c == '{' || c == '}')) {
          break;
        }
      }
      if (template_start == kNone) return Fail(open, "cannot find the kernel name before '<<<'");
      plain_end = SkipBlanksBack(template_start);
    }
    size_t name_start = IdentifierEndingAt(plain_end);
    if (name_start == kNone) return Fail(open, "cannot find the kernel name before '<<<'");
    while (true) {  // qualifiers
      const size_t colons = SkipBlanksBack(name_start);
      if (colons < 2 || code_.compare(colons - 2, 2, "::") != 0) break;
      const size_t outer = IdentifierEndingAt(SkipBlanksBack(colons - 2));
      if (outer == kNone) {
        name_start = colons - 2;  // a leading "::"
        break;
      }
      name_start = outer;
    }

    // The matching ">>>": the first one outside brackets before the statement ends;
    // the commas outside brackets separate the launch arguments.
    size_t close = kNone;
    int depth = 0, commas = 0;
    for (size_t p = open + 3; p < code_.size(); ++p) {
      const char c = code_[p];
      if (c == '(' || c == '[' || c == '{') {
        ++depth;
      } else if (c == ')' || c == ']' || c == '}') {
        if (--depth < 0) break;
      } else if (c == ';') {
        break;
      } else if (c == ',' && depth == 0) {
        ++commas;
      } else if (c == '>' && depth == 0 && code_.compare(p, 3, ">>>") == 0) {
        close = p;
        break;
      }
    }
    if (close == kNone) return Fail(open, "no '>>>' closes this '<<<'");
    if (commas != 1 && commas != 2) {
      return Fail(open, absl::StrCat("a kernel launch takes two or three arguments, "
                                     "<<<blockDim, l2ctrl[, stream]>>>; this one has ",
                                     commas + 1));
    }
    const size_t after = close + 3;
    size_t arguments = after;
    while (arguments < code_.size() && IsBlank(code_[arguments])) ++arguments;
    if (arguments == code_.size() || code_[arguments] != '(') {
      return Fail(open, "expected the kernel arguments '(...)' after '>>>'");
    }

    absl::StrAppend(out, text_.substr(*cursor, name_start - *cursor));
    const std::string spelling = NameString(code_.substr(name_start, name_end - name_start));
    NoteLaunched(spelling);
    absl::StrAppend(out, "::npud_ascendc_launch<(", text_.substr(name_start, name_end - name_start),
                    ")>(\"", spelling, "\",");
    const absl::string_view inner = text_.substr(open + 3, close - open - 3);
    if (!IsBlank(inner[0])) out->push_back(' ');
    // The whitespace between the name and "<<<" goes after the call: same line breaks.
    absl::StrAppend(out, inner, ")", text_.substr(name_end, open - name_end));
    *cursor = after;
    return absl::OkStatus();
  }

  void NoteLaunched(absl::string_view spelling) const {
    if (launched_ == nullptr) return;
    absl::string_view base = spelling.substr(0, spelling.find('<'));
    if (const size_t colons = base.rfind("::"); colons != absl::string_view::npos) {
      base.remove_prefix(colons + 2);
    }
    if (std::find(launched_->begin(), launched_->end(), base) == launched_->end()) {
      launched_->emplace_back(base);
    }
  }

  const LexedSource& source_;
  // Views of the source's strings.
  const absl::string_view code_;
  const absl::string_view text_;
  std::vector<std::string>* const launched_;
};

}  // namespace

absl::StatusOr<std::string> RewriteLaunches(const LexedSource& source,
                                            std::vector<std::string>* launched) {
  return Rewriter(source, launched).Run();
}

}  // namespace npud::ascendc
