// tiling_key_expression.h: evaluates the condition string of
// REGISTER_TILING_FOR_TILINGKEY ("(TILING_KEY_VAR >= 10) && (TILING_KEY_VAR <= 15)")
// for a tiling key. The reference allows integer literals (decimal, 0x hex),
// TILING_KEY_VAR, parentheses and the operators ~ ! unary - * / % + - << >> < <= > >=
// == != & ^ | && ||, with C++'s precedence; values are uint64_t as the key is.
// A malformed expression or a division by zero is reported, not guessed at.
#ifndef NPUD_ASCENDC_TILING_KEY_EXPRESSION_H_
#define NPUD_ASCENDC_TILING_KEY_EXPRESSION_H_

#include <cstdint>
#include <cstring>

namespace npud::ascendc {

class TilingKeyExpression {
 public:
  TilingKeyExpression(const char* text, uint64_t key) : p_(text), key_(key) {}

  // The value of the whole expression; false (and *error set) if it is malformed.
  bool Evaluate(uint64_t* value, const char** error) {
    *value = Binary(0);
    Skip();
    if (error_ == nullptr && *p_ != '\0') error_ = "unexpected text after the expression";
    *error = error_;
    return error_ == nullptr;
  }

 private:
  // Binary operators from the loosest binding (level 0, ||) to the tightest (*).
  static constexpr int kLevels = 10;

  void Skip() {
    while (*p_ == ' ' || *p_ == '\t') ++p_;
  }
  bool Take(const char* op) {
    Skip();
    const size_t n = std::strlen(op);
    if (std::strncmp(p_, op, n) != 0) return false;
    // "&" must not take the first half of "&&", "<" not that of "<<" or "<=", ...
    if (n == 1 && (p_[1] == op[0] || (p_[1] == '=' && (op[0] == '<' || op[0] == '>')))) {
      return false;
    }
    p_ += n;
    return true;
  }

  uint64_t Binary(int level) {
    if (level == kLevels) return Unary();
    uint64_t left = Binary(level + 1);
    while (error_ == nullptr) {
      const char* op = Operator(level);
      if (op == nullptr) break;
      const uint64_t right = Binary(level + 1);
      left = Apply(op, left, right);
    }
    return left;
  }

  // The operator of `level` at the cursor (consumed), or nullptr.
  const char* Operator(int level) {
    static const char* const kOps[kLevels][4] = {{"||"},
                                                 {"&&"},
                                                 {"|"},
                                                 {"^"},
                                                 {"&"},
                                                 {"==", "!="},
                                                 {"<=", ">=", "<", ">"},
                                                 {"<<", ">>"},
                                                 {"+", "-"},
                                                 {"*", "/", "%"}};
    for (const char* op : kOps[level]) {
      if (op != nullptr && Take(op)) return op;
    }
    return nullptr;
  }

  uint64_t Apply(const char* op, uint64_t a, uint64_t b) {
    if (!std::strcmp(op, "||")) return (a != 0 || b != 0) ? 1 : 0;
    if (!std::strcmp(op, "&&")) return (a != 0 && b != 0) ? 1 : 0;
    if (!std::strcmp(op, "|")) return a | b;
    if (!std::strcmp(op, "^")) return a ^ b;
    if (!std::strcmp(op, "&")) return a & b;
    if (!std::strcmp(op, "==")) return a == b ? 1 : 0;
    if (!std::strcmp(op, "!=")) return a != b ? 1 : 0;
    if (!std::strcmp(op, "<=")) return a <= b ? 1 : 0;
    if (!std::strcmp(op, ">=")) return a >= b ? 1 : 0;
    if (!std::strcmp(op, "<")) return a < b ? 1 : 0;
    if (!std::strcmp(op, ">")) return a > b ? 1 : 0;
    if (!std::strcmp(op, "<<")) return b >= 64 ? 0 : a << b;
    if (!std::strcmp(op, ">>")) return b >= 64 ? 0 : a >> b;
    if (!std::strcmp(op, "+")) return a + b;
    if (!std::strcmp(op, "-")) return a - b;
    if (!std::strcmp(op, "*")) return a * b;
    if (b == 0) {
      error_ = "division by zero";
      return 0;
    }
    return !std::strcmp(op, "/") ? a / b : a % b;
  }

  uint64_t Unary() {
    Skip();
    if (*p_ == '~') return ++p_, ~Unary();
    if (*p_ == '!' && p_[1] != '=') return ++p_, Unary() == 0 ? 1 : 0;
    if (*p_ == '-') return ++p_, 0 - Unary();
    if (*p_ == '+') return ++p_, Unary();
    if (*p_ == '(') {
      ++p_;
      const uint64_t v = Binary(0);
      if (!Take(")") && error_ == nullptr) error_ = "missing ')'";
      return v;
    }
    static const char kVar[] = "TILING_KEY_VAR";
    if (std::strncmp(p_, kVar, sizeof(kVar) - 1) == 0) {
      p_ += sizeof(kVar) - 1;
      return key_;
    }
    if (*p_ >= '0' && *p_ <= '9') {
      uint64_t v = 0;
      if (p_[0] == '0' && (p_[1] == 'x' || p_[1] == 'X')) {
        p_ += 2;
        for (;; ++p_) {
          const char c = *p_;
          const int d = c >= '0' && c <= '9'   ? c - '0'
                        : c >= 'a' && c <= 'f' ? c - 'a' + 10
                        : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                               : -1;
          if (d < 0) break;
          v = v * 16 + static_cast<uint64_t>(d);
        }
      } else {
        for (; *p_ >= '0' && *p_ <= '9'; ++p_) v = v * 10 + static_cast<uint64_t>(*p_ - '0');
      }
      while (*p_ == 'u' || *p_ == 'U' || *p_ == 'l' || *p_ == 'L') ++p_;
      return v;
    }
    if (error_ == nullptr) error_ = "expected a number, TILING_KEY_VAR or '('";
    return 0;
  }

  const char* p_;
  uint64_t key_;
  const char* error_ = nullptr;
};

}  // namespace npud::ascendc

#endif  // NPUD_ASCENDC_TILING_KEY_EXPRESSION_H_
