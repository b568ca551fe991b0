// device_address.h
//
// A device pointer as the number the protocol carries.

#ifndef NPUD_CLIENT_CORE_DEVICE_ADDRESS_H_
#define NPUD_CLIENT_CORE_DEVICE_ADDRESS_H_

#include <cstdint>

namespace npud::client {

inline uint64_t Address(const void* pointer) { return reinterpret_cast<uint64_t>(pointer); }

}  // namespace npud::client

#endif  // NPUD_CLIENT_CORE_DEVICE_ADDRESS_H_
