# Metrics (issue 26, docs/observability.md, "Metrics"): the unit tests scrape a MetricsServer over
# HTTP, and the process test metrics_worker_sqlite scrapes `reactor worker --metrics` with curl
# after a known workload, and checks that a port in use stops the worker with exit 2.
if(TARGET reactor_unit_tests)
  target_link_libraries(reactor_unit_tests PRIVATE PkgConfig::HTTPLIB)
endif()
if(TARGET reactor_cli)
  add_test(NAME metrics_worker_sqlite
    COMMAND bash "${PROJECT_SOURCE_DIR}/tests/integration/metrics_worker.sh"
            $<TARGET_FILE:reactor_cli>)
  set_tests_properties(metrics_worker_sqlite PROPERTIES LABELS integration TIMEOUT 120)
  add_dependencies(process_test_programs reactor_cli)
endif()
