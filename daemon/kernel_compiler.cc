#include "daemon/kernel_compiler.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <filesystem>
#include <list>
#include <mutex>
#include <new>
#include <set>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <unordered_set>

#include "absl/status/statusor.h"
#include "absl/time/clock.h"
#include "common/subprocess.h"

namespace npud::daemon {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr char kDefaultProgramName[] = "default_program";
// The translation unit, in the directory of the user's files. Header names
// that collide with it are refused when the files are written.
constexpr char kUnitName[] = ".npud_rtc_unit.cpp";
// Prefix of the log lines npud adds itself.
constexpr char kLogPrefix[] = "npud-rtc: ";
// Logs longer than this are cut (template errors can be enormous).
constexpr size_t kMaxLogBytes = 1 << 20;

const char kAcceptedOptions[] =
    "accepted: -D<macro>[=<value>], -U<macro>, -I<relative dir>, -O0, -O1, -O2, -O3, -g, "
    "-std=c++17, -std=c++20, -w, -Wall, -Werror, --npu-arch=<arch>, --cce-<option>";

// --- Options --------------------------------------------------------------------------

bool IsIdentifierStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool IsIdentifierChar(char c) { return IsIdentifierStart(c) || (c >= '0' && c <= '9'); }

// A -D / -U operand: a macro name, for -D optionally followed by "(params)" and
// "=value".
bool IsMacroDefinition(std::string_view text, bool allow_value) {
  if (text.empty() || !IsIdentifierStart(text[0])) return false;
  size_t i = 1;
  while (i < text.size() && IsIdentifierChar(text[i])) ++i;
  if (i == text.size()) return true;
  return allow_value && (text[i] == '=' || text[i] == '(');
}

bool HasControlCharacter(std::string_view text) {
  return std::any_of(text.begin(), text.end(),
                     [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; });
}

// The components of a '/'-separated path.
std::vector<std::string_view> Components(std::string_view path) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (true) {
    const size_t slash = path.find('/', start);
    parts.push_back(path.substr(start, slash == std::string_view::npos ? slash : slash - start));
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  return parts;
}

// Why `dir` cannot be an -I directory (relative to the program's directory),
// or "".
std::string CheckIncludeDir(std::string_view dir) {
  if (dir.empty()) return "the directory is empty";
  if (dir[0] == '/') return "absolute directories are not accepted";
  for (std::string_view part : Components(dir)) {
    if (part == "..") return "'..' is not accepted";
  }
  return "";
}

bool IsIgnoredToolchainOption(std::string_view option) {
  // bisheng's architecture and code-generation switches: --npu-arch=dav-2201,
  // --cce-aicore-arch=dav-c220-vec, --cce-auto-sync...
  for (std::string_view prefix : {std::string_view("--npu-"), std::string_view("--cce-")}) {
    if (option.size() > prefix.size() && option.substr(0, prefix.size()) == prefix) {
      const std::string_view rest = option.substr(prefix.size());
      const size_t end = rest.find('=');
      const std::string_view word = rest.substr(0, end);
      const bool word_ok = !word.empty() && std::all_of(word.begin(), word.end(), [](char c) {
        return IsIdentifierChar(c) || c == '-';
      });
      if (word_ok) return true;
    }
  }
  return false;
}

struct TranslatedOptions {
  std::vector<std::string> args;  // for the compiler
  std::string error;              // "" if every option is accepted
};

TranslatedOptions TranslateOptions(const std::vector<std::string>& options) {
  TranslatedOptions out;
  auto reject = [&out](const std::string& option, const std::string& why) {
    out.error = "unsupported option '" + option + "'" + (why.empty() ? "" : ": " + why) + " (" +
                kAcceptedOptions + ")";
    return out;
  };
  static const std::unordered_set<std::string> kPlain = {
      "-O0", "-O1", "-O2", "-O3", "-g", "-std=c++17", "-std=c++20", "-w", "-Wall", "-Werror"};
  for (size_t i = 0; i < options.size(); ++i) {
    const std::string& option = options[i];
    if (HasControlCharacter(option)) return reject(option, "control characters are not accepted");
    if (kPlain.count(option) != 0) {
      out.args.push_back(option);
      continue;
    }
    if (option == "--npu-arch") {
      // bisheng also takes the architecture as a separate operand.
      if (i + 1 == options.size()) return reject(option, "it needs an operand");
      ++i;
      continue;
    }
    if (IsIgnoredToolchainOption(option)) continue;
    if (option == "-D" || option == "-U" || option == "-I") {
      // The operand is the next option.
      if (i + 1 == options.size()) return reject(option, "it needs an operand");
      const std::string joined = option + options[++i];
      if (HasControlCharacter(joined)) return reject(joined, "control characters are not accepted");
      if (option == "-I") {
        if (std::string why = CheckIncludeDir(options[i]); !why.empty()) return reject(joined, why);
      } else if (!IsMacroDefinition(options[i], option == "-D")) {
        return reject(joined, "not a macro name");
      }
      out.args.push_back(joined);
      continue;
    }
    if (option.rfind("-D", 0) == 0 || option.rfind("-U", 0) == 0) {
      if (!IsMacroDefinition(std::string_view(option).substr(2), option[1] == 'D')) {
        return reject(option, "not a macro name");
      }
      out.args.push_back(option);
      continue;
    }
    if (option.rfind("-I", 0) == 0) {
      if (std::string why = CheckIncludeDir(std::string_view(option).substr(2)); !why.empty()) {
        return reject(option, why);
      }
      out.args.push_back(option);
      continue;
    }
    return reject(option, "");
  }
  return out;
}

// --- Files ----------------------------------------------------------------------------

// Creates `path` (which must not exist; symbolic links are not followed) with
// `content`. Returns "" or the reason for the failure.
std::string WriteNewFile(const fs::path& path, std::string_view content) {
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) return std::strerror(errno);
  size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = write(fd, content.data() + done, content.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      const std::string why = std::strerror(errno);
      close(fd);
      return why;
    }
    done += static_cast<size_t>(n);
  }
  if (close(fd) != 0) return std::strerror(errno);
  return "";
}

// Replaces the content of `path`. Returns "" or the reason.
std::string RewriteFile(const fs::path& path, std::string_view content) {
  std::error_code ec;
  fs::remove(path, ec);
  return WriteNewFile(path, content);
}

bool ReadWholeFile(const fs::path& path, std::string* out) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  out->clear();
  char buffer[1 << 16];
  while (true) {
    const ssize_t n = read(fd, buffer, sizeof(buffer));
    if (n < 0) {
      if (errno == EINTR) continue;
      close(fd);
      return false;
    }
    if (n == 0) break;
    out->append(buffer, static_cast<size_t>(n));
  }
  close(fd);
  return true;
}

std::string ReadLog(const fs::path& path) {
  std::string log;
  if (!ReadWholeFile(path, &log)) return "";
  if (log.size() > kMaxLogBytes) {
    const size_t total = log.size();
    log.resize(kMaxLogBytes);
    log += "\n" + std::string(kLogPrefix) + "log truncated (" + std::to_string(total) + " bytes)\n";
  }
  return log;
}

// A private directory that removes itself.
class TempDir {
 public:
  explicit TempDir(const std::string& parent) {
    std::string pattern = (parent.empty() ? std::string("/tmp") : parent) + "/npud-rtc-XXXXXX";
    if (mkdtemp(pattern.data()) != nullptr) {
      path_ = pattern;
    } else {
      error_ = "cannot create a directory in " + parent + ": " + std::strerror(errno);
    }
  }
  ~TempDir() {
    if (!path_.empty()) {
      std::error_code ec;
      fs::remove_all(path_, ec);
    }
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const fs::path& path() const { return path_; }
  const std::string& error() const { return error_; }

 private:
  fs::path path_;
  std::string error_;
};

// --- Running the compiler -------------------------------------------------------------

struct ProcessOutcome {
  enum Kind { kExited, kSignaled, kTimedOut, kNotStarted, kLost } kind = kNotStarted;
  int value = 0;  // exit status, signal number or errno
};

// Runs argv (argv[0] looked up in PATH unless it has a '/') in `cwd` with stdin
// from /dev/null and stdout + stderr into `log_path`, in a process group of its
// own that is killed at `deadline`.
ProcessOutcome RunProcess(const std::vector<std::string>& argv, const fs::path& cwd,
                          const fs::path& log_path, Clock::time_point deadline) {
  SpawnOptions spawn;
  spawn.argv = argv;
  spawn.cwd = cwd.string();
  spawn.stdout_path = log_path.string();
  spawn.detach = SpawnOptions::Detach::kProcessGroup;
  ProcessOutcome outcome;
  absl::StatusOr<pid_t> pid = Spawn(spawn);
  if (!pid.ok()) {
    outcome.kind = ProcessOutcome::kNotStarted;
    outcome.value = absl::IsNotFound(pid.status()) ? ENOENT : EPERM;
    return outcome;
  }
  const absl::Time until = deadline == Clock::time_point::max()
                               ? absl::InfiniteFuture()
                               : absl::Now() + absl::FromChrono(deadline - Clock::now());
  absl::StatusOr<ExitStatus> exit = WaitUntil(*pid, until);
  if (!exit.ok()) {
    outcome.kind = ProcessOutcome::kLost;
    outcome.value = ECHILD;
    return outcome;
  }
  switch (exit->kind) {
    case ExitStatus::Kind::kExited:
      outcome.kind = ProcessOutcome::kExited;
      break;
    case ExitStatus::Kind::kSignaled:
      outcome.kind = ProcessOutcome::kSignaled;
      break;
    case ExitStatus::Kind::kTimedOut:
      outcome.kind = ProcessOutcome::kTimedOut;
      break;
  }
  outcome.value = exit->value;
  return outcome;
}

// What went wrong with a run that did not exit normally, or "" for one that did.
std::string DescribeAbnormal(const ProcessOutcome& outcome, const std::string& compiler,
                             int timeout_seconds) {
  switch (outcome.kind) {
    case ProcessOutcome::kExited:
      return "";
    case ProcessOutcome::kNotStarted:
      if (outcome.value == ENOENT) {
        return "the compiler '" + compiler + "' was not found (" + std::strerror(ENOENT) +
               "); npud needs a C++ compiler (g++) to compile AscendC programs";
      }
      return "cannot run the compiler '" + compiler + "': " + std::strerror(outcome.value);
    case ProcessOutcome::kSignaled:
      return "the compiler '" + compiler + "' was killed by signal " +
             std::to_string(outcome.value) + " (" + strsignal(outcome.value) + ")";
    case ProcessOutcome::kTimedOut:
      return "compilation timed out after " + std::to_string(timeout_seconds) +
             " s; the compiler was killed";
    case ProcessOutcome::kLost:
      return "lost track of the compiler process: " + std::string(std::strerror(outcome.value));
  }
  return "unknown compiler outcome";
}

// --- Finding kernels ------------------------------------------------------------------
//
// The scanner reads the compiler's directive-only preprocessing of the unit
// (`-E -fdirectives-only`): conditional blocks are resolved and includes are
// expanded, but macros are not, so `__global__` and `extern "C"` are still
// there, and comments are kept. Line markers tell which file each line comes
// from; only the program's own files are looked at (paths relative to its
// directory), not the AscendC or system headers.

struct Token {
  enum Kind { kIdentifier, kString, kCharacter, kNumber, kPunct };
  Kind kind;
  std::string text;  // strings and characters with their quotes and prefix
  std::string file;
  int line;

  bool Is(char punct) const { return kind == kPunct && text.size() == 1 && text[0] == punct; }
  bool IsWord(std::string_view word) const { return kind == kIdentifier && text == word; }
};

class Lexer {
 public:
  Lexer(const std::string& text, std::string program_file)
      : text_(text), program_file_(std::move(program_file)) {}

  std::vector<Token> Run() {
    while (pos_ < text_.size()) Step();
    return std::move(tokens_);
  }

 private:
  char At(size_t i) const { return i < text_.size() ? text_[i] : '\0'; }

  bool IsUserFile() const {
    if (file_ == program_file_) return true;
    return !file_.empty() && file_[0] != '/' && file_[0] != '<';
  }

  void Emit(Token::Kind kind, size_t begin, size_t end, int line) {
    if (!IsUserFile()) return;
    tokens_.push_back(Token{kind, text_.substr(begin, end - begin), file_, line});
  }

  void Newline() {
    ++line_;
    line_start_ = true;
  }

  void Step() {
    const char c = text_[pos_];
    if (c == '\n') {
      Newline();
      ++pos_;
      return;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      ++pos_;
      return;
    }
    if (c == '\\' && At(pos_ + 1) == '\n') {  // line splice
      pos_ += 2;
      ++line_;
      return;
    }
    if (line_start_ && c == '#') {
      Directive();
      return;
    }
    line_start_ = false;
    if (c == '/' && At(pos_ + 1) == '/') {
      while (pos_ < text_.size() && text_[pos_] != '\n') {
        if (text_[pos_] == '\\' && At(pos_ + 1) == '\n') {
          ++line_;
          ++pos_;
        }
        ++pos_;
      }
      return;
    }
    if (c == '/' && At(pos_ + 1) == '*') {
      const size_t end = text_.find("*/", pos_ + 2);
      const size_t stop = end == std::string::npos ? text_.size() : end + 2;
      line_ += static_cast<int>(std::count(text_.begin() + pos_, text_.begin() + stop, '\n'));
      pos_ = stop;
      return;
    }
    if (IsIdentifierStart(c) || c == '$') {
      Word();
      return;
    }
    if ((c >= '0' && c <= '9') || (c == '.' && At(pos_ + 1) >= '0' && At(pos_ + 1) <= '9')) {
      Number();
      return;
    }
    if (c == '"' || c == '\'') {
      Quoted(pos_, pos_);
      return;
    }
    Emit(Token::kPunct, pos_, pos_ + 1, line_);
    ++pos_;
  }

  // A preprocessing directive: line markers switch the current file, the rest
  // (#define, #pragma, ...) is skipped.
  void Directive() {
    const size_t begin = pos_;
    int extra_lines = 0;
    while (pos_ < text_.size() && text_[pos_] != '\n') {
      if (text_[pos_] == '\\' && At(pos_ + 1) == '\n') {
        ++extra_lines;
        ++pos_;
      }
      ++pos_;
    }
    line_ += extra_lines;
    std::string_view line(text_.data() + begin, pos_ - begin);
    line.remove_prefix(1);  // '#'
    auto skip_blanks = [&line] {
      while (!line.empty() && (line[0] == ' ' || line[0] == '\t')) line.remove_prefix(1);
    };
    skip_blanks();
    if (line.substr(0, 4) == "line") {
      line.remove_prefix(4);
      skip_blanks();
    }
    if (line.empty() || line[0] < '0' || line[0] > '9') return;
    int number = 0;
    while (!line.empty() && line[0] >= '0' && line[0] <= '9') {
      if (number < 100000000) number = number * 10 + (line[0] - '0');
      line.remove_prefix(1);
    }
    skip_blanks();
    if (!line.empty() && line[0] == '"') {
      std::string name;
      size_t i = 1;
      while (i < line.size() && line[i] != '"') {
        if (line[i] == '\\' && i + 1 < line.size()) ++i;
        name += line[i++];
      }
      file_ = name;
    }
    line_ = number - 1;  // the newline ending the marker makes it `number`
  }

  void Word() {
    const size_t begin = pos_;
    while (pos_ < text_.size() && (IsIdentifierChar(text_[pos_]) || text_[pos_] == '$')) ++pos_;
    const std::string_view word(text_.data() + begin, pos_ - begin);
    const char next = At(pos_);
    if (next == '"' &&
        (word == "R" || word == "LR" || word == "uR" || word == "UR" || word == "u8R")) {
      RawString(begin);
      return;
    }
    if ((next == '"' || next == '\'') &&
        (word == "L" || word == "u" || word == "U" || word == "u8")) {
      Quoted(begin, pos_);
      return;
    }
    Emit(Token::kIdentifier, begin, pos_, line_);
  }

  // A pp-number, digit separators included (1'000'000).
  void Number() {
    const size_t begin = pos_;
    ++pos_;
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if ((c == '+' || c == '-') && std::strchr("eEpP", text_[pos_ - 1]) != nullptr) {
        ++pos_;
      } else if (IsIdentifierChar(c) || c == '.') {
        ++pos_;
      } else if (c == '\'' && IsIdentifierChar(At(pos_ + 1))) {
        pos_ += 2;
      } else {
        break;
      }
    }
    Emit(Token::kNumber, begin, pos_, line_);
  }

  // A string or character literal whose opening quote is at `quote`.
  void Quoted(size_t begin, size_t quote) {
    const char delimiter = text_[quote];
    const int line = line_;
    pos_ = quote + 1;
    while (pos_ < text_.size() && text_[pos_] != delimiter && text_[pos_] != '\n') {
      if (text_[pos_] == '\\' && pos_ + 1 < text_.size()) {
        if (text_[pos_ + 1] == '\n') ++line_;
        ++pos_;
      }
      ++pos_;
    }
    if (pos_ < text_.size() && text_[pos_] == delimiter) ++pos_;
    Emit(delimiter == '"' ? Token::kString : Token::kCharacter, begin, pos_, line);
  }

  // R"delimiter( ... )delimiter"
  void RawString(size_t begin) {
    const int line = line_;
    const size_t open = text_.find('(', pos_ + 1);
    if (open == std::string::npos || open - pos_ - 1 > 16) {  // not a raw string after all
      Quoted(begin, pos_);
      return;
    }
    const std::string closing = ")" + text_.substr(pos_ + 1, open - pos_ - 1) + "\"";
    const size_t end = text_.find(closing, open + 1);
    const size_t stop = end == std::string::npos ? text_.size() : end + closing.size();
    line_ += static_cast<int>(std::count(text_.begin() + pos_, text_.begin() + stop, '\n'));
    pos_ = stop;
    Emit(Token::kString, begin, stop, line);
  }

  const std::string& text_;
  const std::string program_file_;
  size_t pos_ = 0;
  bool line_start_ = true;
  std::string file_;
  int line_ = 1;
  std::vector<Token> tokens_;
};

struct FoundKernel {
  std::string name;
  const char* type_macro;  // nullptr: vector (the default registration)
};

struct ScanResult {
  std::vector<FoundKernel> kernels;
  // Names the program registers itself with NPUD_KERNEL_REGISTER(_AS).
  std::vector<std::string> self_registered;
  std::vector<std::string> notes;
};

class KernelScanner {
 public:
  explicit KernelScanner(const std::vector<Token>& tokens) : tokens_(tokens) {}

  ScanResult Run() {
    std::vector<Token> statement;
    int paren_depth = 0;
    for (size_t i = 0; i < tokens_.size(); ++i) {
      const Token& token = tokens_[i];
      if (token.Is('(') || token.Is('[')) ++paren_depth;
      if ((token.Is(')') || token.Is(']')) && paren_depth > 0) --paren_depth;
      if (paren_depth > 0) {
        statement.push_back(token);
        continue;
      }
      if (token.Is('{')) {
        i = OpenBrace(statement, i);
        statement.clear();
      } else if (token.Is('}')) {
        if (!scopes_.empty()) scopes_.pop_back();
        statement.clear();
      } else if (token.Is(';')) {
        NoteRegistration(statement);
        statement.clear();
      } else {
        statement.push_back(token);
      }
    }
    return std::move(result_);
  }

 private:
  enum class Scope { kNamespace, kLinkageC, kLinkageCxx };

  static bool EndsWithLinkage(const std::vector<Token>& s, const char* language) {
    return s.size() >= 2 && s[s.size() - 2].IsWord("extern") && s.back().kind == Token::kString &&
           s.back().text == language;
  }

  static bool IsNamespace(const std::vector<Token>& s) {
    for (const Token& t : s) {
      if (t.IsWord("inline")) continue;
      return t.IsWord("namespace");
    }
    return false;
  }

  // Handles the '{' at index `open`; returns the index of the last token it
  // consumed.
  size_t OpenBrace(const std::vector<Token>& statement, size_t open) {
    if (EndsWithLinkage(statement, "\"C\"")) {
      scopes_.push_back(Scope::kLinkageC);
      return open;
    }
    if (EndsWithLinkage(statement, "\"C++\"")) {
      scopes_.push_back(Scope::kLinkageCxx);
      return open;
    }
    if (IsNamespace(statement)) {
      scopes_.push_back(Scope::kNamespace);
      return open;
    }
    Consider(statement);
    // A function body, a class body, an initializer: nothing in it matters.
    int depth = 0;
    for (size_t i = open; i < tokens_.size(); ++i) {
      if (tokens_[i].Is('{')) ++depth;
      if (tokens_[i].Is('}') && --depth == 0) return i;
    }
    return tokens_.size();
  }

  // A definition `statement {`: registers it if it is a C-linkage, non-template
  // __global__ function at global scope.
  void Consider(const std::vector<Token>& statement) {
    static const std::set<std::string, std::less<>> kNotDeclarators = {
        "__attribute__", "__attribute", "__declspec", "alignas",  "decltype",       "noexcept",
        "throw",         "sizeof",      "alignof",    "__mix__",  "__inout_pipe__", "__in_pipe__",
        "__out_pipe__",  "__asm__",     "asm",        "requires", "operator"};
    bool global = false, is_template = false, extern_c = false, extern_cxx = false;
    bool mix = false, cube = false, qualified = false;
    const Token* name = nullptr;
    int depth = 0;
    for (size_t k = 0; k < statement.size(); ++k) {
      const Token& t = statement[k];
      if (t.Is('(') || t.Is('[')) ++depth;
      if (t.Is(')') || t.Is(']')) --depth;
      if (depth != 0 || t.kind != Token::kIdentifier) continue;
      if (t.text == "__global__") global = true;
      if (t.text == "template") is_template = true;
      if (t.text == "__mix__") mix = true;
      if (t.text == "__cube__") cube = true;
      if (t.text == "extern" && k + 1 < statement.size() &&
          statement[k + 1].kind == Token::kString) {
        extern_c = extern_c || statement[k + 1].text == "\"C\"";
        extern_cxx = extern_cxx || statement[k + 1].text == "\"C++\"";
      }
      if (k + 1 < statement.size() && statement[k + 1].Is('(') &&
          kNotDeclarators.count(t.text) == 0) {
        name = &t;
        qualified = k >= 1 && statement[k - 1].Is(':');
      }
    }
    if (!global || name == nullptr) return;

    bool in_namespace = false;
    bool c_linkage = extern_c;
    for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
      if (*it == Scope::kNamespace) in_namespace = true;
    }
    if (!extern_c && !extern_cxx) {
      for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
        if (*it == Scope::kLinkageC || *it == Scope::kLinkageCxx) {
          c_linkage = *it == Scope::kLinkageC;
          break;
        }
      }
    }
    std::string why;
    if (is_template) {
      why = "it is a template";
    } else if (in_namespace || qualified) {
      why = "it is not defined at global scope";
    } else if (!c_linkage) {
      why = "it has C++ linkage (declare it extern \"C\")";
    }
    if (!why.empty()) {
      result_.notes.push_back(name->file + ":" + std::to_string(name->line) +
                              ": note: " + kLogPrefix + "__global__ function '" + name->text +
                              "' is not registered as a kernel: " + why);
      return;
    }
    for (const FoundKernel& known : result_.kernels) {
      if (known.name == name->text) return;
    }
    result_.kernels.push_back(FoundKernel{
        name->text, mix ? "NPUD_CORE_TYPE_MIX" : (cube ? "NPUD_CORE_TYPE_CUBE" : nullptr)});
  }

  // NPUD_KERNEL_REGISTER(name) / NPUD_KERNEL_REGISTER_AS(name, type) written by the
  // program itself.
  void NoteRegistration(const std::vector<Token>& s) {
    if (s.size() >= 4 &&
        (s[0].IsWord("NPUD_KERNEL_REGISTER") || s[0].IsWord("NPUD_KERNEL_REGISTER_AS")) &&
        s[1].Is('(') && s[2].kind == Token::kIdentifier) {
      result_.self_registered.push_back(s[2].text);
    }
  }

  const std::vector<Token>& tokens_;
  std::vector<Scope> scopes_;
  ScanResult result_;
};

// The file name of the program in #line directives and diagnostics.
std::string DisplayName(const std::string& name) {
  std::string display = name.empty() ? kDefaultProgramName : name;
  for (char& c : display) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '_';
  }
  return display;
}

std::string QuotedForLine(const std::string& name) {
  std::string quoted = "\"";
  for (char c : name) {
    if (c == '"' || c == '\\') quoted += '\\';
    quoted += c;
  }
  return quoted + "\"";
}

// One length-prefixed field of a cache key.
void AppendKeyField(std::string* key, std::string_view field) {
  key->append(std::to_string(field.size()));
  key->push_back(':');
  key->append(field);
}

std::string CacheKey(const CompileRequest& request) {
  std::string key;
  AppendKeyField(&key, DisplayName(request.name));
  AppendKeyField(&key, request.source);
  AppendKeyField(&key, std::to_string(request.headers.size()));
  for (const auto& [name, content] : request.headers) {
    AppendKeyField(&key, name);
    AppendKeyField(&key, content);
  }
  AppendKeyField(&key, std::to_string(request.options.size()));
  for (const std::string& option : request.options) AppendKeyField(&key, option);
  return key;
}

CompileOutput Failure(std::string log) {
  CompileOutput output;
  output.log = std::move(log);
  if (!output.log.empty() && output.log.back() != '\n') output.log += '\n';
  return output;
}

CompileOutput NpudFailure(const std::string& what) { return Failure(kLogPrefix + what); }

}  // namespace

// --- KernelCompiler -------------------------------------------------------------------

struct KernelCompiler::State {
  struct Entry {
    std::string key;
    CompileOutput output;
  };
  struct Pending {
    bool done = false;
    CompileOutput output;
  };

  std::mutex mu;
  std::condition_variable finished;
  // Most recently used first. `index` keys point into the entries' own keys.
  std::list<Entry> lru;
  std::unordered_map<std::string_view, std::list<Entry>::iterator> index;
  std::unordered_map<std::string, std::shared_ptr<Pending>> in_flight;
  std::atomic<int> runs{0};
};

KernelCompiler::KernelCompiler(Options options)
    : options_([&options] {
        // Relative paths must survive the compiler's chdir into the work directory.
        auto make_absolute = [](std::string* path) {
          if (path->empty() || (*path)[0] == '/') return;
          std::error_code ec;
          const fs::path absolute = fs::absolute(*path, ec);
          if (!ec) *path = absolute.string();
        };
        if (options.compiler.find('/') != std::string::npos) make_absolute(&options.compiler);
        make_absolute(&options.include_dir);
        make_absolute(&options.work_dir);
        return std::move(options);
      }()),
      state_(std::make_unique<State>()) {}

KernelCompiler::~KernelCompiler() = default;

int KernelCompiler::compiler_runs() const { return state_->runs.load(); }

const std::vector<std::string>& KernelCompiler::KernelOptions() {
  // Keep in step with simdevice/ascendc/npud_ascendc_options.cmake (a unit test
  // compares the two).
  static const std::vector<std::string> options = {
      "-fPIC",        "-fvisibility=hidden",  "-fvisibility-inlines-hidden",
      "-fexceptions", "-fno-strict-aliasing", "-Wno-unused-parameter"};
  return options;
}

std::string KernelCompiler::CheckOptions(const std::vector<std::string>& options) {
  try {
    return TranslateOptions(options).error;
  } catch (const std::bad_alloc&) {
    return "out of memory";
  }
}

std::string KernelCompiler::CheckHeaderName(const std::string& name) {
  if (name.empty()) return "a header name must not be empty";
  if (HasControlCharacter(name)) {
    return "header name '" + DisplayName(name) + "' contains control characters";
  }
  if (name[0] == '/') {
    return "header name '" + name + "' is absolute; header names must be relative";
  }
  for (std::string_view part : Components(name)) {
    if (part == "..") return "header name '" + name + "' contains '..'";
    if (part.empty()) return "header name '" + name + "' has an empty path component";
  }
  if (name == kUnitName) return "header name '" + name + "' is reserved";
  return "";
}

CompileOutput KernelCompiler::Compile(const CompileRequest& request) {
  try {
    if (std::string error = CheckOptions(request.options); !error.empty()) {
      return NpudFailure(error);
    }
    std::set<std::string_view> header_names;
    for (const auto& header : request.headers) {
      if (std::string error = CheckHeaderName(header.first); !error.empty()) {
        return NpudFailure(error);
      }
      if (!header_names.insert(header.first).second) {
        return NpudFailure("header '" + header.first + "' is given twice");
      }
    }

    const std::string key = CacheKey(request);
    std::shared_ptr<State::Pending> pending;
    {
      std::unique_lock<std::mutex> lock(state_->mu);
      if (auto hit = state_->index.find(key); hit != state_->index.end()) {
        state_->lru.splice(state_->lru.begin(), state_->lru, hit->second);
        CompileOutput output = hit->second->output;
        output.from_cache = true;
        return output;
      }
      if (auto running = state_->in_flight.find(key); running != state_->in_flight.end()) {
        std::shared_ptr<State::Pending> other = running->second;
        state_->finished.wait(lock, [&other] { return other->done; });
        CompileOutput output = other->output;
        output.from_cache = true;
        return output;
      }
      pending = std::make_shared<State::Pending>();
      state_->in_flight.emplace(key, pending);
    }

    bool cacheable = false;
    CompileOutput output;
    try {
      output = CompileUncached(request, &cacheable);
    } catch (const std::exception& e) {
      output = NpudFailure(std::string("internal error: ") + e.what());
      cacheable = false;
    }

    {
      std::lock_guard<std::mutex> lock(state_->mu);
      pending->output = output;
      pending->done = true;
      state_->in_flight.erase(key);
      if (cacheable && options_.cache_entries > 0) {
        state_->lru.push_front(State::Entry{key, output});
        state_->index.emplace(state_->lru.front().key, state_->lru.begin());
        while (state_->lru.size() > options_.cache_entries) {
          state_->index.erase(state_->lru.back().key);
          state_->lru.pop_back();
        }
      }
    }
    state_->finished.notify_all();
    return output;
  } catch (const std::exception& e) {
    return NpudFailure(std::string("internal error: ") + e.what());
  }
}

CompileOutput KernelCompiler::CompileUncached(const CompileRequest& request, bool* cacheable) {
  *cacheable = false;
  const Clock::time_point deadline =
      options_.timeout_seconds > 0 ? Clock::now() + std::chrono::seconds(options_.timeout_seconds)
                                   : Clock::time_point::max();
  const std::vector<std::string> user_args = TranslateOptions(request.options).args;

  TempDir dir(options_.work_dir);
  if (dir.path().empty()) return NpudFailure(dir.error());
  const fs::path src = dir.path() / "src";
  const fs::path out = dir.path() / "out";
  std::error_code ec;
  fs::create_directory(src, ec);
  if (!ec) fs::create_directory(out, ec);
  if (ec) return NpudFailure("cannot create the work directory: " + ec.message());

  for (const auto& [name, content] : request.headers) {
    const fs::path path = src / name;
    fs::create_directories(path.parent_path(), ec);
    std::string why = ec ? ec.message() : WriteNewFile(path, content);
    if (!why.empty()) return NpudFailure("cannot write header '" + name + "': " + why);
  }

  // The unit: the source under its own name and line numbers.
  const std::string display = DisplayName(request.name);
  std::string unit = "#line 1 " + QuotedForLine(display) + "\n" + request.source;
  const fs::path unit_path = src / kUnitName;
  if (std::string why = WriteNewFile(unit_path, unit); !why.empty()) {
    return NpudFailure("cannot write the program: " + why);
  }

  std::vector<std::string> common = {"-std=c++17"};
  common.insert(common.end(), KernelOptions().begin(), KernelOptions().end());
  if (!options_.include_dir.empty()) common.push_back("-I" + options_.include_dir);
  common.push_back("-I.");
  common.insert(common.end(), user_args.begin(), user_args.end());
  common.push_back("-fdiagnostics-color=never");

  state_->runs.fetch_add(1);

  // Pass 1: where are the kernels?
  const fs::path scan_path = out / "scan.ii";
  const fs::path scan_log = out / "scan.log";
  std::vector<std::string> scan_argv = {options_.compiler, "-E", "-fdirectives-only"};
  scan_argv.insert(scan_argv.end(), common.begin(), common.end());
  scan_argv.insert(scan_argv.end(), {"-o", scan_path.string(), kUnitName});
  const ProcessOutcome scanned = RunProcess(scan_argv, src, scan_log, deadline);
  if (std::string why = DescribeAbnormal(scanned, options_.compiler, options_.timeout_seconds);
      !why.empty()) {
    return Failure(ReadLog(scan_log) + kLogPrefix + why);
  }
  if (scanned.value != 0) {
    // Preprocessing errors (a missing header, #error) are compile errors.
    *cacheable = true;
    return Failure(ReadLog(scan_log));
  }
  std::string preprocessed;
  if (!ReadWholeFile(scan_path, &preprocessed)) {
    return NpudFailure("cannot read the preprocessed program");
  }
  const ScanResult scan = KernelScanner(Lexer(preprocessed, display).Run()).Run();
  preprocessed.clear();
  preprocessed.shrink_to_fit();

  // Pass 2: the program with its kernels registered.
  std::vector<std::string> kernels = scan.self_registered;
  unit += "\n\n#line 1 \"<npud kernel registration>\"\n#include \"npud_kernel_register.h\"\n";
  for (const FoundKernel& kernel : scan.kernels) {
    if (std::find(scan.self_registered.begin(), scan.self_registered.end(), kernel.name) !=
        scan.self_registered.end()) {
      continue;
    }
    unit += kernel.type_macro == nullptr
                ? "NPUD_KERNEL_REGISTER(" + kernel.name + ");\n"
                : "NPUD_KERNEL_REGISTER_AS(" + kernel.name + ", " + kernel.type_macro + ");\n";
    kernels.push_back(kernel.name);
  }
  if (std::string why = RewriteFile(unit_path, unit); !why.empty()) {
    return NpudFailure("cannot write the program: " + why);
  }
  const fs::path object_path = out / "kernel.so";
  const fs::path compile_log = out / "compile.log";
  std::vector<std::string> compile_argv = {options_.compiler, "-O2", "-shared"};
  compile_argv.insert(compile_argv.end(), common.begin(), common.end());
  compile_argv.insert(compile_argv.end(),
                      {"-ffunction-sections", "-fdata-sections", "-Wl,--gc-sections", "-Wl,-z,defs",
                       "-o", object_path.string(), kUnitName});
  const ProcessOutcome compiled = RunProcess(compile_argv, src, compile_log, deadline);

  CompileOutput output;
  output.log = ReadLog(compile_log);
  for (const std::string& note : scan.notes) output.log += note + "\n";
  if (std::string why = DescribeAbnormal(compiled, options_.compiler, options_.timeout_seconds);
      !why.empty()) {
    output.log += kLogPrefix + why + "\n";
    return output;
  }
  *cacheable = true;
  if (compiled.value != 0) return output;
  if (!ReadWholeFile(object_path, &output.binary) || output.binary.empty()) {
    *cacheable = false;
    output.binary.clear();
    output.log += std::string(kLogPrefix) + "the compiler succeeded but wrote no kernel binary\n";
    return output;
  }
  if (kernels.empty()) {
    output.log += std::string(kLogPrefix) +
                  "warning: the program defines no extern \"C\" __global__ kernel; its binary has "
                  "no functions\n";
  }
  output.success = true;
  output.kernels = std::move(kernels);
  return output;
}

}  // namespace npud::daemon
