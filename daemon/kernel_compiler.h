// kernel_compiler.h
//
// KernelCompiler: run-time compilation of AscendC kernel sources (aclrtc) in
// the daemon. A source, plus the headers the client sent with it, becomes a
// kernel binary — the same ELF shared object the AscendC toolchain builds
// (npud_kernel_table, one entry per kernel) — that clients then load with
// aclrtBinaryLoadFromData.
//
// How a request is compiled:
//   1. The options and header names are checked (common/rtc_options.h).
//   2. The source and headers are written into a fresh private directory
//      under Options::work_dir (daemon/scratch_directory.h); header names may
//      contain '/' subdirectories.
//   3. The source is preprocessed (`-E -fdirectives-only`: #if / #include are
//      resolved, macros are not expanded), and the kernel scanner of the AscendC
//      toolchain (npud-ascendc-scan rtc, simdevice/ascendc/scanner) finds its
//      kernels: every non-template `__global__` function with C linkage
//      (`extern "C"`, or in an `extern "C" { }` block) DEFINED at global scope
//      in the source or in one of its headers. Comments, string/character
//      literals (raw strings too) and disabled #if branches are ignored. Other
//      `__global__` functions are left alone and named in the log. The scanner
//      writes the NPUD_KERNEL_REGISTER lines for them.
//   4. A translation unit made of the source (with its own file name and
//      line numbers, so diagnostics read "<name>:<line>: error: ...") and the
//      registration lines is compiled with
//        <compiler> -std=c++17 -O2 -shared -fPIC <kernel options> -I<include_dir>
//                   -I. <user options> -o <object> <unit>
//      where <kernel options> are those of
//      simdevice/ascendc/npud_ascendc_options.cmake (KernelOptions()) plus
//      section garbage collection and -z defs (undefined symbols are errors
//      now, not at load time).
//   5. Its stdout and stderr, then the scanner's notes, are the log; the
//      object's bytes are the binary; the directory is removed.
// Every program (compiler, scanner) runs without a shell, in its own process
// group (daemon/helper_process.h), and all of them together get
// Options::timeout_seconds; then they are killed.
//
// The scanner runs as a program, not as a library call, for the same reason the
// compiler does: it parses what a client sent, so a fault or a runaway in it
// costs one compilation, not the daemon, and it can move into the compilation
// sandbox together with the compiler.
//
// Identical requests (same name, source, headers and options) are answered
// from an in-memory LRU cache of Options::cache_entries results without
// running the compiler; concurrent identical requests share one compiler
// run (daemon/compile_cache.h). Results are cached only when the compiler ran
// to its end (a compile error is cached, a timeout or a missing compiler is not).
//
// No gRPC and no protobuf here: the daemon's call handler translates.

#ifndef NPUD_DAEMON_KERNEL_COMPILER_H_
#define NPUD_DAEMON_KERNEL_COMPILER_H_

#include <atomic>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "daemon/compile_request.h"

namespace npud::daemon {

class CompileCache;

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
    // The kernel scanner, npud-ascendc-scan. Empty: the one next to the binary
    // this code is in (<dir>/npud-ascendc-scan or <dir>/../bin/npud-ascendc-scan,
    // for npud in bin/ and libacl_rt.so in lib64/ of an install tree), else the
    // one of the build tree. (Initialized so that DaemonCore's Options{dir}
    // leaves it empty without a missing-initializer warning.)
    std::string scanner{};
    // npud-sandbox-run: the compiler and the scanner run in it, with the
    // request's scratch directory their only writable one. Empty: they run
    // unsandboxed (the in-process transport, whose user runs them as
    // themselves anyway).
    std::string sandbox{};
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
  // Number of Compile() calls so far, answered from the cache or not.
  uint64_t requests() const { return requests_.load(); }

  // The kernel compile options of npud_ascendc_options.cmake.
  static const std::vector<std::string>& KernelOptions();

 private:
  // Compiles without the cache; *cacheable tells whether the result may be
  // kept (the compiler ran to its end).
  CompileOutput CompileUncached(const CompileRequest& request, bool* cacheable);

  const Options options_;
  const std::unique_ptr<CompileCache> cache_;
  std::atomic<int> runs_{0};
  std::atomic<uint64_t> requests_{0};
};

}  // namespace npud::daemon

#endif  // NPUD_DAEMON_KERNEL_COMPILER_H_
