// launch_attributes.h
//
// aclrtLaunchKernelCfg to and from the client core's LaunchAttributes: the
// launch entry points and the model task parameters share it.

#ifndef NPUD_CLIENT_ABI_LAUNCH_ATTRIBUTES_H_
#define NPUD_CLIENT_ABI_LAUNCH_ATTRIBUTES_H_

#include <string>

#include "acl/acl.h"
#include "client/core/kernel_ops.h"

namespace npud::client {

// A configuration's attributes, each value as its bytes. Null or empty
// configurations have none; the caller has checked that `attrs` is there
// when `numAttrs` says so.
inline LaunchAttributes AttributesOf(const aclrtLaunchKernelCfg* cfg) {
  LaunchAttributes attributes;
  if (cfg == nullptr || cfg->attrs == nullptr) return attributes;
  for (size_t i = 0; i < cfg->numAttrs; ++i) {
    const aclrtLaunchKernelAttr& attr = cfg->attrs[i];
    attributes.push_back(LaunchAttribute{
        static_cast<uint32_t>(attr.id),
        std::string(reinterpret_cast<const char*>(&attr.value), sizeof(attr.value))});
  }
  return attributes;
}

}  // namespace npud::client

#endif  // NPUD_CLIENT_ABI_LAUNCH_ATTRIBUTES_H_
