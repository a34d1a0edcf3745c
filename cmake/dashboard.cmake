# The dashboard's tests (issue 26): its C++ API tests are part of reactor_unit_tests
# (tests/unit/web/), which call it over HTTP with cpp-httplib's client; the browser test drives
# real headless Chromium through Playwright (tests/browser/).
if(TARGET reactor_unit_tests)
  target_link_libraries(reactor_unit_tests PRIVATE PkgConfig::HTTPLIB)
endif()
# A quick build of the dashboard's API tests alone, while working on it (not built by default).
add_executable(reactor_dashboard_api_tests EXCLUDE_FROM_ALL
  "${PROJECT_SOURCE_DIR}/tests/unit/web/test_dashboard_api.cpp")
target_include_directories(reactor_dashboard_api_tests PRIVATE "${PROJECT_SOURCE_DIR}/tests"
  "${PROJECT_SOURCE_DIR}/src")
target_link_libraries(reactor_dashboard_api_tests PRIVATE reactor PkgConfig::HTTPLIB
  GTest::gtest GTest::gmock GTest::gtest_main)
reactor_set_warnings(reactor_dashboard_api_tests)

# The browser test: dashboard_fixture (a user's program on cli_main with a `seed` command) and
# Debian's chromium driven by playwright-core; screenshots land in dashboard-artifacts/. Labelled
# integration: it runs in test.sh's release stage, which builds its program, not the sanitizers'.
add_executable(dashboard_fixture "${PROJECT_SOURCE_DIR}/tests/browser/dashboard_fixture.cpp")
target_link_libraries(dashboard_fixture PRIVATE reactor)
reactor_set_warnings(dashboard_fixture)
add_dependencies(process_test_programs dashboard_fixture)
add_test(NAME dashboard_browser
  COMMAND bash "${PROJECT_SOURCE_DIR}/tests/browser/run_browser_test.sh"
          "$<TARGET_FILE:dashboard_fixture>" "${CMAKE_BINARY_DIR}/dashboard-artifacts")
set_tests_properties(dashboard_browser PROPERTIES TIMEOUT 120 LABELS "integration;browser"
  SKIP_REGULAR_EXPRESSION "skipped: node or chromium")
