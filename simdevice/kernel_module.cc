#include "simdevice/kernel_module.h"

#include <dlfcn.h>
#include <link.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "common/acl_status.h"
#include "common/status_macros.h"
#include "simdevice/elf_functions.h"
#include "spdlog/spdlog.h"

namespace npud::sim {

absl::StatusOr<std::shared_ptr<const KernelModule>> KernelModule::Load(absl::string_view bytes,
                                                                       absl::string_view label) {
  NPUD_ASSIGN_OR_RETURN(const int fd, StoreFile(bytes, label));
  return LoadFile(fd, label);
}

absl::StatusOr<int> KernelModule::StoreFile(absl::string_view bytes, absl::string_view label) {
  if (bytes.size() < 64 || bytes.substr(0, 4) !=
                               "\x7f"
                               "ELF") {
    return AclError(kRtParamInvalid,
                    absl::StrCat("kernel binary '", label, "' is not an ELF object (", bytes.size(),
                                 " bytes)"));
  }
  const int fd = memfd_create("npud-kernel", MFD_CLOEXEC);
  if (fd < 0) {
    return AclError(kRtInternalError, absl::StrCat("memfd_create: ", std::strerror(errno)));
  }
  size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t n = write(fd, bytes.data() + written, bytes.size() - written);
    if (n <= 0) {
      close(fd);
      return AclError(kRtInternalError,
                      absl::StrCat("writing kernel binary: ", std::strerror(errno)));
    }
    written += n;
  }
  return fd;
}

absl::StatusOr<std::shared_ptr<const KernelModule>> KernelModule::LoadFile(
    int fd, absl::string_view label, const std::string& path) {
  // The file stays open while the module is loaded: glibc knows loaded
  // objects by path, and a reused descriptor number would make the next
  // load return this module instead of its own.
  const std::string from = path.empty() ? absl::StrCat("/proc/self/fd/", fd) : path;
  void* handle = dlopen(from.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    close(fd);
    return AclError(kRtParamInvalid,
                    absl::StrCat("cannot load kernel binary '", label, "': ", dlerror()));
  }
  // Loaded from a copy: the memory file is not needed past reading the
  // symbols below (a kernel host keeps no descriptor it need not).
  std::shared_ptr<KernelModule> module(
      new KernelModule(handle, path.empty() ? fd : -1, std::string(label)));
  struct CloseCopySource {
    int fd;
    ~CloseCopySource() {
      if (fd >= 0) close(fd);
    }
  } close_source{path.empty() ? -1 : fd};
  auto table = reinterpret_cast<NpudKernelTableFn>(dlsym(handle, NPUD_KERNEL_TABLE_SYMBOL));
  if (table == nullptr) {
    return AclError(kRtParamInvalid,
                    absl::StrCat("kernel binary '", label, "' has no ", NPUD_KERNEL_TABLE_SYMBOL,
                                 " (not built with the npud AscendC toolchain)"));
  }
  auto params = reinterpret_cast<NpudKernelParamsFn>(dlsym(handle, NPUD_KERNEL_PARAMS_SYMBOL));
  // Symbol values are addresses relative to where the object was loaded.
  link_map* load_base = nullptr;
  if (dlinfo(handle, RTLD_DI_LINKMAP, &load_base) != 0) load_base = nullptr;
  size_t count = 0;
  const NpudKernelInfo* infos = table(&count);
  for (size_t i = 0; i < count; ++i) {
    KernelInfo kernel{infos[i].name, infos[i].entry, infos[i].args_size, infos[i].kernel_type, {}};
    if (load_base != nullptr) {
      const uint64_t address = reinterpret_cast<uint64_t>(infos[i].entry) - load_base->l_addr;
      if (absl::StatusOr<FunctionCode> code = FunctionCodeAt(fd, address); code.ok()) {
        kernel.code_offset = code->file_offset;
        kernel.code_size = code->size;
      }
    }
    size_t param_count = 0;
    const uint32_t* offsets = nullptr;
    const uint32_t* sizes = nullptr;
    if (params != nullptr && params(i, &param_count, &offsets, &sizes) == 1) {
      for (size_t p = 0; p < param_count; ++p) kernel.params.emplace_back(offsets[p], sizes[p]);
    }
    module->kernels_.push_back(std::move(kernel));
  }
  if (auto variables =
          reinterpret_cast<NpudKernelVariablesFn>(dlsym(handle, NPUD_KERNEL_VARIABLES_SYMBOL))) {
    size_t variable_count = 0;
    const NpudVariableInfo* infos = variables(&variable_count);
    for (size_t i = 0; i < variable_count; ++i) {
      module->variables_.push_back(
          VariableInfo{infos[i].name, reinterpret_cast<uint64_t>(infos[i].address), infos[i].size});
    }
  }
  spdlog::debug("loaded kernel binary '{}': {} kernel(s), {} device variable(s)", module->label(),
                count, module->variables_.size());
  return std::shared_ptr<const KernelModule>(std::move(module));
}

uint64_t VariableInfo::mapped_size() const {
  constexpr uint64_t kPage = 4096;
  return size == 0 ? kPage : (size + kPage - 1) / kPage * kPage;
}

KernelModule::~KernelModule() {
  dlclose(handle_);
  // The variables' pages are the object's own mappings (device_variables.h),
  // which dlclose leaves; they may hold device memory the loader mapped there.
  for (const VariableInfo& variable : variables_) {
    munmap(reinterpret_cast<void*>(variable.address), variable.mapped_size());
  }
  if (fd_ >= 0) close(fd_);
}

int KernelModule::Find(absl::string_view name) const {
  for (size_t i = 0; i < kernels_.size(); ++i) {
    if (kernels_[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

}  // namespace npud::sim
