// init_callbacks.h
//
// aclInitCallbackRegister / aclFinalizeCallbackRegister: how CANN's own
// modules (model, op executor, DVPP, ...) and applications hook into
// aclInit and aclFinalize. Init callbacks get the content of aclInit's
// configuration file; one registered after aclInit runs at once. They run
// by type in CANN's order (model, op executor — only with a configuration
// file —, DVPP, other; finalize: op compiler, model, DVPP, other), and the
// first that fails fails aclInit / aclFinalize with its code. Each type but
// ACL_REG_TYPE_OTHER takes one function.
//
// Thread-safe; callbacks run with no lock held.

#ifndef NPUD_CLIENT_CORE_INIT_CALLBACKS_H_
#define NPUD_CLIENT_CORE_INIT_CALLBACKS_H_

#include <cstdint>
#include <functional>
#include <string>

#include "absl/status/status.h"

namespace npud::client {

// Return ACL codes (0: success).
using InitCallbackFn = std::function<int32_t(const std::string& config)>;
using FinalizeCallbackFn = std::function<int32_t()>;

// `key` identifies the function for unregistering (its address).
// ACL_ERROR_INTERNAL_ERROR for a second function of a type other than
// ACL_REG_TYPE_OTHER, or for unregistering one that is not registered.
absl::Status RegisterInitCallback(uint32_t type, uintptr_t key, InitCallbackFn fn);
absl::Status UnregisterInitCallback(uint32_t type, uintptr_t key);
absl::Status RegisterFinalizeCallback(uint32_t type, uintptr_t key, FinalizeCallbackFn fn);
absl::Status UnregisterFinalizeCallback(uint32_t type, uintptr_t key);

// aclInit succeeded with this configuration (its file's content, empty
// without one): runs the init callbacks; later registrations run at once.
absl::Status RunInitCallbacks(const std::string& config, bool has_config_file);
// aclFinalize: runs the finalize callbacks; init callbacks registered from
// now on wait for the next aclInit.
absl::Status RunFinalizeCallbacks();

}  // namespace npud::client

#endif  // NPUD_CLIENT_CORE_INIT_CALLBACKS_H_
