// json_string.h
//
// AppendJsonString: a string as a JSON string literal (quoted, with the
// characters JSON requires escaped), for the JSON files npud and its client
// write by hand (traces, model dumps).

#ifndef NPUD_COMMON_JSON_STRING_H_
#define NPUD_COMMON_JSON_STRING_H_

#include <string>
#include <string_view>

namespace npud {

void AppendJsonString(std::string* out, std::string_view text);

}  // namespace npud

#endif  // NPUD_COMMON_JSON_STRING_H_
