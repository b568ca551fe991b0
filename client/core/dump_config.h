// dump_config.h
//
// The "dump" object of an ACL JSON configuration (aclInit's file,
// aclmdlSetDump's), checked as CANN checks it: the keys' types and values,
// the combinations it refuses, and a dump_path that exists as a readable
// and writable directory where data is dumped. Any fault is
// ACL_ERROR_INVALID_DUMP_CONFIG with the reason.

#ifndef NPUD_CLIENT_CORE_DUMP_CONFIG_H_
#define NPUD_CLIENT_CORE_DUMP_CONFIG_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/status/statusor.h"

namespace npud::client {

struct DumpConfig {
  enum class Kind {
    kData,       // operator data dumps (dump_op_switch, dump_list)
    kOverflow,   // dump_debug: operators that overflow (none do here)
    kException,  // dump_scene: what exceptions leave behind
  };
  Kind kind = Kind::kData;
  // Data dumps: inputs (1), outputs (2), workspaces (4).
  uint32_t mode = 2;
  bool op_switch = false;
  // "tensor" or "stats".
  std::string dump_data = "tensor";
  std::string dump_path;
  std::string scene;
};

// `json` is the whole configuration; `source` names it in messages. No
// "dump" key, or a dump that enables nothing: nullopt.
absl::StatusOr<std::optional<DumpConfig>> ParseDumpConfig(const std::string& json,
                                                          const std::string& source);

}  // namespace npud::client

#endif  // NPUD_CLIENT_CORE_DUMP_CONFIG_H_
