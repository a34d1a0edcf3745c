// The Lua scripts' complete sources, embedded at build time: cmake/embed_lua.cmake generates
// the definition of embedded_scripts() in the build tree from src/storage/redis/scripts/*.lua,
// their includes resolved. scripts.cpp reads it; use script_source() instead.
#pragma once

#include <span>
#include <string_view>

namespace reactor::redis {

struct EmbeddedScript {
  std::string_view name;    // the file's name without .lua: script_name()
  std::string_view source;  // `-- reactor: <name>`, then the file's text, includes resolved
};

// One entry per scripts/<name>.lua, in name order.
std::span<const EmbeddedScript> embedded_scripts();

}  // namespace reactor::redis
