// A JSON value given on the command line: inline, "@PATH" or "-" (stdin), or from a file
// option (`start --input`/`--input-file`, `resume --payload`/`--payload-file`).
#pragma once

#include <optional>
#include <string>

#include "reactor/value.hpp"

namespace reactor::cli {

// `text` inline, "@PATH" (a file) or "-" (stdin); `file` (when not empty) a file instead.
// `option` names the inline option in messages ("--input"), `noun` the value ("input"). nullopt,
// the reason printed as `who`'s, when it cannot be read or is not JSON (depth-limited: a deep
// value cannot crash us).
std::optional<Value> read_json_argument(const std::string& text, const std::string& file,
                                        const std::string& option, const std::string& noun,
                                        const std::string& who);

}  // namespace reactor::cli
