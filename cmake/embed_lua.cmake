# Embeds the Redis backend's Lua scripts in the library; CMakeLists.txt runs it at build time:
#
#   cmake -DSCRIPTS_DIR=<dir> -DOUTPUT_CPP=<file.cpp> -DOUTPUT_DIR=<dir> -P embed_lua.cmake
#
# Every SCRIPTS_DIR/<name>-<numKeys>.lua is one script, named <name> (script_name()), that takes
# <numKeys> KEYS (BullMQ's convention; script_num_keys()). Its first line is its shebang, `#!lua`
# or `#!lua flags=no-writes` (a script without one runs in Redis's compatibility mode, where a
# cluster lets it touch keys of other slots than those it declares). Its complete source is the
# shebang, the line `-- reactor: <name>`, then the rest of the file's text with its includes
# resolved:
#
#   --- @include "includes/leases"
#
# a line of its own, names a file by its path from the including file's directory, without
# .lua. The line is replaced by that file's text, whose own includes are resolved first, so a
# piece always comes after the pieces it uses; a piece already in the script is not included
# again (its line is dropped). The pieces under includes/ define helpers, at the top level of a
# script. A script may include another one inside a function (commit_then_fetch runs commit so);
# such a script brings nothing new: what it includes must be in the including script already,
# at the top level, where the including script's other parts see it too.
#
# OUTPUT_CPP defines embedded_scripts() (src/storage/redis/embedded_scripts.hpp): every complete
# source, in name order. OUTPUT_DIR gets each one as <name>-<numKeys>.lua too, for luac and for reading
# the line numbers Redis reports in a script's errors.
cmake_minimum_required(VERSION 3.25)

foreach(var SCRIPTS_DIR OUTPUT_CPP OUTPUT_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "embed_lua.cmake: ${var} is not set")
  endif()
endforeach()
get_filename_component(SCRIPTS_DIR "${SCRIPTS_DIR}" REALPATH)

# Appends to `out_var` the text of `file` with its includes resolved. The pieces a script has
# so far are in the global property EMBED_LUA_INCLUDED; EMBED_LUA_OPEN lists the files being
# expanded (the including ones first), and EMBED_LUA_IN_SCRIPT names the script included in
# another one that is being expanded, if any: functions see their callers' variables.
function(embed_lua_expand file out_var)
  file(READ "${file}" rest)
  # A script's shebang (its first line) goes first in its complete source, and nowhere else.
  if(rest MATCHES "^#!")
    string(FIND "${rest}" "\n" eol)
    math(EXPR next "${eol} + 1")
    string(SUBSTRING "${rest}" ${next} -1 rest)
  endif()
  get_filename_component(dir "${file}" DIRECTORY)
  list(APPEND EMBED_LUA_OPEN "${file}")
  set(result "")
  while(TRUE)
    string(FIND "${rest}" "--- @include" at)
    if(at EQUAL -1)
      string(APPEND result "${rest}")
      break()
    endif()
    string(SUBSTRING "${rest}" 0 ${at} head)
    string(APPEND result "${head}")
    string(SUBSTRING "${rest}" ${at} -1 rest)
    string(FIND "${rest}" "\n" eol)
    if(eol EQUAL -1)
      message(FATAL_ERROR "${file}: the last line ends without a newline")
    endif()
    string(SUBSTRING "${rest}" 0 ${eol} line)
    math(EXPR next "${eol} + 1")
    string(SUBSTRING "${rest}" ${next} -1 rest)
    if(NOT (head STREQUAL "" OR head MATCHES "\n$") OR
       NOT line MATCHES "^--- @include \"([^\"]+)\"$")
      message(FATAL_ERROR "${file}: not an include directive, a line of its own of the form "
        "--- @include \"includes/name\": ${line}")
    endif()
    set(name "${CMAKE_MATCH_1}")
    get_filename_component(piece "${dir}/${name}.lua" REALPATH)
    if(NOT EXISTS "${piece}")
      message(FATAL_ERROR "${file}: includes \"${name}\": no file ${piece}")
    endif()
    list(FIND EMBED_LUA_OPEN "${piece}" open)
    if(NOT open EQUAL -1)
      list(JOIN EMBED_LUA_OPEN " -> " chain)
      message(FATAL_ERROR "${file}: includes \"${name}\", which includes it: ${chain}")
    endif()
    get_property(included GLOBAL PROPERTY EMBED_LUA_INCLUDED)
    list(FIND included "${piece}" seen)
    if(NOT seen EQUAL -1)
      continue()
    endif()
    if(EMBED_LUA_IN_SCRIPT)
      message(FATAL_ERROR "${file}: includes \"${name}\", new to the script that includes "
        "${EMBED_LUA_IN_SCRIPT}: a script included in another brings nothing new, so include "
        "it in the including script first")
    endif()
    set_property(GLOBAL APPEND PROPERTY EMBED_LUA_INCLUDED "${piece}")
    get_filename_component(piece_dir "${piece}" DIRECTORY)
    set(EMBED_LUA_IN_SCRIPT_SAVED "${EMBED_LUA_IN_SCRIPT}")
    if(piece_dir STREQUAL SCRIPTS_DIR)
      set(EMBED_LUA_IN_SCRIPT "${piece}")
    endif()
    embed_lua_expand("${piece}" text)
    set(EMBED_LUA_IN_SCRIPT "${EMBED_LUA_IN_SCRIPT_SAVED}")
    string(APPEND result "${text}")
  endwhile()
  set(${out_var} "${result}" PARENT_SCOPE)
endfunction()

file(GLOB scripts "${SCRIPTS_DIR}/*.lua")
if(NOT scripts)
  message(FATAL_ERROR "embed_lua.cmake: no scripts in ${SCRIPTS_DIR}")
endif()
list(SORT scripts)
file(MAKE_DIRECTORY "${OUTPUT_DIR}")
set(table "")
foreach(script IN LISTS scripts)
  get_filename_component(file_name "${script}" NAME_WE)
  if(NOT file_name MATCHES "^([a-z0-9_]+)-([0-9]+)$")
    message(FATAL_ERROR "${script}: a script's file is <name>-<numKeys>.lua, its name lower case "
      "letters, digits and _")
  endif()
  set(name "${CMAKE_MATCH_1}")
  set(num_keys "${CMAKE_MATCH_2}")
  file(STRINGS "${script}" shebang LIMIT_COUNT 1)
  if(NOT shebang MATCHES "^#!lua( flags=[a-z,-]+)?$")
    message(FATAL_ERROR "${script}: a script's first line is its shebang, #!lua or "
      "#!lua flags=no-writes, which makes Redis hold it to the keys it declares")
  endif()
  set_property(GLOBAL PROPERTY EMBED_LUA_INCLUDED "${script}")
  set(EMBED_LUA_OPEN "")
  set(EMBED_LUA_IN_SCRIPT "")
  embed_lua_expand("${script}" text)
  set(source "${shebang}\n-- reactor: ${name}\n${text}")
  string(FIND "${source}" ")lua\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${script}: holds )lua\", which would end its C++ raw string")
  endif()
  file(WRITE "${OUTPUT_DIR}/${file_name}.lua" "${source}")
  string(APPEND table "    {\"${name}\", ${num_keys}, R\"lua(${source})lua\"},\n")
endforeach()

set(cpp "// Generated by cmake/embed_lua.cmake from src/storage/redis/scripts/*.lua: edit those.\n")
string(APPEND cpp [=[
#include "storage/redis/embedded_scripts.hpp"

namespace reactor::redis {

std::span<const EmbeddedScript> embedded_scripts() {
  static constexpr EmbeddedScript kScripts[] = {
]=] "${table}" [=[
  };
  return kScripts;
}

}  // namespace reactor::redis
]=])
file(WRITE "${OUTPUT_CPP}" "${cpp}")
