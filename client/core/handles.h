// handles.h
//
// ACL handles (aclrtContext, aclrtStream, aclrtEvent, aclrtBinHandle,
// aclrtFuncHandle, aclrtNotify, aclrtCntNotify, aclrtDrvMemHandle) are ids
// minted by this process, tagged with their kind, dressed as pointers. They are never
// dereferenced: every use is looked up in the ObjectRegistry, so a destroyed
// or foreign handle is an error instead of a crash, and a stream passed where
// an event is expected is caught by its tag.

#ifndef NPUD_CLIENT_CORE_HANDLES_H_
#define NPUD_CLIENT_CORE_HANDLES_H_

#include <cstdint>

namespace npud::client {

enum class HandleKind : uint64_t {
  kContext = 0xC7,
  kStream = 0x57,
  kEvent = 0xE7,
  kBinary = 0xB7,
  kFunction = 0xF7,
  kNotify = 0x47,
  kPhysicalMemory = 0xD7,
  kCountNotify = 0xC4,
  kModel = 0x6D,
  kLabel = 0x1A,
  kLabelList = 0x1B,
  kCondHandle = 0xCD,
  kTaskGroup = 0x76,
  kModelTask = 0x7A,
};

// Ids stay below 2^48, so the tag never collides with them.
inline void* MakeHandle(HandleKind kind, uint64_t id) {
  return reinterpret_cast<void*>((static_cast<uint64_t>(kind) << 48) | id);
}

// The id inside `handle` if it carries `kind`, else 0 (no valid id is 0).
inline uint64_t HandleId(const void* handle, HandleKind kind) {
  const uint64_t bits = reinterpret_cast<uint64_t>(handle);
  if ((bits >> 48) != static_cast<uint64_t>(kind)) return 0;
  return bits & ((uint64_t{1} << 48) - 1);
}

}  // namespace npud::client

#endif  // NPUD_CLIENT_CORE_HANDLES_H_
