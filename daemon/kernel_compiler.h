// kernel_compiler.h
//
// KernelCompiler: run-time compilation of AscendC kernel sources (aclrtc) in
// the daemon. A source, plus the headers the client sent with it, becomes a
// kernel binary — the same ELF shared object the AscendC toolchain builds
// (npud_kernel_table, one entry per kernel) — that clients then load with
// aclrtBinaryLoadFromData.
//
// How a request is compiled:
//   1. The options are checked against an allow-list (CheckOptions), the
//      header names against path rules (CheckHeaderName).
//   2. The source and headers are written into a fresh private directory
//      under Options::work_dir; header names may contain '/' subdirectories.
//   3. The source is preprocessed (directives only: #if / #include are
//      resolved, macros are not expanded) and scanned for kernels: every
//      non-template `__global__` function with C linkage (`extern "C"`, or in
//      an `extern "C" { }` block) DEFINED at global scope in the source or in
//      one of its headers. Comments, string/character literals (raw strings
//      too) and disabled #if branches are ignored. Other `__global__`
//      functions are left alone and named in the log.
//   4. A translation unit made of the source (with its own file name and
//      line numbers, so diagnostics read "<name>:<line>: error: ...") and one
//      NPUD_KERNEL_REGISTER line per kernel found is compiled with
//        <compiler> -std=c++17 -O2 -shared -fPIC <kernel options> -I<include_dir>
//                   -I. <user options> -o <object> <unit>
//      where <kernel options> are those of
//      simdevice/ascendc/npud_ascendc_options.cmake (KernelOptions()) plus
//      section garbage collection and -z defs (undefined symbols are errors
//      now, not at load time). No shell is involved; the compiler runs in
//      its own process group and is killed after Options::timeout_seconds.
//   5. Its stdout and stderr are the log; the object's bytes are the binary;
//      the directory is removed.
//
// Accepted user options: -D<macro>[=<value>], -U<macro>, -I<relative dir>
// (also as two arguments "-D" "<macro>", "-I" "<dir>"), -O0 -O1 -O2 -O3, -g,
// -std=c++17, -std=c++20, -w, -Wall, -Werror; bisheng's --npu-arch=<arch>
// (or "--npu-arch" "<arch>"), --npu-*=... and --cce-*[=...] options are
// accepted and ignored. Anything else fails the request with
// "unsupported option ...".
//
// Identical requests (same name, source, headers and options) are answered
// from an in-memory LRU cache of Options::cache_entries results without
// running the compiler; concurrent identical requests share one compiler
// run. Results are cached only when the compiler ran to its end (a compile
// error is cached, a timeout or a missing compiler is not).
//
// No gRPC and no protobuf here: the daemon's call handler translates.

#ifndef NPUD_DAEMON_KERNEL_COMPILER_H_
#define NPUD_DAEMON_KERNEL_COMPILER_H_

#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace npud::daemon {

struct CompileRequest {
  std::string source;
  // The program's name, used as the source's file name in diagnostics;
  // "default_program" when empty.
  std::string name;
  // {include name, content}: `#include "<include name>"` finds the content.
  std::vector<std::pair<std::string, std::string>> headers;
  std::vector<std::string> options;
};

struct CompileOutput {
  bool success = false;
  // The kernel binary (ELF shared object); empty unless success.
  std::string binary;
  // The compiler's output, verbatim, then notes of npud's own (kernels not
  // registered); on failures that are not compile errors, what went wrong.
  std::string log;
  // The registered kernels, in the order of the binary's kernel table.
  std::vector<std::string> kernels;
  // True when the answer came from the cache (or from an identical request
  // compiled at the same time) instead of a compiler run of this call.
  bool from_cache = false;
};

class KernelCompiler {
 public:
  struct Options {
    // The CPU AscendC headers (kernel_operator.h); passed as -I.
    std::string include_dir;
    // GCC's g++ (the kernel scan uses its `-E -fdirectives-only`); looked up
    // in PATH unless it contains a '/'.
    std::string compiler = "g++";
    // Results kept in the LRU cache; 0 disables the cache.
    size_t cache_entries = 64;
    // Where the private per-request directories are made.
    std::string work_dir = "/tmp";
    // Wall-clock limit of one compilation; the compiler is killed after it.
    // 0 or less: no limit.
    int timeout_seconds = 120;
  };

  explicit KernelCompiler(Options options);
  ~KernelCompiler();
  KernelCompiler(const KernelCompiler&) = delete;
  KernelCompiler& operator=(const KernelCompiler&) = delete;

  // Compiles an AscendC kernel source into a kernel binary. Thread-safe;
  // blocks while the compiler runs. Never throws: failures are
  // success = false with a log explaining them (compiler errors verbatim,
  // "unsupported option ...", "... not found" for a missing compiler,
  // "... timed out ...").
  CompileOutput Compile(const CompileRequest& request);

  // Number of compilations that ran the compiler so far (requests answered
  // from the cache, or rejected before compiling, do not count).
  int compiler_runs() const;

  // Empty if every option is accepted, else the reason for the first one
  // that is not ("unsupported option '...' ..."). Pure; shared with the
  // client library, which answers ACL_ERROR_RTC_INVALID_OPTION without a
  // round trip.
  static std::string CheckOptions(const std::vector<std::string>& options);

  // Empty if `name` can name a header (relative, no ".." component, no empty
  // component, no NUL), else the reason.
  static std::string CheckHeaderName(const std::string& name);

  // The kernel compile options of npud_ascendc_options.cmake.
  static const std::vector<std::string>& KernelOptions();

 private:
  struct State;
  // Compiles without the cache; *cacheable tells whether the result may be
  // kept (the compiler ran to its end).
  CompileOutput CompileUncached(const CompileRequest& request, bool* cacheable);

  const Options options_;
  const std::unique_ptr<State> state_;
};

}  // namespace npud::daemon

#endif  // NPUD_DAEMON_KERNEL_COMPILER_H_
