// MakeInprocTransport: the daemon core for NPUD_ADDRESS=inproc: lives in
// libnpud_inproc.so, loaded here on first use, so that programs talking to
// a real daemon carry none of it (no simulated devices, no kernel compiler,
// no fault handlers) in their process.

#include <dlfcn.h>

#include <string>

#include "absl/strings/str_cat.h"
#include "client/transport/transport.h"

namespace npud::client {
namespace {

constexpr char kLibraryName[] = "libnpud_inproc.so";
constexpr char kEntryPoint[] = "npud_inproc_make_transport";

using MakeTransportFn = Transport* (*)();

// The directory this library was loaded from, with a trailing '/'.
std::string OwnDirectory() {
  Dl_info info;
  if (dladdr(reinterpret_cast<void*>(&OwnDirectory), &info) == 0 || info.dli_fname == nullptr) {
    return "";
  }
  const std::string path = info.dli_fname;
  return path.substr(0, path.rfind('/') + 1);
}

// Next to libacl_rt.so first (install tree and build tree alike), then the
// loader's search path. Never unloaded: the core's threads run until exit.
absl::StatusOr<MakeTransportFn> LoadEntryPoint() {
  std::string errors;
  for (const std::string& candidate : {OwnDirectory() + kLibraryName, std::string(kLibraryName)}) {
    void* library = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (library == nullptr) {
      absl::StrAppend(&errors, "\n  ", dlerror());
      continue;
    }
    void* entry = dlsym(library, kEntryPoint);
    if (entry != nullptr) return reinterpret_cast<MakeTransportFn>(entry);
    absl::StrAppend(&errors, "\n  ", candidate, " has no ", kEntryPoint);
  }
  return absl::UnavailableError(
      absl::StrCat("NPUD_ADDRESS=inproc: needs ", kLibraryName, ":", errors));
}

}  // namespace

absl::StatusOr<std::unique_ptr<Transport>> MakeInprocTransport() {
  static const absl::StatusOr<MakeTransportFn> entry = LoadEntryPoint();
  if (!entry.ok()) return entry.status();
  return std::unique_ptr<Transport>((*entry)());
}

}  // namespace npud::client
