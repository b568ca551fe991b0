#include "simdevice/ascendc/scanner/kernel_scan.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/string_view.h"

namespace npud::ascendc {
namespace {

// Braces, by what the statement before them opens.
enum class Scope { kNamespace, kLinkageC, kLinkageCxx, kBody };

// Whether the source uses the Matmul API in CANN's default mix mode: it includes
// lib/matmul_intf.h (an #include line, or the line marker of a preprocessed unit)
// without having defined ASCENDC_CUBE_ONLY first. CANN then builds its plain
// `__aicore__` kernels as mix kernels (one cube and two vector cores per block),
// whose vector cores drive the Matmul.
bool MatmulMakesMixKernels(const LexedSource& source) {
  bool cube_only = false;
  size_t start = 0;
  while (start < source.code.size()) {
    size_t end = source.code.find('\n', start);
    if (end == std::string::npos) end = source.code.size();
    const absl::string_view code = absl::StripLeadingAsciiWhitespace(
        absl::string_view(source.code).substr(start, end - start));
    if (absl::StartsWith(code, "#")) {
      // Literals are blanked in `code`; the directive's text has the names.
      const absl::string_view text = absl::string_view(source.text).substr(start, end - start);
      if (absl::StrContains(text, "define") && absl::StrContains(text, "ASCENDC_CUBE_ONLY")) {
        cube_only = true;
      }
      if (absl::StrContains(text, "lib/matmul_intf.h")) return !cube_only;
    }
    start = end + 1;
  }
  return false;
}

class Scanner {
 public:
  Scanner(const LexedSource& source, const ScanRules& rules)
      : source_(source), rules_(rules), matmul_mix_(MatmulMakesMixKernels(source)) {}

  // Splits the tokens into statements: what lies between two of ';', '{' and '}'
  // outside parentheses and brackets (so a lambda in an argument list stays inside
  // its statement).
  KernelScan Run() && {
    std::vector<const Token*> statement;
    int paren_depth = 0;
    for (const Token& token : source_.tokens) {
      if (token.Is('(') || token.Is('[')) ++paren_depth;
      if ((token.Is(')') || token.Is(']')) && paren_depth > 0) --paren_depth;
      if (paren_depth > 0) {
        statement.push_back(&token);
      } else if (token.Is('{')) {
        pending_.reset();
        if (AtGlobalScope()) {
          // A brace initializer: the variable ends at the ';' after the braces.
          if (const Token* name = VariableName(statement)) {
            pending_ = PendingVariable{Variable(statement, *name), scopes_.size()};
          }
        }
        scopes_.push_back(Open(statement));
        statement.clear();
      } else if (token.Is('}')) {
        if (!scopes_.empty()) scopes_.pop_back();
        if (body_kernel_.has_value() && scopes_.size() < body_kernel_->depth) body_kernel_.reset();
        statement.clear();
      } else if (token.Is(';')) {
        if (pending_.has_value() && statement.empty() && scopes_.size() == pending_->depth) {
          pending_->variable.end = token.offset + 1;
          result_.variables.push_back(std::move(pending_->variable));
        } else if (AtGlobalScope() && !statement.empty()) {
          if (const Token* name = VariableName(statement)) {
            DeviceVariable variable = Variable(statement, *name);
            variable.end = token.offset + 1;
            result_.variables.push_back(std::move(variable));
          }
        }
        pending_.reset();
        if (!InBody()) NoteRegistration(statement);
        if (body_kernel_.has_value()) NoteKernelType(statement);
        statement.clear();
      } else {
        statement.push_back(&token);
      }
    }
    return std::move(result_);
  }

 private:
  using Statement = std::vector<const Token*>;

  bool InBody() const {
    return std::find(scopes_.begin(), scopes_.end(), Scope::kBody) != scopes_.end();
  }

  // Outside namespaces, classes and functions (linkage blocks are global scope).
  bool AtGlobalScope() const {
    return std::all_of(scopes_.begin(), scopes_.end(), [](Scope scope) {
      return scope == Scope::kLinkageC || scope == Scope::kLinkageCxx;
    });
  }

  // The name `statement` defines if it is a device variable (DeviceVariable), else
  // null: `__gm__` outside parentheses, one declarator, no '(' before the
  // initializer, and none of the words that make it something else. The name is the
  // last identifier before the first '[' or '=' outside brackets.
  static const Token* VariableName(const Statement& statement) {
    static const absl::flat_hash_set<absl::string_view> kNotVariables = {
        "extern",     "typedef", "using",    "template",  "constexpr",    "__global__",
        "__aicore__", "friend",  "operator", "namespace", "static_assert"};
    static const absl::flat_hash_set<absl::string_view> kClassKeys = {"struct", "class", "union",
                                                                      "enum"};
    bool gm = false;
    const Token* name = nullptr;
    const Token* before_name = nullptr;
    bool declarator_done = false;
    int depth = 0;
    const Token* previous = nullptr;
    for (const Token* t : statement) {
      if (depth == 0) {
        if (t->Is('=')) break;
        if (t->Is('(') || t->Is(',')) return nullptr;
        if (t->Is('[')) declarator_done = true;
        if (t->kind == Token::Kind::kIdentifier) {
          if (kNotVariables.contains(t->text)) return nullptr;
          if (t->text == "__gm__") gm = true;
          if (!declarator_done) {
            name = t;
            before_name = previous;
          }
        }
      }
      previous = t;
      if (t->Is('(') || t->Is('[') || t->Is('{')) ++depth;
      if ((t->Is(')') || t->Is(']') || t->Is('}')) && depth > 0) --depth;
    }
    // `struct S {` names a type, not a variable.
    if (!gm || name == nullptr || name->text == "__gm__" || kClassKeys.contains(name->text) ||
        (before_name != nullptr && kClassKeys.contains(before_name->text))) {
      return nullptr;
    }
    return name;
  }

  DeviceVariable Variable(const Statement& statement, const Token& name) const {
    DeviceVariable variable;
    variable.name = name.text;
    variable.begin = statement.front()->offset;
    variable.line = name.line;
    return variable;
  }

  static bool EndsWithLinkage(const Statement& s, absl::string_view language) {
    return s.size() >= 2 && s[s.size() - 2]->IsWord("extern") &&
           s.back()->kind == Token::Kind::kString && s.back()->text == language;
  }

  // The scope the '{' after `statement` opens; a definition is considered as a kernel.
  Scope Open(const Statement& statement) {
    if (EndsWithLinkage(statement, "\"C\"")) return Scope::kLinkageC;
    if (EndsWithLinkage(statement, "\"C++\"")) return Scope::kLinkageCxx;
    for (const Token* t : statement) {
      if (t->IsWord("inline")) continue;
      if (t->IsWord("namespace")) return Scope::kNamespace;
      break;
    }
    const size_t kernels = result_.definitions.size();
    Consider(statement);
    // A kernel's body: its KERNEL_TASK_TYPE_DEFAULT sets its core type.
    if (result_.definitions.size() > kernels) {
      body_kernel_ = BodyKernel{result_.definitions.size() - 1, scopes_.size() + 1};
    }
    return Scope::kBody;
  }

  // KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_...) in a kernel's body (the reference's
  // kernel type setting): AIV_ONLY and MIX_AIV_1_0 run the kernel on vector cores, AIC_ONLY and
  // MIX_AIC_1_0 on cube cores, MIX_AIC_1_2 as mix groups of one cube and two vector
  // cores, MIX_AIC_1_1 as mix groups of one cube and one vector core. Other types (the
  // 310P ones) leave the type the declaration gives. The per-key
  // KERNEL_TASK_TYPE(key, type) does not change it.
  void NoteKernelType(const Statement& s) {
    if (s.size() < 4 || !s[0]->IsWord("KERNEL_TASK_TYPE_DEFAULT") || !s[1]->Is('(') ||
        !s.back()->Is(')')) {
      return;
    }
    const Token* type = s[s.size() - 2];
    static const absl::flat_hash_map<absl::string_view, CoreType> kTypes = {
        {"KERNEL_TYPE_AIV_ONLY", CoreType::kVector}, {"KERNEL_TYPE_MIX_AIV_1_0", CoreType::kVector},
        {"KERNEL_TYPE_AIC_ONLY", CoreType::kCube},   {"KERNEL_TYPE_MIX_AIC_1_0", CoreType::kCube},
        {"KERNEL_TYPE_MIX_AIC_1_2", CoreType::kMix}, {"KERNEL_TYPE_MIX_AIC_1_1", CoreType::kMix},
    };
    const auto it = kTypes.find(type->text);
    if (it == kTypes.end()) return;
    KernelDefinition& kernel = result_.definitions[body_kernel_->index];
    kernel.type = it->second;
    kernel.mix_vectors = type->text == "KERNEL_TYPE_MIX_AIC_1_1" ? 1 : 2;
  }

  // `statement {`: a function definition when an identifier (not a keyword or an
  // attribute-like qualifier such as __mix__(1, 2)) is followed by '(' outside
  // parentheses; its last such identifier is the name.
  void Consider(const Statement& statement) {
    static const absl::flat_hash_set<absl::string_view> kNotDeclarators = {
        "__attribute__", "__attribute", "__declspec", "alignas",  "decltype",       "noexcept",
        "throw",         "sizeof",      "alignof",    "__mix__",  "__inout_pipe__", "__in_pipe__",
        "__out_pipe__",  "__asm__",     "asm",        "requires", "operator"};
    bool global = false, is_template = false, extern_c = false, extern_cxx = false;
    bool mix = false, cube = false, vector = false, qualified = false;
    int mix_vectors = 2;  // __mix__(1, 1): one vector core per group
    const Token* name = nullptr;
    int depth = 0;
    for (size_t k = 0; k < statement.size(); ++k) {
      const Token& t = *statement[k];
      if (t.Is('(') || t.Is('[')) ++depth;
      if (t.Is(')') || t.Is(']')) --depth;
      if (depth != 0 || t.kind != Token::Kind::kIdentifier) continue;
      if (t.text == "__global__") global = true;
      if (t.text == "template") is_template = true;
      if (t.text == "__mix__") {
        mix = true;
        if (k + 5 < statement.size() && statement[k + 1]->Is('(') && statement[k + 3]->Is(',') &&
            statement[k + 5]->Is(')') && statement[k + 4]->text == "1") {
          mix_vectors = 1;
        }
      }
      if (t.text == "__cube__") cube = true;
      if (t.text == "__vector__") vector = true;
      const Token* next = k + 1 < statement.size() ? statement[k + 1] : nullptr;
      if (t.text == "extern" && next != nullptr && next->kind == Token::Kind::kString) {
        extern_c = extern_c || next->text == "\"C\"";
        extern_cxx = extern_cxx || next->text == "\"C++\"";
      }
      if (next != nullptr && next->Is('(') && !kNotDeclarators.contains(t.text)) {
        name = &t;
        qualified = k >= 1 && statement[k - 1]->Is(':');
      }
    }
    if (!global || name == nullptr) return;

    bool c_linkage = extern_c;
    if (!extern_c && !extern_cxx) {
      // The innermost linkage block decides.
      for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
        if (*it == Scope::kLinkageC || *it == Scope::kLinkageCxx) {
          c_linkage = *it == Scope::kLinkageC;
          break;
        }
      }
    }
    KernelDefinition kernel;
    kernel.name = name->text;
    kernel.params = ParamsAfter(statement, name);
    kernel.type = mix                      ? CoreType::kMix
                  : cube                   ? CoreType::kCube
                  : !vector && matmul_mix_ ? CoreType::kMix
                                           : CoreType::kVector;
    kernel.mix_vectors = mix ? mix_vectors : 2;
    kernel.file = source_.files[name->file];
    kernel.line = name->line;
    if (is_template) {
      kernel.skipped = SkipReason::kTemplate;
    } else if (InBody()) {
      kernel.skipped = SkipReason::kScope;
    } else if (qualified ||
               std::find(scopes_.begin(), scopes_.end(), Scope::kNamespace) != scopes_.end()) {
      kernel.skipped = SkipReason::kNamespace;
    } else if (rules_.require_c_linkage && !c_linkage) {
      kernel.skipped = SkipReason::kCxxLinkage;
    } else if (!registered_.insert(kernel.name).second) {
      return;  // registered already
    }
    result_.definitions.push_back(std::move(kernel));
  }

  // The parameters of the declarator whose name is `name`: the tokens inside the
  // parentheses after it, split at commas outside (), [], {} and <>.
  static std::vector<KernelParam> ParamsAfter(const Statement& statement, const Token* name) {
    static const absl::flat_hash_set<absl::string_view> kNotNames = {
        "const", "volatile", "unsigned", "signed",       "struct",     "class",
        "enum",  "__gm__",   "__ubuf__", "__restrict__", "__restrict", "restrict"};
    std::vector<KernelParam> params;
    size_t k = 0;
    while (k < statement.size() && statement[k] != name) ++k;
    k += 2;  // the name and '('
    std::vector<const Token*> current;
    int depth = 0;
    const auto finish = [&]() {
      if (current.empty()) return;
      KernelParam param;
      int words = 0;
      const Token* last_word = nullptr;
      const Token* last = nullptr;
      for (size_t i = 0; i < current.size(); ++i) {
        const Token* t = current[i];
        if (t->Is('=')) break;  // a default argument
        last = t;
        const bool glued =
            !param.declaration.empty() && (t->Is(':') || (i > 0 && current[i - 1]->Is(':')));
        if (!param.declaration.empty() && !glued) param.declaration += ' ';
        param.declaration += t->text;
        if (t->kind == Token::Kind::kIdentifier && !kNotNames.contains(t->text)) {
          ++words;
          last_word = t;
        }
      }
      const bool is_void = current.size() == 1 && current[0]->IsWord("void");
      if (!is_void) {
        if (words >= 2 && last_word == last) param.name = last_word->text;
        params.push_back(std::move(param));
      }
      current.clear();
    };
    for (; k < statement.size(); ++k) {
      const Token* t = statement[k];
      if (t->Is('(') || t->Is('[') || t->Is('{') || t->Is('<')) ++depth;
      if (t->Is(')') || t->Is(']') || t->Is('}') || t->Is('>')) {
        if (depth == 0) break;  // the ')' closing the parameter list
        --depth;
      }
      if (depth == 0 && t->Is(',')) {
        finish();
        continue;
      }
      current.push_back(t);
    }
    finish();
    return params;
  }

  void NoteRegistration(const Statement& s) {
    if (s.size() >= 4 &&
        (s[0]->IsWord("NPUD_KERNEL_REGISTER") || s[0]->IsWord("NPUD_KERNEL_REGISTER_AS")) &&
        s[1]->Is('(') && s[2]->kind == Token::Kind::kIdentifier) {
      result_.self_registered.push_back(s[2]->text);
    }
  }

  struct PendingVariable {
    DeviceVariable variable;
    size_t depth;  // the scope depth its ';' comes at
  };

  const LexedSource& source_;
  const ScanRules rules_;
  // Plain __aicore__ kernels are mix kernels (MatmulMakesMixKernels).
  const bool matmul_mix_;
  std::vector<Scope> scopes_;
  std::optional<PendingVariable> pending_;
  // The kernel whose body the scan is in, and the scope depth of that body.
  struct BodyKernel {
    size_t index;
    size_t depth;
  };
  std::optional<BodyKernel> body_kernel_;
  absl::flat_hash_set<std::string> registered_;
  KernelScan result_;
};

}  // namespace

KernelScan ScanKernels(const LexedSource& source, const ScanRules& rules) {
  return Scanner(source, rules).Run();
}

std::vector<const KernelDefinition*> KernelsToRegister(const KernelScan& scan) {
  const absl::flat_hash_set<absl::string_view> own(scan.self_registered.begin(),
                                                   scan.self_registered.end());
  std::vector<const KernelDefinition*> kernels;
  for (const KernelDefinition& kernel : scan.definitions) {
    if (!kernel.skipped.has_value() && !own.contains(kernel.name)) kernels.push_back(&kernel);
  }
  return kernels;
}

bool RegisteredByLaunch(const KernelDefinition& kernel, const std::vector<std::string>& launched) {
  return (kernel.skipped == SkipReason::kTemplate || kernel.skipped == SkipReason::kNamespace) &&
         std::find(launched.begin(), launched.end(), kernel.name) != launched.end();
}

std::vector<std::string> KernelTable(const KernelScan& scan) {
  std::vector<std::string> table = scan.self_registered;
  for (const KernelDefinition* kernel : KernelsToRegister(scan)) table.push_back(kernel->name);
  return table;
}

}  // namespace npud::ascendc
