#include "client/core/dump_config.h"

#include <sys/stat.h>
#include <unistd.h>

#include <initializer_list>
#include <string_view>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "common/acl_status.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/json_util.h"

namespace npud::client {
namespace {

using google::protobuf::Struct;
using google::protobuf::Value;

constexpr size_t kMaxPathLength = 512;

absl::Status Invalid(const std::string& source, const std::string& why) {
  return AclError(kAclInvalidDumpConfig, absl::StrCat("dump configuration ", source, ": ", why));
}

bool OneOf(std::string_view value, std::initializer_list<std::string_view> allowed) {
  for (std::string_view a : allowed) {
    if (value == a) return true;
  }
  return false;
}

// The string item `key` (nullopt if absent); it must be a non-empty string
// among `allowed` (any if empty).
absl::StatusOr<std::optional<std::string>> StringItem(
    const Struct& dump, const char* key, std::initializer_list<std::string_view> allowed,
    const std::string& source) {
  auto it = dump.fields().find(key);
  if (it == dump.fields().end()) return std::optional<std::string>();
  if (it->second.kind_case() != Value::kStringValue) {
    return Invalid(source, absl::StrCat(key, " must be of the string type"));
  }
  const std::string& value = it->second.string_value();
  if (value.empty()) return Invalid(source, absl::StrCat(key, " is empty"));
  if (allowed.size() > 0 && !OneOf(value, allowed)) {
    return Invalid(source, absl::StrFormat("%s is not a valid value of %s", value, key));
  }
  return std::optional<std::string>(value);
}

absl::Status CheckDumpPath(const std::string& path, const std::string& source) {
  if (path.size() > kMaxPathLength) {
    return Invalid(source,
                   absl::StrFormat("dump_path is longer than %d characters", kMaxPathLength));
  }
  struct stat info {};
  if (stat(path.c_str(), &info) != 0) {
    return Invalid(source, absl::StrCat("dump_path ", path, " does not exist"));
  }
  if (!S_ISDIR(info.st_mode) || access(path.c_str(), R_OK | W_OK) != 0) {
    return Invalid(source,
                   absl::StrCat("dump_path ", path, " is not a readable and writable directory"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::optional<DumpConfig>> ParseDumpConfig(const std::string& json,
                                                          const std::string& source) {
  Struct root;
  if (!google::protobuf::util::JsonStringToMessage(json, &root).ok()) {
    return Invalid(source, "not valid JSON");
  }
  auto found = root.fields().find("dump");
  if (found == root.fields().end()) return std::optional<DumpConfig>();
  if (found->second.kind_case() != Value::kStructValue) {
    return Invalid(source, "\"dump\" must be an object");
  }
  const Struct& dump = found->second.struct_value();
  DumpConfig config;
  std::optional<std::string> mode, data, op_switch, level, debug, scene, path;
  {
    auto item = StringItem(dump, "dump_mode", {"input", "output", "all"}, source);
    if (!item.ok()) return item.status();
    mode = *item;
    if (!(item = StringItem(dump, "dump_data", {"tensor", "stats"}, source)).ok()) {
      return item.status();
    }
    data = *item;
    if (!(item = StringItem(dump, "dump_op_switch", {"on", "off"}, source)).ok()) {
      return item.status();
    }
    op_switch = *item;
    if (!(item = StringItem(dump, "dump_level", {"op", "kernel", "all"}, source)).ok()) {
      return item.status();
    }
    level = *item;
    if (!(item = StringItem(dump, "dump_debug", {"on", "off"}, source)).ok()) {
      return item.status();
    }
    debug = *item;
    if (!(item = StringItem(dump, "dump_scene",
                            {"lite_exception", "aic_err_brief_dump", "aic_err_norm_dump",
                             "aic_err_detail_dump", "watcher"},
                            source))
             .ok()) {
      return item.status();
    }
    scene = *item;
    if (!(item = StringItem(dump, "dump_path", {}, source)).ok()) return item.status();
    path = *item;
    for (const char* key : {"dump_kernel_data", "dump_step"}) {
      if (!(item = StringItem(dump, key, {}, source)).ok()) return item.status();
    }
  }
  for (const char* key : {"dump_list", "dump_stats"}) {
    auto it = dump.fields().find(key);
    if (it != dump.fields().end() && it->second.kind_case() != Value::kListValue) {
      return Invalid(source, absl::StrCat(key, " must be an array"));
    }
  }
  bool list_items = false;
  if (auto it = dump.fields().find("dump_list"); it != dump.fields().end()) {
    for (const Value& entry : it->second.list_value().values()) {
      if (entry.kind_case() != Value::kStructValue) {
        return Invalid(source, "dump_list items must be objects");
      }
    }
    list_items = it->second.list_value().values_size() > 0;
  }
  if (auto it = dump.fields().find("dump_stats"); it != dump.fields().end()) {
    if (data.value_or("tensor") == "tensor" && it->second.list_value().values_size() > 0) {
      return Invalid(source, "dump_stats needs dump_data \"stats\"");
    }
  }
  const bool switch_on = op_switch.value_or("off") == "on";
  const bool debug_on = debug.value_or("off") == "on";
  if (scene.has_value() && *scene != "watcher") {
    if (switch_on || debug_on) {
      return Invalid(source,
                     "dump_scene " + *scene + " excludes dump_op_switch and dump_debug \"on\"");
    }
    config.kind = DumpConfig::Kind::kException;
    config.scene = *scene;
    config.dump_path = path.value_or("./");
    return std::optional<DumpConfig>(config);
  }
  if (!list_items && !switch_on && !debug_on && !scene.has_value()) {
    return std::optional<DumpConfig>();  // nothing to dump: no path needed
  }
  if (!path.has_value()) return Invalid(source, "dump_path is missing");
  if (path->find(':') == std::string::npos) {
    if (absl::Status checked = CheckDumpPath(*path, source); !checked.ok()) return checked;
  }
  if (debug_on && switch_on) {
    return Invalid(source, "dump_debug and dump_op_switch cannot both be \"on\"");
  }
  config.kind = debug_on ? DumpConfig::Kind::kOverflow : DumpConfig::Kind::kData;
  const std::string dump_mode = mode.value_or("output");
  config.mode = dump_mode == "input" ? 1 : dump_mode == "all" ? 7 : 2;
  config.op_switch = switch_on;
  config.dump_data = data.value_or("tensor");
  config.dump_path = *path;
  config.scene = scene.value_or("");
  return std::optional<DumpConfig>(config);
}

}  // namespace npud::client
