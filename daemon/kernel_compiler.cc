#include "daemon/kernel_compiler.h"

#include <dlfcn.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <exception>
#include <filesystem>
#include <system_error>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "absl/time/clock.h"
#include "common/rtc_options.h"
#include "daemon/compile_cache.h"
#include "daemon/helper_process.h"
#include "daemon/scratch_directory.h"

namespace npud::daemon {
namespace {

namespace fs = std::filesystem;

constexpr char kDefaultProgramName[] = "default_program";
// Prefix of the log lines npud adds itself.
constexpr char kLogPrefix[] = "npud-rtc: ";
// Logs longer than this are cut (template errors can be enormous).
constexpr size_t kMaxLogBytes = 1 << 20;
constexpr char kScannerName[] = "npud-ascendc-scan";

// A compilation's scratch directory: the program (kRtcUnitFileName) and its
// headers in src/, the compiler's working directory, so that `-I.` and the
// client's relative -I options find them; what the steps write next to src/.
constexpr char kSourceDir[] = "src";
constexpr char kPreprocessed[] = "program.ii";
constexpr char kPreprocessLog[] = "preprocess.log";
constexpr char kRegistrations[] = "registrations.inc";
constexpr char kKernelList[] = "kernels.txt";
constexpr char kScanLog[] = "scan.log";
constexpr char kObject[] = "kernel.so";
constexpr char kCompileLog[] = "compile.log";

// The scanner installed next to the binary this code is linked into (npud in
// bin/, libacl_rt.so in lib64/), else the build tree's.
std::string DefaultScanner() {
  const std::string build_tree = NPUD_BUILD_ASCENDC_SCAN;
  Dl_info info;
  if (dladdr(reinterpret_cast<void*>(&DefaultScanner), &info) == 0 || info.dli_fname == nullptr) {
    return build_tree;
  }
  std::error_code ec;
  fs::path binary = info.dli_fname;
  // The main program is named as it was started, perhaps found through PATH.
  if (!binary.has_parent_path()) binary = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return build_tree;
  const fs::path dir = fs::absolute(binary.parent_path(), ec);
  if (ec) return build_tree;
  for (const fs::path& candidate : {dir / kScannerName, dir / ".." / "bin" / kScannerName}) {
    if (access(candidate.c_str(), X_OK) == 0) return candidate.lexically_normal().string();
  }
  return build_tree;
}

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
void AppendKeyField(std::string* key, absl::string_view field) {
  absl::StrAppend(key, field.size(), ":", field);
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

CompileOutput NpudFailure(absl::string_view what) {
  return Failure(absl::StrCat(kLogPrefix, what));
}

// A log a step wrote; "" if there is none.
std::string ReadLog(const ScratchDirectory& dir, absl::string_view name) {
  absl::StatusOr<std::string> log = dir.ReadFile(name);
  if (!log.ok()) return "";
  if (log->size() > kMaxLogBytes) {
    const size_t total = log->size();
    log->resize(kMaxLogBytes);
    absl::StrAppend(&*log, "\n", kLogPrefix, "log truncated (", total, " bytes)\n");
  }
  return *std::move(log);
}

// A program a compilation runs, as the log names it.
struct Tool {
  std::string path;
  std::string what;           // "the compiler 'g++'"
  absl::string_view missing;  // what to do when it does not exist
};

// What went wrong with a tool that did not run to its end (RunHelper's error).
std::string Describe(const absl::Status& status, const Tool& tool, int timeout_seconds) {
  switch (status.code()) {
    case absl::StatusCode::kNotFound:
      return absl::StrCat(tool.what, " was not found (", std::strerror(ENOENT), "); ",
                          tool.missing);
    case absl::StatusCode::kDeadlineExceeded:
      return absl::StrCat("compilation timed out after ", timeout_seconds, " s; ", tool.what,
                          " was killed");
    case absl::StatusCode::kAborted:
      return absl::StrCat(tool.what, " was ", status.message());
    case absl::StatusCode::kCancelled:
      return absl::StrCat("compilation cancelled; ", tool.what, " was ", status.message());
    default:
      return absl::StrCat("cannot run ", tool.what, ": ", status.message());
  }
}

}  // namespace

KernelCompiler::KernelCompiler(Options options)
    : options_([&options] {
        // Relative paths must survive the tools' chdir into the work directory.
        auto make_absolute = [](std::string* path) {
          if (path->empty() || (*path)[0] == '/') return;
          std::error_code ec;
          const fs::path absolute = fs::absolute(*path, ec);
          if (!ec) *path = absolute.string();
        };
        if (options.compiler.find('/') != std::string::npos) make_absolute(&options.compiler);
        if (options.scanner.empty()) options.scanner = DefaultScanner();
        if (options.scanner.find('/') != std::string::npos) make_absolute(&options.scanner);
        make_absolute(&options.include_dir);
        make_absolute(&options.work_dir);
        return std::move(options);
      }()),
      cache_(std::make_unique<CompileCache>(options_.cache_entries)) {}

KernelCompiler::~KernelCompiler() = default;

int KernelCompiler::compiler_runs() const { return runs_.load(); }

const std::vector<std::string>& KernelCompiler::KernelOptions() {
  // Keep in step with simdevice/ascendc/npud_ascendc_options.cmake (a unit test
  // compares the two).
  static const std::vector<std::string> options = {
      "-fPIC",        "-fvisibility=hidden",  "-fvisibility-inlines-hidden",
      "-fexceptions", "-fno-strict-aliasing", "-Wno-unused-parameter"};
  return options;
}

CompileOutput KernelCompiler::Compile(const CompileRequest& request) {
  ++requests_;
  try {
    if (absl::Status checked = CheckRtcOptions(request.options); !checked.ok()) {
      return NpudFailure(checked.message());
    }
    absl::flat_hash_set<absl::string_view> header_names;
    for (const auto& header : request.headers) {
      if (absl::Status checked = CheckRtcHeaderName(header.first); !checked.ok()) {
        return NpudFailure(checked.message());
      }
      if (!header_names.insert(header.first).second) {
        return NpudFailure(absl::StrCat("header '", header.first, "' is given twice"));
      }
    }
    return cache_->GetOrCompute(CacheKey(request), [&](bool* cacheable) {
      try {
        return CompileUncached(request, cacheable);
      } catch (const std::exception& e) {
        *cacheable = false;
        return NpudFailure(absl::StrCat("internal error: ", e.what()));
      }
    });
  } catch (const std::exception& e) {
    return NpudFailure(absl::StrCat("internal error: ", e.what()));
  }
}

CompileOutput KernelCompiler::CompileUncached(const CompileRequest& request, bool* cacheable) {
  *cacheable = false;
  const absl::Time deadline = options_.timeout_seconds > 0
                                  ? absl::Now() + absl::Seconds(options_.timeout_seconds)
                                  : absl::InfiniteFuture();
  absl::StatusOr<std::vector<std::string>> user_args = RtcCompilerArguments(request.options);
  if (!user_args.ok()) return NpudFailure(user_args.status().message());
  const Tool compiler{options_.compiler, absl::StrCat("the compiler '", options_.compiler, "'"),
                      "npud needs a C++ compiler (g++) to compile AscendC programs"};
  const Tool scanner{options_.scanner, absl::StrCat("the kernel scanner '", options_.scanner, "'"),
                     "it is installed next to npud, as bin/npud-ascendc-scan"};

  absl::StatusOr<std::unique_ptr<ScratchDirectory>> created =
      ScratchDirectory::Create(options_.work_dir);
  if (!created.ok()) return NpudFailure(created.status().message());
  ScratchDirectory& dir = **created;
  // Every helper runs to the deadline, in the sandbox, writing only `dir`.
  auto helper = [&](const std::vector<std::string>& argv, const std::string& cwd,
                    const std::string& log) {
    HelperRun run;
    run.argv = argv;
    run.cwd = cwd;
    run.log_path = log;
    run.deadline = deadline;
    run.sandbox = options_.sandbox;
    run.writable = dir.path();
    if (options_.timeout_seconds > 0) run.cpu_seconds = options_.timeout_seconds;
    run.cancelled = request.cancelled.get();
    return run;
  };
  const std::string src = dir.PathOf(kSourceDir);
  for (const auto& [name, content] : request.headers) {
    if (absl::Status written = dir.WriteNewFile(absl::StrCat(kSourceDir, "/", name), content);
        !written.ok()) {
      return NpudFailure(absl::StrCat("cannot write header '", name, "': ", written.message()));
    }
  }
  // The unit: the source under its own name and line numbers.
  const std::string display = DisplayName(request.name);
  const std::string unit_path = absl::StrCat(kSourceDir, "/", kRtcUnitFileName);
  std::string unit = absl::StrCat("#line 1 ", QuotedForLine(display), "\n", request.source);
  if (absl::Status written = dir.WriteNewFile(unit_path, unit); !written.ok()) {
    return NpudFailure(absl::StrCat("cannot write the program: ", written.message()));
  }

  std::vector<std::string> common = {"-std=c++17"};
  common.insert(common.end(), KernelOptions().begin(), KernelOptions().end());
  if (!options_.include_dir.empty()) common.push_back("-I" + options_.include_dir);
  common.push_back("-I.");
  common.insert(common.end(), user_args->begin(), user_args->end());
  common.push_back("-fdiagnostics-color=never");

  runs_.fetch_add(1);

  // Step 1: the program preprocessed, for the scanner.
  std::vector<std::string> argv = {compiler.path, "-E", "-fdirectives-only"};
  argv.insert(argv.end(), common.begin(), common.end());
  argv.insert(argv.end(), {"-o", dir.PathOf(kPreprocessed), kRtcUnitFileName});
  absl::StatusOr<int> exit = RunHelper(helper(argv, src, dir.PathOf(kPreprocessLog)));
  if (!exit.ok()) {
    return Failure(absl::StrCat(ReadLog(dir, kPreprocessLog), kLogPrefix,
                                Describe(exit.status(), compiler, options_.timeout_seconds)));
  }
  if (*exit != 0) {
    // Preprocessing errors (a missing header, #error) are compile errors.
    *cacheable = true;
    return Failure(ReadLog(dir, kPreprocessLog));
  }

  // Step 2: its kernels, and the lines that register them.
  argv = {scanner.path,
          "rtc",
          absl::StrCat("--input=", kPreprocessed),
          absl::StrCat("--program=", display),
          absl::StrCat("--registrations=", kRegistrations),
          absl::StrCat("--kernels=", kKernelList)};
  exit = RunHelper(helper(argv, dir.path(), dir.PathOf(kScanLog)));
  const std::string notes = ReadLog(dir, kScanLog);
  if (!exit.ok()) {
    return Failure(absl::StrCat(notes, kLogPrefix,
                                Describe(exit.status(), scanner, options_.timeout_seconds)));
  }
  if (*exit != 0) {
    return Failure(
        absl::StrCat(notes, kLogPrefix, scanner.what, " failed (exit status ", *exit, ")"));
  }
  absl::StatusOr<std::string> registrations = dir.ReadFile(kRegistrations);
  absl::StatusOr<std::string> kernel_list = dir.ReadFile(kKernelList);
  if (!registrations.ok() || !kernel_list.ok()) {
    return NpudFailure(absl::StrCat(scanner.what, " wrote no kernel list"));
  }

  // Step 3: the program with its kernels registered.
  absl::StrAppend(&unit, "\n\n", *registrations);
  if (absl::Status written = dir.ReplaceFile(unit_path, unit); !written.ok()) {
    return NpudFailure(absl::StrCat("cannot write the program: ", written.message()));
  }
  argv = {compiler.path, "-O2", "-shared"};
  argv.insert(argv.end(), common.begin(), common.end());
  argv.insert(argv.end(), {"-ffunction-sections", "-fdata-sections", "-Wl,--gc-sections",
                           "-Wl,-z,defs", "-o", dir.PathOf(kObject), kRtcUnitFileName});
  exit = RunHelper(helper(argv, src, dir.PathOf(kCompileLog)));

  CompileOutput output;
  output.log = ReadLog(dir, kCompileLog) + notes;
  if (!exit.ok()) {
    absl::StrAppend(&output.log, kLogPrefix,
                    Describe(exit.status(), compiler, options_.timeout_seconds), "\n");
    return output;
  }
  *cacheable = true;
  if (*exit != 0) return output;
  absl::StatusOr<std::string> binary = dir.ReadFile(kObject);
  if (!binary.ok() || binary->empty()) {
    *cacheable = false;
    absl::StrAppend(&output.log, kLogPrefix, "the compiler succeeded but wrote no kernel binary\n");
    return output;
  }
  output.kernels = absl::StrSplit(*kernel_list, '\n', absl::SkipEmpty());
  if (output.kernels.empty()) {
    absl::StrAppend(&output.log, kLogPrefix,
                    "warning: the program defines no extern \"C\" __global__ kernel; its binary "
                    "has no functions\n");
  }
  output.binary = *std::move(binary);
  output.success = true;
  return output;
}

}  // namespace npud::daemon
