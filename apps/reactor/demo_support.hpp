// What both durable demos share: `reactor worker` child processes on the demo's store, stopped
// by PID, the side-effect ledger they write (examples/order_saga: "S <key> <pid>" when a step
// body starts), and how numbers are printed.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <map>
#include <memory>
#include <string>

#include "order_saga/order_saga.hpp"
#include "reactor/engine.hpp"

namespace reactor_demo {

struct DemoWorker {
  std::string storage;  // the demo's store URL
  std::string ledger;   // REACTOR_LEDGER of the worker
  int threads = 1;
  int step_ms = 0;  // REACTOR_DEMO_STEP_MS (the order saga's steps)
  // Seconds (plus up to as much jitter) a run waits for a contended hold (--snooze-delay);
  // 0: the worker's default.
  double snooze_delay_s = 0;
  // Snoozes before a contended run fails (--snooze-max-attempts); 0: the worker's default.
  int snooze_max_attempts = 0;
};

// Forks `reactor worker` (this binary) on w.storage: a 1 s lease and sweep interval, so that a
// killed worker's runs are taken over within about two seconds. Its stderr goes to /dev/null.
pid_t spawn_worker(const DemoWorker& w);

// An engine on the demo's store with the examples registered (their bodies run in the worker
// processes, so `services` is only what registration needs); nullptr, with the reason on stderr,
// when the store does not open.
std::unique_ptr<reactor::Engine> open_demo_engine(const std::string& storage,
                                                  examples::OrderServices& services);

// Sends `sig` and reaps the process.
void stop_worker(pid_t pid, int sig);

// The step bodies that started more than once, by idempotency key: how often each started.
std::map<std::string, int> steps_started_twice(const std::string& ledger);
// The starts beyond the first of those: executions repeated after a kill.
int repeated_starts(const std::map<std::string, int>& twice);

// A directory of the demo's own under $TMPDIR, "<prefix>.XXXXXX": its store and ledger, kept
// for `reactor show`. False when it cannot be made.
bool make_demo_dir(const std::string& prefix, std::string& dir);

// Removes a SQLite file with its -wal, -shm and -wake files, and the ledger: a demo starts
// afresh.
void remove_demo_files(const std::string& db, const std::string& ledger);

// The end of a demo: the dashboard's URL with the demo's runs in it. With `keep`, serves it on
// 127.0.0.1:8080 (a free port when that one is taken) until SIGINT or SIGTERM; otherwise prints
// the command that serves it. Returns `rc`, or 2 when the dashboard cannot start.
int end_with_dashboard(reactor::Engine& engine, const std::string& storage, bool keep, int rc);

// 4000000 -> "4,000,000".
std::string thousands(std::size_t n);

}  // namespace reactor_demo
