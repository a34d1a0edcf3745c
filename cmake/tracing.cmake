# Tracing (issue 26, docs/observability.md, "Tracing"): the process test of the OTLP exporter.
# tracing-cli runs TracedTrip (a retry, a fan-out map, an async unit) in a caller and two worker
# processes, all exporting to otlp-receiver (a loopback OTLP/HTTP stand-in), and tracing.sh checks
# that every span is in the caller's trace with a parent that was sent, and that a dead endpoint
# changes nothing in the run. Included from CMakeLists.txt inside the tests section.
add_executable(tracing_cli tests/tracing/tracing_cli.cpp)
target_link_libraries(tracing_cli PRIVATE reactor)
set_target_properties(tracing_cli PROPERTIES OUTPUT_NAME tracing-cli)
reactor_set_warnings(tracing_cli)
add_executable(otlp_receiver tests/tracing/otlp_receiver.cpp)
target_link_libraries(otlp_receiver PRIVATE PkgConfig::HTTPLIB)
set_target_properties(otlp_receiver PROPERTIES OUTPUT_NAME otlp-receiver)
reactor_set_warnings(otlp_receiver)
add_dependencies(process_test_programs tracing_cli otlp_receiver)

add_test(NAME tracing_sqlite
  COMMAND bash "${PROJECT_SOURCE_DIR}/tests/tracing/tracing.sh" $<TARGET_FILE:tracing_cli>
          $<TARGET_FILE:otlp_receiver>)
set_tests_properties(tracing_sqlite PROPERTIES LABELS integration TIMEOUT 120)
if(REACTOR_WITH_REDIS)
  add_test(NAME tracing_redis
    COMMAND bash "${PROJECT_SOURCE_DIR}/tests/support/with_redis_store.sh" tracing
            "${PROJECT_SOURCE_DIR}/tests/tracing/tracing.sh" $<TARGET_FILE:tracing_cli>
            $<TARGET_FILE:otlp_receiver>)
  set_tests_properties(tracing_redis PROPERTIES LABELS integration TIMEOUT 120
    FIXTURES_REQUIRED redis ENVIRONMENT "REACTOR_TEST_REDIS_URL_FILE=${REACTOR_TEST_REDIS_DIR}/url")
endif()
