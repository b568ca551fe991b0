#include "simdevice/ascendc/scanner/generated_files.h"

#include <cctype>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"

namespace npud::ascendc {
namespace {

absl::string_view TypeWord(CoreType type) {
  switch (type) {
    case CoreType::kVector:
      return "vector";
    case CoreType::kCube:
      return "cube";
    case CoreType::kMix:
      return "mix";
  }
  return "vector";
}

absl::string_view ReasonWord(SkipReason reason) {
  switch (reason) {
    case SkipReason::kTemplate:
      return "template";
    case SkipReason::kNamespace:
      return "namespace";
    case SkipReason::kScope:
      return "scope";
    case SkipReason::kCxxLinkage:
      return "linkage";
  }
  return "scope";
}

absl::string_view Why(SkipReason reason) {
  switch (reason) {
    case SkipReason::kTemplate:
      return "it is a template";
    case SkipReason::kNamespace:
      return "it is not defined at global scope";
    case SkipReason::kScope:
      return "it is defined in a class or function body";
    case SkipReason::kCxxLinkage:
      return "it has C++ linkage (declare it extern \"C\")";
  }
  return "";
}

// NPUD_KERNEL_REGISTER lines for the kernels the program does not register itself.
std::string RegistrationLines(const KernelScan& scan) {
  std::string lines;
  for (const KernelDefinition* kernel : KernelsToRegister(scan)) {
    switch (kernel->type) {
      case CoreType::kVector:
        absl::StrAppend(&lines, "NPUD_KERNEL_REGISTER(", kernel->name, ");\n");
        break;
      case CoreType::kCube:
        absl::StrAppend(&lines, "NPUD_KERNEL_REGISTER_AS(", kernel->name,
                        ", NPUD_CORE_TYPE_CUBE);\n");
        break;
      case CoreType::kMix:
        absl::StrAppend(&lines, "NPUD_KERNEL_REGISTER_AS(", kernel->name,
                        ", NPUD_CORE_TYPE_MIX);\n");
        break;
    }
  }
  return lines;
}

// NPUD_KERNEL_CORE_TYPE lines for the cube and mix kernels that only their launches
// can register (templates, kernels in namespaces).
std::string CoreTypeLines(const KernelScan& scan) {
  std::string lines;
  for (const KernelDefinition& kernel : scan.definitions) {
    if (kernel.type == CoreType::kVector ||
        (kernel.skipped != SkipReason::kTemplate && kernel.skipped != SkipReason::kNamespace)) {
      continue;
    }
    absl::StrAppend(&lines, "NPUD_KERNEL_CORE_TYPE(\"", kernel.name, "\", ",
                    kernel.type == CoreType::kCube ? "NPUD_CORE_TYPE_CUBE" : "NPUD_CORE_TYPE_MIX",
                    ");\n");
  }
  return lines;
}

// NPUD_KERNEL_MIX_VECTORS lines for the mix kernels of one vector core per group
// (KERNEL_TYPE_MIX_AIC_1_1), registered by name or by their launches.
std::string MixVectorsLines(const KernelScan& scan) {
  std::string lines;
  for (const KernelDefinition& kernel : scan.definitions) {
    if (kernel.type != CoreType::kMix || kernel.mix_vectors != 1) continue;
    if (kernel.skipped.has_value() && kernel.skipped != SkipReason::kTemplate &&
        kernel.skipped != SkipReason::kNamespace) {
      continue;
    }
    absl::StrAppend(&lines, "NPUD_KERNEL_MIX_VECTORS(\"", kernel.name, "\", 1);\n");
  }
  return lines;
}

// The parameters of `kernel` as a declaration list and as the names to pass on;
// unnamed parameters get the name npud_arg<i>. With `plain`, address-space
// qualifiers are dropped (for code that does not include the AscendC headers).
void ParamLists(const KernelDefinition& kernel, bool plain, std::string* declarations,
                std::string* names) {
  for (size_t i = 0; i < kernel.params.size(); ++i) {
    const KernelParam& param = kernel.params[i];
    std::string declaration = param.declaration;
    std::string name = param.name;
    if (name.empty()) {
      name = absl::StrCat("npud_arg", i);
      absl::StrAppend(&declaration, " ", name);
    }
    if (plain) {
      declaration = absl::StrReplaceAll(
          declaration, {{"__gm__ ", ""}, {"__ubuf__ ", ""}, {"GM_ADDR", "uint8_t *"}});
    }
    absl::StrAppend(declarations, ", ", declaration);
    absl::StrAppend(names, i == 0 ? "" : ", ", name);
  }
}

std::string LaunchDefinitions(const KernelScan& scan) {
  std::string out;
  for (const KernelDefinition& kernel : scan.definitions) {
    if (kernel.skipped.has_value()) continue;
    std::string declarations, names;
    ParamLists(kernel, /*plain=*/false, &declarations, &names);
    absl::StrAppend(&out,
                    "extern \"C\" __attribute__((visibility(\"default\"))) uint32_t aclrtlaunch_",
                    kernel.name, "(uint32_t npud_block_dim, void* npud_stream", declarations,
                    ") {\n  return ::npud_ascendc_launch<(", kernel.name, ")>(\"", kernel.name,
                    "\", npud_block_dim, nullptr, npud_stream)(", names, ");\n}\n");
    absl::StrAppend(&out, "NPUD_ASCENDC_KERNEL_SYMBOL(", kernel.name, ");\n");
  }
  return out;
}

}  // namespace

std::string LaunchHeader(const KernelDefinition& kernel) {
  std::string declarations, names;
  ParamLists(kernel, /*plain=*/true, &declarations, &names);
  std::string guard = absl::StrCat("NPUD_ACLRTLAUNCH_", kernel.name, "_H_");
  for (char& c : guard) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return absl::StrCat(
      "// Generated by npud-ascendc-scan (ascendc.cmake): launches kernel ", kernel.name,
      " of its ascendc_library.\n"
      "//   ACLRT_LAUNCH_KERNEL(",
      kernel.name,
      ")(blockDim, stream, args...)\n"
      "#ifndef ",
      guard, "\n#define ", guard,
      "\n#include <stdint.h>\n"
      "#include \"acl/acl_base.h\"\n"
      "#ifndef ACLRT_LAUNCH_KERNEL\n"
      "#define ACLRT_LAUNCH_KERNEL(kernel_func) aclrtlaunch_##kernel_func\n"
      "#endif\n"
      "#ifdef __cplusplus\nextern \"C\"\n#endif\n"
      "uint32_t aclrtlaunch_",
      kernel.name, "(uint32_t blockDim, void* stream", declarations, ");\n#endif\n");
}

std::string LineDirective(absl::string_view file) {
  std::string quoted;
  for (char c : file) {
    if (c == '"' || c == '\\') quoted += '\\';
    quoted += c;
  }
  return absl::StrCat("#line 1 \"", quoted, "\"\n");
}

std::string DeviceUnit(absl::string_view source, absl::string_view rewritten,
                       const KernelScan& scan) {
  return absl::StrCat(
      "// Generated by npud-ascendc-scan (ascendc.cmake) from ", source, "; do not edit.\n",
      "// Device half: compiled into the kernel object that the npud executor dlopen()s. The\n"
      "// <<<>>> launches of the source compile to stubs that never reach the ACL runtime.\n"
      "#include \"npud_ascendc/device_launch.h\"\n"
      "#include \"",
      rewritten,
      "\"\n"
      "#include \"npud_kernel_register.h\"\n"
      "\n"
      "// The kernels this source defines, listed in the object's npud_kernel_table (those\n"
      "// its launches name register themselves).\n",
      RegistrationLines(scan), CoreTypeLines(scan), MixVectorsLines(scan));
}

std::string HostUnit(absl::string_view source, absl::string_view rewritten,
                     absl::string_view library_namespace, const KernelScan& scan) {
  return absl::StrCat(
      "// Generated by npud-ascendc-scan (ascendc.cmake) from ", source, "; do not edit.\n",
      "// Host half: <<<>>> launches go through the ACL runtime to the kernel object embedded in\n"
      "// this library (",
      library_namespace,
      "::KernelLibrary, defined next to the embedded bytes).\n"
      "#define NPUD_KERNEL_NO_TABLE 1\n"
      "#include \"npud_ascendc/host_launch.h\"\n"
      "NPUD_ASCENDC_HOST_LAUNCHER(",
      library_namespace,
      ");\n"
      "#include \"",
      rewritten,
      "\"\n"
      "\n"
      "// ACLRT_LAUNCH_KERNEL(kernel)(blockDim, stream, args...) of aclrtlaunch_<kernel>.h, and\n"
      "// each kernel as a device symbol (aclrtGetFuncBySymbol).\n",
      LaunchDefinitions(scan));
}

std::string KernelReport(const KernelScan& scan) {
  std::string report;
  for (const KernelDefinition& kernel : scan.definitions) {
    if (kernel.skipped.has_value()) {
      absl::StrAppend(&report, "skipped ", kernel.name, " ", ReasonWord(*kernel.skipped), " ",
                      kernel.line, "\n");
    } else {
      absl::StrAppend(&report, "registered ", kernel.name, " ", TypeWord(kernel.type), " ",
                      kernel.line, "\n");
    }
  }
  return report;
}

std::string RtcRegistrations(const KernelScan& scan) {
  return absl::StrCat(LineDirective("<npud kernel registration>"),
                      "#include \"npud_kernel_register.h\"\n", RegistrationLines(scan),
                      MixVectorsLines(scan));
}

std::string KernelList(const KernelScan& scan) {
  std::string list;
  for (const std::string& name : KernelTable(scan)) absl::StrAppend(&list, name, "\n");
  return list;
}

std::string Diagnostic(const KernelDefinition& kernel, Audience audience) {
  if (!kernel.skipped.has_value()) return "";
  const std::string what = absl::StrCat("__global__ function '", kernel.name,
                                        "' is not registered as a kernel: ", Why(*kernel.skipped));
  if (audience == Audience::kBuild) {
    return absl::StrCat(kernel.file, ":", kernel.line, ": warning: ", what, "; launching it fails");
  }
  return absl::StrCat(kernel.file, ":", kernel.line, ": note: npud-rtc: ", what);
}

}  // namespace npud::ascendc
