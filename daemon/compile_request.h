// compile_request.h
//
// One run-time compilation as the daemon's compiler sees it: what a client asks
// for (CompileRequest) and what it gets back (CompileOutput). Apart from
// kernel_compiler.h so that the compiler's parts (the cache) can hold results
// without depending on the compiler. No gRPC and no protobuf: the daemon's call
// handler translates.

#ifndef NPUD_DAEMON_COMPILE_REQUEST_H_
#define NPUD_DAEMON_COMPILE_REQUEST_H_

#include <atomic>
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
  // Turns true when the asking session ends: the compiler is killed and its
  // scratch directory removed (the result is not cached).
  std::shared_ptr<const std::atomic<bool>> cancelled;
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

}  // namespace npud::daemon

#endif  // NPUD_DAEMON_COMPILE_REQUEST_H_
