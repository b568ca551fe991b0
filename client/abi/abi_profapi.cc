// The rest of libprofapi.so's interface (profiling/aprof_pub.h) beside the
// model-id calls of abi_prof.cc. CANN's components report their own records
// into a collection through it; npud's profiling records the session's
// timeline itself, so the collection side is not simulated (the calls say
// so once and return ACL_ERROR_RT_FEATURE_NOT_SUPPORT). What a caller can
// use outside a collection works: string ids, time stamps, the operator
// switch (off: nothing selects operators).

#include <time.h>

#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>

#include "client/abi/profapi_exports.h"
#include "client/abi/unsupported.h"

namespace {

// Ids of strings, so that MsprofId2Str can give them back. Nodes of an
// unordered_map stay where they are, so the strings handed out stay valid.
class StringIds {
 public:
  static StringIds& Get() {
    static auto* ids = new StringIds();
    return *ids;
  }

  uint64_t Id(const char* text, size_t length) {
    // FNV-1a: stable across runs and processes, as record ids must be.
    uint64_t hash = 14695981039346656037ull;
    for (size_t i = 0; i < length; ++i) {
      hash = (hash ^ static_cast<unsigned char>(text[i])) * 1099511628211ull;
    }
    std::lock_guard<std::mutex> lock(mu_);
    strings_.try_emplace(hash, text, length);
    return hash;
  }

  char* Text(uint64_t id) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = strings_.find(id);
    return it == strings_.end() ? nullptr : it->second.data();
  }

 private:
  std::mutex mu_;
  std::unordered_map<uint64_t, std::string> strings_;
};

int32_t NotSimulated(const char* name) { return npud::client::ReportUnsupported(name); }

}  // namespace

extern "C" {

int32_t MsprofInit(uint32_t, void*, uint32_t) { return NotSimulated("MsprofInit"); }
int32_t MsprofFinalize(void) { return NotSimulated("MsprofFinalize"); }
int32_t MsprofRegisterCallback(uint32_t, ProfCommandHandle) {
  return NotSimulated("MsprofRegisterCallback");
}
int32_t MsprofReportApi(uint32_t, const struct MsprofApi*) {
  return NotSimulated("MsprofReportApi");
}
int32_t MsprofReportEvent(uint32_t, const struct MsprofEvent*) {
  return NotSimulated("MsprofReportEvent");
}
int32_t MsprofReportCompactInfo(uint32_t, const VOID_PTR, uint32_t) {
  return NotSimulated("MsprofReportCompactInfo");
}
int32_t MsprofReportAdditionalInfo(uint32_t, const VOID_PTR, uint32_t) {
  return NotSimulated("MsprofReportAdditionalInfo");
}
int32_t MsprofReportBatchAdditionalInfo(uint32_t, const VOID_PTR, uint32_t) {
  return NotSimulated("MsprofReportBatchAdditionalInfo");
}
size_t MsprofGetBatchReportMaxSize(uint32_t) {
  NotSimulated("MsprofGetBatchReportMaxSize");
  return 0;
}
int32_t MsprofRegTypeInfo(uint16_t, uint32_t, const char*) {
  return NotSimulated("MsprofRegTypeInfo");
}
int32_t MsprofRegDataFormat(uint16_t, uint32_t, const char*) {
  return NotSimulated("MsprofRegDataFormat");
}
char* MsprofGetPath(void) {
  NotSimulated("MsprofGetPath");
  return nullptr;
}

uint64_t MsprofStr2Id(const char* hashInfo, size_t length) {
  if (hashInfo == nullptr) return 0;
  try {
    return StringIds::Get().Id(hashInfo, length);
  } catch (...) {
    return 0;  // out of memory: no id
  }
}

uint64_t MsprofGetHashId(const char* hashInfo, size_t length) {
  return MsprofStr2Id(hashInfo, length);
}

char* MsprofId2Str(const uint64_t Id) { return StringIds::Get().Text(Id); }

uint64_t MsprofSysCycleTime(void) {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC_RAW, &now);
  return static_cast<uint64_t>(now.tv_sec) * 1000000000ull + static_cast<uint64_t>(now.tv_nsec);
}

bool MsprofCheckOpSwitch(uint32_t, const char*, size_t) { return false; }

}  // extern "C"
