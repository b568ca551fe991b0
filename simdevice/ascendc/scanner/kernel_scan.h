// kernel_scan.h
//
// Which kernels a source defines, and so which NPUD_KERNEL_REGISTER lines its kernel
// object needs. npud registers kernels by name from the source alone (nothing reads
// the compiled object), so this is a small structural parse of the tokens of
// source_lexer.h: statements, braces and parentheses, no types and no macros.
//
// A kernel is a `__global__` function DEFINED (a body follows) at global scope: in no
// namespace, class or function body, under a plain name. `extern "C" { }` and
// `extern "C++" { }` blocks are global scope. Such a function is registered unless
//   * it is a template (its instantiations cannot be named from the source), or
//   * ScanRules::require_c_linkage is set and it has C++ linkage (run-time
//     compilation: clients look kernels up by their plain name, as with CANN's
//     aclrtc, so a kernel must be extern "C", or in an extern "C" block).
// Every other `__global__` definition is listed as skipped, with the reason.
// `__cube__` and `__mix__` kernels are registered with their core type, and so are
// plain `__aicore__` kernels of a source that uses the Matmul API in mix mode (it
// includes lib/matmul_intf.h without defining ASCENDC_CUBE_ONLY first): CANN builds
// those as mix kernels. A name is registered once. Prototypes are not definitions, and `__global__`
// in a preprocessing directive (#define KERNEL extern "C" __global__) is not seen: macros are not
// expanded.
//
// A program may register kernels itself (NPUD_KERNEL_REGISTER(name); or
// NPUD_KERNEL_REGISTER_AS(name, type); at namespace scope); those names are listed
// apart so that nobody registers them twice.

#ifndef NPUD_SIMDEVICE_ASCENDC_SCANNER_KERNEL_SCAN_H_
#define NPUD_SIMDEVICE_ASCENDC_SCANNER_KERNEL_SCAN_H_

#include <optional>
#include <string>
#include <vector>

#include "simdevice/ascendc/scanner/source_lexer.h"

namespace npud::ascendc {

enum class CoreType { kVector, kCube, kMix };

enum class SkipReason {
  kTemplate,
  kNamespace,   // in a namespace, or defined under a qualified name
  kScope,       // in a class or function body
  kCxxLinkage,  // only with ScanRules::require_c_linkage
};

// One parameter of a kernel: its declaration as written (tokens joined by single
// spaces, without a default argument) and its name ("" if it has none).
struct KernelParam {
  std::string declaration;
  std::string name;
};

struct KernelDefinition {
  std::string name;
  std::vector<KernelParam> params;
  CoreType type = CoreType::kVector;
  // The vector cores per group of a mix kernel: 2, or 1 for KERNEL_TYPE_MIX_AIC_1_1
  // and __mix__(1, 1) kernels.
  int mix_vectors = 2;
  // Empty for a registered kernel.
  std::optional<SkipReason> skipped;
  std::string file;
  // The line of the name.
  int line = 0;
};

// A `__gm__` variable defined at global scope (or in an extern "C" block) with one
// declarator, `__gm__ T name[...] = init;`: a device variable (device_variables.h).
// Its definition spans [begin, end) of the text, `end` just past its ';'. Not
// variables: extern declarations, constexpr ones, function pointers and declarations
// of several names.
struct DeviceVariable {
  std::string name;
  size_t begin = 0;
  size_t end = 0;
  int line = 0;
};

struct KernelScan {
  // Registered and skipped definitions, in source order.
  std::vector<KernelDefinition> definitions;
  // In source order.
  std::vector<DeviceVariable> variables;
  // Names the program registers itself, in source order.
  std::vector<std::string> self_registered;
};

struct ScanRules {
  bool require_c_linkage = false;
};

KernelScan ScanKernels(const LexedSource& source, const ScanRules& rules);

// The registered kernels that the program does not register itself: those that
// need an NPUD_KERNEL_REGISTER line.
std::vector<const KernelDefinition*> KernelsToRegister(const KernelScan& scan);

// Whether a kernel the scan could not register by name is registered by the source's
// own launches of it (`launched`: RewriteLaunches): a template or a kernel in a
// namespace, launched with <<<>>> (device_launch.h registers what a launch names).
bool RegisteredByLaunch(const KernelDefinition& kernel, const std::vector<std::string>& launched);

// The kernel object's table in order: what the program registers itself (its lines
// come first, in the source), then KernelsToRegister.
std::vector<std::string> KernelTable(const KernelScan& scan);

}  // namespace npud::ascendc

#endif  // NPUD_SIMDEVICE_ASCENDC_SCANNER_KERNEL_SCAN_H_
