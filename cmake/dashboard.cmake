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
