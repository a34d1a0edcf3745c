# reactor_add_test_suites(<target> PROPERTIES <ctest properties...>): one ctest test per
# GoogleTest suite of <target> (`--gtest_filter=<suite>.*`), where gtest_discover_tests makes
# one per test. A test process of the ASan build takes about 0.6 s to start and stop: over 1,122
# tests that was five of the eight minutes of scripts/test.sh's ASan tests on 2 cores.
# As gtest_discover_tests in PRE_TEST mode, the suites are listed when ctest starts (a
# sanitizer build stays buildable without running its binaries); a target not built yet is
# one test, <target>_NOT_BUILT, that fails.
function(reactor_add_test_suites target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "" "PROPERTIES")
  set(properties "")
  foreach(item IN LISTS ARG_PROPERTIES)
    string(APPEND properties " [==[${item}]==]")
  endforeach()
  set(include_file "${CMAKE_CURRENT_BINARY_DIR}/${target}_suites.cmake")
  file(GENERATE OUTPUT "${include_file}" CONTENT
"set(REACTOR_SUITES_EXECUTABLE [==[$<TARGET_FILE:${target}>]==])
set(REACTOR_SUITES_TARGET [==[${target}]==])
set(REACTOR_SUITES_PROPERTIES${properties})
include([==[${PROJECT_SOURCE_DIR}/cmake/test_suites_list.cmake]==])
")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${include_file}")
endfunction()
