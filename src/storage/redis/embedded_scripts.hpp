// The Lua scripts' complete sources, embedded at build time: cmake/embed_lua.cmake generates
// the definition of embedded_scripts() in the build tree from src/storage/redis/scripts/*-<n>.lua,
// their includes resolved. scripts.cpp reads it; use script_source() instead.
#pragma once

#include <cstddef>
#include <span>
#include <string_view>

namespace reactor::redis {

struct EmbeddedScript {
  std::string_view name;    // the file's name without -<numKeys>.lua: script_name()
  std::size_t num_keys;     // how many KEYS it takes: the <numKeys> of its file's name
  std::string_view source;  // its shebang, `-- reactor: <name>`, the rest, includes resolved
};

// One entry per scripts/<name>-<numKeys>.lua, in name order.
std::span<const EmbeddedScript> embedded_scripts();

}  // namespace reactor::redis
