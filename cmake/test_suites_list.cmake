# Run by ctest through the include file reactor_add_test_suites writes (cmake/test_suites.cmake):
# lists the suites of REACTOR_SUITES_EXECUTABLE and adds a test for each, with
# REACTOR_SUITES_PROPERTIES. A suite line of `--gtest_list_tests` is its name and a dot, then,
# for a typed or parameterised suite, a comment ("Schedules/sqlite.  # TypeParam = …").
if(NOT EXISTS "${REACTOR_SUITES_EXECUTABLE}")
  add_test("${REACTOR_SUITES_TARGET}_NOT_BUILT" "${REACTOR_SUITES_EXECUTABLE}")
  return()
endif()
execute_process(COMMAND "${REACTOR_SUITES_EXECUTABLE}" --gtest_list_tests
  OUTPUT_VARIABLE listing RESULT_VARIABLE listed TIMEOUT 60)
if(NOT listed EQUAL 0)
  message(FATAL_ERROR "${REACTOR_SUITES_EXECUTABLE} --gtest_list_tests failed (${listed})")
endif()
string(REPLACE "\n" ";" lines "${listing}")
foreach(line IN LISTS lines)
  if(line MATCHES "^([^ #.]+)\\.( .*)?$")
    set(suite "${CMAKE_MATCH_1}")
    add_test("${suite}" "${REACTOR_SUITES_EXECUTABLE}" "--gtest_filter=${suite}.*"
             "--gtest_brief=1")
    set_tests_properties("${suite}" PROPERTIES ${REACTOR_SUITES_PROPERTIES})
  endif()
endforeach()
