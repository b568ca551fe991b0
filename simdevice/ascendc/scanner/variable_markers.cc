#include "simdevice/ascendc/scanner/variable_markers.h"

#include "absl/strings/str_cat.h"

namespace npud::ascendc {

std::string MarkDeviceVariables(absl::string_view text,
                                const std::vector<DeviceVariable>& variables) {
  std::string out;
  size_t cursor = 0;
  for (const DeviceVariable& variable : variables) {
    if (variable.begin < cursor || variable.end > text.size() || variable.end < variable.begin) {
      continue;  // not from this text: leave it alone
    }
    absl::StrAppend(&out, text.substr(cursor, variable.begin - cursor), "NPUD_GM_BEGIN(",
                    variable.name, ") ", text.substr(variable.begin, variable.end - variable.begin),
                    " NPUD_GM_END(", variable.name, ");");
    cursor = variable.end;
  }
  absl::StrAppend(&out, text.substr(cursor));
  return out;
}

}  // namespace npud::ascendc
