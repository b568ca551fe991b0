#include "common/rtc_options.h"

#include <algorithm>
#include <iterator>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace npud {
namespace {

constexpr char kAccepted[] =
    "accepted: -D<macro>[=<value>], -U<macro>, -I<relative dir>, -O0, -O1, -O2, -O3, -g, "
    "-std=c++17, -std=c++20, -w, -Wall, -Werror, --npu-arch=<arch>, --cce-<option>";

bool IsIdentifierStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool IsIdentifierChar(char c) { return IsIdentifierStart(c) || (c >= '0' && c <= '9'); }

bool HasControlCharacter(absl::string_view text) {
  return std::any_of(text.begin(), text.end(),
                     [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; });
}

// `text` with control characters shown as '_', for messages.
std::string Printable(absl::string_view text) {
  std::string printable(text);
  for (char& c : printable) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '_';
  }
  return printable;
}

// A -D / -U operand: a macro name, for -D optionally followed by "(params)" or
// "=value".
bool IsMacroDefinition(absl::string_view text, bool allow_value) {
  if (text.empty() || !IsIdentifierStart(text[0])) return false;
  size_t i = 1;
  while (i < text.size() && IsIdentifierChar(text[i])) ++i;
  if (i == text.size()) return true;
  return allow_value && (text[i] == '=' || text[i] == '(');
}

// Why `dir` cannot be an -I directory (relative to the program's directory), or "".
absl::string_view IncludeDirProblem(absl::string_view dir) {
  if (dir.empty()) return "the directory is empty";
  if (dir[0] == '/') return "absolute directories are not accepted";
  for (absl::string_view part : absl::StrSplit(dir, '/')) {
    if (part == "..") return "'..' is not accepted";
  }
  return "";
}

// bisheng's architecture and code-generation switches: --npu-arch=dav-2201,
// --cce-aicore-arch=dav-c220-vec, --cce-auto-sync...
bool IsIgnoredToolchainOption(absl::string_view option) {
  for (absl::string_view prefix : {absl::string_view("--npu-"), absl::string_view("--cce-")}) {
    if (option.size() <= prefix.size() || option.substr(0, prefix.size()) != prefix) continue;
    const absl::string_view rest = option.substr(prefix.size());
    const absl::string_view word = rest.substr(0, rest.find('='));
    if (!word.empty() && std::all_of(word.begin(), word.end(),
                                     [](char c) { return IsIdentifierChar(c) || c == '-'; })) {
      return true;
    }
  }
  return false;
}

absl::Status Unsupported(absl::string_view option, absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat(
      "unsupported option '", option, "'", why.empty() ? "" : ": ", why, " (", kAccepted, ")"));
}

}  // namespace

absl::StatusOr<std::vector<std::string>> RtcCompilerArguments(
    const std::vector<std::string>& options) {
  constexpr absl::string_view kPlain[] = {"-O0", "-O1",        "-O2",        "-O3",   "-g",
                                          "-w",  "-std=c++17", "-std=c++20", "-Wall", "-Werror"};
  std::vector<std::string> args;
  for (size_t i = 0; i < options.size(); ++i) {
    const std::string& option = options[i];
    if (HasControlCharacter(option)) {
      return Unsupported(option, "control characters are not accepted");
    }
    if (std::find(std::begin(kPlain), std::end(kPlain), option) != std::end(kPlain)) {
      args.push_back(option);
      continue;
    }
    if (option == "--npu-arch") {
      // bisheng also takes the architecture as a separate operand.
      if (i + 1 == options.size()) return Unsupported(option, "it needs an operand");
      ++i;
      continue;
    }
    if (IsIgnoredToolchainOption(option)) continue;
    if (option == "-D" || option == "-U" || option == "-I") {
      // The operand is the next option.
      if (i + 1 == options.size()) return Unsupported(option, "it needs an operand");
      const std::string& operand = options[++i];
      const std::string joined = option + operand;
      if (HasControlCharacter(joined)) {
        return Unsupported(joined, "control characters are not accepted");
      }
      if (option == "-I") {
        if (absl::string_view why = IncludeDirProblem(operand); !why.empty()) {
          return Unsupported(joined, why);
        }
      } else if (!IsMacroDefinition(operand, option == "-D")) {
        return Unsupported(joined, "not a macro name");
      }
      args.push_back(joined);
      continue;
    }
    if (option.rfind("-D", 0) == 0 || option.rfind("-U", 0) == 0) {
      if (!IsMacroDefinition(absl::string_view(option).substr(2), option[1] == 'D')) {
        return Unsupported(option, "not a macro name");
      }
      args.push_back(option);
      continue;
    }
    if (option.rfind("-I", 0) == 0) {
      if (absl::string_view why = IncludeDirProblem(absl::string_view(option).substr(2));
          !why.empty()) {
        return Unsupported(option, why);
      }
      args.push_back(option);
      continue;
    }
    return Unsupported(option, "");
  }
  return args;
}

absl::Status CheckRtcOptions(const std::vector<std::string>& options) {
  return RtcCompilerArguments(options).status();
}

absl::Status CheckRtcHeaderName(absl::string_view name) {
  auto invalid = [name](absl::string_view why) {
    return absl::InvalidArgumentError(absl::StrCat("header name '", name, "' ", why));
  };
  if (name.empty()) return absl::InvalidArgumentError("a header name must not be empty");
  if (HasControlCharacter(name)) {
    return absl::InvalidArgumentError(
        absl::StrCat("header name '", Printable(name), "' contains control characters"));
  }
  if (name[0] == '/') return invalid("is absolute; header names must be relative");
  for (absl::string_view part : absl::StrSplit(name, '/')) {
    if (part == "..") return invalid("contains '..'");
    if (part.empty()) return invalid("has an empty path component");
  }
  if (name == kRtcUnitFileName) return invalid("is reserved");
  return absl::OkStatus();
}

}  // namespace npud
