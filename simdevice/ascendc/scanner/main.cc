// npud-ascendc-scan: the kernel scanner of npud's AscendC toolchain, as a program.
// Installed as <root>/bin/npud-ascendc-scan; run by ascendc.cmake at build time and
// by npud's run-time compiler, each with its own command:
//
//   npud-ascendc-scan source --source=<file> --output-dir=<dir> --stem=<stem>
//                            [--namespace=<host library namespace>]
//                            [--launch-headers=<dir>]
//       ascendc.cmake's source pass over one kernel source: rewrites its <<<>>>
//       launches and device variables (variable_markers.h) and finds its kernels (kSource input:
//       only `#if 0` is evaluated); writes <dir>/<stem>.rewritten.cpp, .device.cpp, .kernels and,
//       with
//       --namespace (ascendc_library), .host.cpp (see generated_files.h); with
//       --launch-headers, <dir>/aclrtlaunch_<kernel>.h for each registered kernel.
//       Kernels that are not registered are warnings on stderr.
//
//   npud-ascendc-scan attributes --file=<preprocessed unit>
//       bisheng's pass over a preprocessed unit: blanks its [aicore] and
//       [host, aicore] function attributes (core_attributes.h) in place, and
//       prints how many it blanked.
//
//   npud-ascendc-scan rtc --input=<preprocessed> --program=<name>
//                         --registrations=<file> --kernels=<file>
//       Run-time compilation: finds the extern "C" kernels of a program that the
//       daemon preprocessed with `g++ -E -fdirectives-only` (the program's main
//       file is named <name> by its line markers); writes the registration block
//       and the kernel list. Kernels that are not registered are notes on stdout.
//
// Exit status: 0 done, 1 the source is wrong (a malformed launch, reported as
// "<file>:<line>: error: ..."; nothing is written then), 2 wrong usage or a file
// that cannot be read or written.

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "simdevice/ascendc/scanner/core_attributes.h"
#include "simdevice/ascendc/scanner/generated_files.h"
#include "simdevice/ascendc/scanner/kernel_scan.h"
#include "simdevice/ascendc/scanner/launch_rewrite.h"
#include "simdevice/ascendc/scanner/source_lexer.h"
#include "simdevice/ascendc/scanner/variable_markers.h"

namespace npud::ascendc {
namespace {

constexpr int kSourceError = 1;
constexpr int kUsageError = 2;

constexpr char kUsage[] =
    "usage: npud-ascendc-scan source --source=<file> --output-dir=<dir> --stem=<stem> "
    "[--namespace=<ns>] [--launch-headers=<dir>]\n"
    "       npud-ascendc-scan attributes --file=<preprocessed unit>\n"
    "       npud-ascendc-scan rtc --input=<preprocessed> --program=<name> "
    "--registrations=<file> --kernels=<file>\n";

// --name=value arguments. Unknown and repeated names are errors, and so are
// missing required ones.
class Arguments {
 public:
  absl::Status Parse(int argc, char** argv, const std::vector<std::string>& required,
                     const std::vector<std::string>& optional) {
    for (int i = 0; i < argc; ++i) {
      const std::string arg = argv[i];
      const size_t equals = arg.find('=');
      const std::string name = arg.substr(0, equals);
      if (arg.rfind("--", 0) != 0 || equals == std::string::npos ||
          (std::find(required.begin(), required.end(), name) == required.end() &&
           std::find(optional.begin(), optional.end(), name) == optional.end())) {
        return absl::InvalidArgumentError(absl::StrCat("unknown argument '", arg, "'"));
      }
      if (!values_.emplace(name, arg.substr(equals + 1)).second) {
        return absl::InvalidArgumentError(absl::StrCat(name, " is given twice"));
      }
    }
    for (const std::string& name : required) {
      if (Get(name).empty()) return absl::InvalidArgumentError(absl::StrCat(name, " is missing"));
    }
    return absl::OkStatus();
  }

  std::string Get(const std::string& name) const {
    auto it = values_.find(name);
    return it == values_.end() ? "" : it->second;
  }

 private:
  std::map<std::string, std::string> values_;
};

absl::StatusOr<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  if (in) text << in.rdbuf();
  if (!in || in.bad()) {
    return absl::NotFoundError(absl::StrCat("cannot read ", path, ": ", std::strerror(errno)));
  }
  return std::move(text).str();
}

// The files of one run, written only once everything is known.
using Outputs = std::vector<std::pair<std::string, std::string>>;

absl::Status WriteFiles(const Outputs& outputs) {
  for (const auto& [path, content] : outputs) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << content;
    out.close();
    if (!out) {
      return absl::InternalError(absl::StrCat("cannot write ", path, ": ", std::strerror(errno)));
    }
  }
  return absl::OkStatus();
}

int Fail(const absl::Status& status, int exit_code) {
  std::cerr << "npud-ascendc-scan: " << status.message() << "\n";
  return exit_code;
}

int SourcePass(int argc, char** argv) {
  Arguments args;
  if (absl::Status parsed = args.Parse(argc, argv, {"--source", "--output-dir", "--stem"},
                                       {"--namespace", "--launch-headers"});
      !parsed.ok()) {
    std::cerr << kUsage;
    return Fail(parsed, kUsageError);
  }
  const std::string source = args.Get("--source");
  absl::StatusOr<std::string> text = ReadFile(source);
  if (!text.ok()) return Fail(text.status(), kUsageError);

  LexedSource lexed = Lex(*std::move(text), InputKind::kSource, source);
  // Device variables are marked first (only insertions on their own lines), then
  // the marked text is what the launch rewrite and the kernel scan read.
  const std::vector<DeviceVariable> variables = ScanKernels(lexed, ScanRules{}).variables;
  if (!variables.empty()) {
    lexed = Lex(MarkDeviceVariables(lexed.text, variables), InputKind::kSource, source);
  }
  std::vector<std::string> launched;
  absl::StatusOr<std::string> rewritten = RewriteLaunches(lexed, &launched);
  if (!rewritten.ok()) {
    std::cerr << rewritten.status().message() << "\n";  // already "<file>:<line>: error: ..."
    return kSourceError;
  }
  const KernelScan scan = ScanKernels(lexed, ScanRules{});

  const std::string absolute = std::filesystem::absolute(source).lexically_normal().string();
  const std::string base = args.Get("--output-dir") + "/" + args.Get("--stem");
  Outputs outputs = {
      {base + ".rewritten.cpp", LineDirective(absolute) + *rewritten},
      {base + ".kernels", KernelReport(scan)},
      {base + ".device.cpp", DeviceUnit(absolute, base + ".rewritten.cpp", scan)},
  };
  if (const std::string ns = args.Get("--namespace"); !ns.empty()) {
    outputs.emplace_back(base + ".host.cpp", HostUnit(absolute, base + ".rewritten.cpp", ns, scan));
  }
  if (const std::string dir = args.Get("--launch-headers"); !dir.empty()) {
    std::error_code error;
    std::filesystem::create_directories(dir, error);
    for (const KernelDefinition& kernel : scan.definitions) {
      if (kernel.skipped.has_value()) continue;
      outputs.emplace_back(dir + "/aclrtlaunch_" + kernel.name + ".h", LaunchHeader(kernel));
    }
  }
  if (absl::Status written = WriteFiles(outputs); !written.ok()) {
    return Fail(written, kUsageError);
  }
  for (const KernelDefinition& kernel : scan.definitions) {
    if (RegisteredByLaunch(kernel, launched)) continue;  // device_launch.h registers it
    if (kernel.skipped.has_value()) std::cerr << Diagnostic(kernel, Audience::kBuild) << "\n";
  }
  return 0;
}

int AttributesPass(int argc, char** argv) {
  Arguments args;
  if (absl::Status parsed = args.Parse(argc, argv, {"--file"}, {}); !parsed.ok()) {
    std::cerr << kUsage;
    return Fail(parsed, kUsageError);
  }
  const std::string file = args.Get("--file");
  absl::StatusOr<std::string> text = ReadFile(file);
  if (!text.ok()) return Fail(text.status(), kUsageError);
  const int stripped = StripCoreAttributes(*text);
  // Unchanged files stay untouched (and keep their time stamp).
  if (stripped > 0) {
    if (absl::Status written = WriteFiles({{file, *text}}); !written.ok()) {
      return Fail(written, kUsageError);
    }
  }
  std::cout << stripped << "\n";
  return 0;
}

int RtcPass(int argc, char** argv) {
  Arguments args;
  if (absl::Status parsed =
          args.Parse(argc, argv, {"--input", "--program", "--registrations", "--kernels"}, {});
      !parsed.ok()) {
    std::cerr << kUsage;
    return Fail(parsed, kUsageError);
  }
  absl::StatusOr<std::string> text = ReadFile(args.Get("--input"));
  if (!text.ok()) return Fail(text.status(), kUsageError);

  const LexedSource lexed = Lex(*std::move(text), InputKind::kPreprocessed, args.Get("--program"));
  const KernelScan scan = ScanKernels(lexed, ScanRules{/*require_c_linkage=*/true});
  if (absl::Status written = WriteFiles({{args.Get("--registrations"), RtcRegistrations(scan)},
                                         {args.Get("--kernels"), KernelList(scan)}});
      !written.ok()) {
    return Fail(written, kUsageError);
  }
  for (const KernelDefinition& kernel : scan.definitions) {
    if (kernel.skipped.has_value()) std::cout << Diagnostic(kernel, Audience::kRtc) << "\n";
  }
  return 0;
}

}  // namespace
}  // namespace npud::ascendc

int main(int argc, char** argv) {
  const std::string command = argc >= 2 ? argv[1] : "";
  if (command == "source") return npud::ascendc::SourcePass(argc - 2, argv + 2);
  if (command == "rtc") return npud::ascendc::RtcPass(argc - 2, argv + 2);
  if (command == "attributes") return npud::ascendc::AttributesPass(argc - 2, argv + 2);
  std::cerr << npud::ascendc::kUsage;
  return npud::ascendc::kUsageError;
}
