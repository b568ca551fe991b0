// The mstx tool in npud's library: InitInjectionMstx (CANN's libprofapi.so
// exports it) fills a program's mstx tables (mstx/ms_tools_ext.h) with
// functions that record into client/core/prof_markers.h. Streams are not
// used: a marker's time is the host's when the call is made.

#include <cstdint>

#include "client/abi/profapi_exports.h"
#include "client/core/prof_markers.h"
#include "mstx/ms_tools_ext.h"

using npud::client::ProfMarkers;

namespace {

void MarkA(const char* message, aclrtStream) { ProfMarkers::Get().MstxMark(nullptr, message); }

mstxRangeId RangeStartA(const char* message, aclrtStream) {
  return ProfMarkers::Get().MstxRangeStart(nullptr, message);
}

void RangeEnd(mstxRangeId id) { ProfMarkers::Get().MstxRangeEnd(nullptr, id); }

void GetToolId(uint64_t* id) {
  if (id != nullptr) *id = MSTX_TOOL_MSPROF_ID;
}

mstxDomainHandle_t DomainCreateA(const char* name) {
  return static_cast<mstxDomainHandle_t>(ProfMarkers::Get().CreateDomain(name));
}

void DomainDestroy(mstxDomainHandle_t domain) { ProfMarkers::Get().DestroyDomain(domain); }

void DomainMarkA(mstxDomainHandle_t domain, const char* message, aclrtStream) {
  if (domain != nullptr) ProfMarkers::Get().MstxMark(domain, message);
}

mstxRangeId DomainRangeStartA(mstxDomainHandle_t domain, const char* message, aclrtStream) {
  return domain != nullptr ? ProfMarkers::Get().MstxRangeStart(domain, message) : 0;
}

void DomainRangeEnd(mstxDomainHandle_t domain, mstxRangeId id) {
  if (domain != nullptr) ProfMarkers::Get().MstxRangeEnd(domain, id);
}

template <typename F>
mstxFuncPointer Pointer(F f) {
  return reinterpret_cast<mstxFuncPointer>(f);
}

// Writes `impl` into slot `slot` of `table` (of `size` + 1 slots).
void Fill(mstxFuncTable table, unsigned int size, unsigned int slot, mstxFuncPointer impl) {
  if (slot <= size && table[slot] != nullptr) *table[slot] = impl;
}

}  // namespace

extern "C" __attribute__((visibility("default"))) int InitInjectionMstx(
    mstxGetModuleFuncTableFunc getFuncTable) {
  if (getFuncTable == nullptr) return MSTX_FAIL;
  mstxFuncTable core = nullptr;
  unsigned int core_size = 0;
  if (getFuncTable(MSTX_API_MODULE_CORE, &core, &core_size) != MSTX_SUCCESS || core == nullptr) {
    return MSTX_FAIL;
  }
  Fill(core, core_size, MSTX_API_CORE_MARK_A, Pointer(MarkA));
  Fill(core, core_size, MSTX_API_CORE_RANGE_START_A, Pointer(RangeStartA));
  Fill(core, core_size, MSTX_API_CORE_RANGE_END, Pointer(RangeEnd));
  Fill(core, core_size, MSTX_API_CORE_GET_TOOL_ID, Pointer(GetToolId));
  mstxFuncTable domain = nullptr;
  unsigned int domain_size = 0;
  if (getFuncTable(MSTX_API_MODULE_CORE_DOMAIN, &domain, &domain_size) == MSTX_SUCCESS &&
      domain != nullptr) {
    Fill(domain, domain_size, MSTX_API_CORE2_DOMAIN_CREATE_A, Pointer(DomainCreateA));
    Fill(domain, domain_size, MSTX_API_CORE2_DOMAIN_DESTROY, Pointer(DomainDestroy));
    Fill(domain, domain_size, MSTX_API_CORE2_DOMAIN_MARK_A, Pointer(DomainMarkA));
    Fill(domain, domain_size, MSTX_API_CORE2_DOMAIN_RANGE_START_A, Pointer(DomainRangeStartA));
    Fill(domain, domain_size, MSTX_API_CORE2_DOMAIN_RANGE_END, Pointer(DomainRangeEnd));
  }
  return MSTX_SUCCESS;
}
