// `reactor demo`: background order sagas on SQLite across two worker
// processes, one of which is killed with SIGKILL halfway and replaced; the
// table at the end shows nothing was lost. `--in-process` runs the same saga
// in this process only; `--map` runs a fan-out map instead (demo_map.cpp), `--async`,
// `--approval` and `--coordination` their own demos (demo_<name>.cpp).
#include "demo.hpp"

#include <signal.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>
#include <optional>
#include <thread>

#include "demo_support.hpp"
#include "order_saga/order_saga.hpp"
#include "reactor/log_middleware.hpp"

namespace reactor_demo {

using namespace reactor;
using namespace std::chrono_literals;

namespace {

struct DemoOptions {
  int orders = 40;
  bool log_events = false;  // --in-process only
  bool in_process = false;
  bool map = false;           // the fan-out map demo (demo_map.cpp) instead
  bool async = false;         // the AsyncOrder demo (demo_async.cpp) instead
  bool approval = false;      // the RefundApproval demo (demo_approval.cpp) instead
  bool coordination = false;  // the TransferFunds demo (demo_coordination.cpp) instead
  bool dashboard = false;     // keep the dashboard serving the demo's runs at the end
};

constexpr const char* kDemoDb = "reactor-demo.db";
constexpr const char* kDemoLedger = "reactor-demo.ledger";

// Every order ends as the example promises: declined cards (order ids that
// are multiples of 10) fail and are compensated; the rest complete.
bool as_expected(int order_id, const RunResult& r) {
  if (order_id % 10 != 0) return r.status == RunStatus::kCompleted;
  return r.status == RunStatus::kFailed && r.error &&
         r.trace_summary().find("compensated charge") != std::string::npos;
}

int amount_of(int id) { return 500 + 100 * (id % 7); }

// The order saga's workers: one thread each, every step 15 ms long.
DemoWorker order_worker() {
  return DemoWorker{std::string("sqlite://") + kDemoDb, kDemoLedger, 1, 15};
}

int run_in_process(const DemoOptions& options) {
  examples::OrderServices services;
  EngineOptions engine_options;
  if (options.log_events) {
    engine_options.observers.push_back(std::make_shared<LogMiddleware>(std::cerr));
  }
  Engine engine(std::move(engine_options));
  examples::register_examples(engine.registry(), services);
  std::printf("%-6s %-7s %-10s %s\n", "order", "amount", "status", "trace");
  int unexpected = 0;
  for (int id = 1; id <= options.orders; ++id) {
    RunResult r = engine.run("OrderSaga", {{"order_id", id}, {"amount", amount_of(id)}});
    if (!as_expected(id, r)) ++unexpected;
    std::printf("%-6d %-7d %-10s %s\n", id, amount_of(id), to_string(r.status),
                r.trace_summary().c_str());
  }
  std::printf("\nended otherwise than expected: %d\n", unexpected);
  return unexpected == 0 ? 0 : 1;
}

// Starts `orders` OrderSaga runs in the background: order id -> run id; empty on a refusal.
std::map<int, std::string> start_orders(Engine& engine, int orders) {
  std::map<int, std::string> ids;
  for (int id = 1; id <= orders; ++id) {
    Result<std::string> run_id =
        engine.run_in_background("OrderSaga", {{"order_id", id}, {"amount", amount_of(id)}});
    if (!run_id.ok()) {
      std::cerr << "reactor demo: " << run_id.status().to_string() << "\n";
      return {};
    }
    ids[id] = std::move(run_id).value();
  }
  return ids;
}

// Two workers until every order ended (at most 60 s), one SIGKILLed and replaced halfway, with a
// live progress line. Whether the kill happened; nullopt when the store could not be read.
std::optional<bool> serve_with_a_kill(Engine& engine, int orders) {
  std::vector<pid_t> workers = {spawn_worker(order_worker()), spawn_worker(order_worker())};
  bool killed = false;
  const auto deadline = std::chrono::steady_clock::now() + 60s;
  while (std::chrono::steady_clock::now() < deadline) {
    std::map<RunStatus, int> by_status;
    RunFilter all;
    all.limit = static_cast<std::size_t>(orders);
    Result<std::vector<RunHeaderRow>> rows = engine.backend()->list_runs(all);
    if (!rows.ok()) {
      std::fprintf(stderr, "\ndemo: cannot list runs: %s\n", rows.status().to_string().c_str());
      for (pid_t w : workers) stop_worker(w, SIGTERM);
      return std::nullopt;
    }
    for (const auto& r : *rows) ++by_status[r.status];
    const int terminal = by_status[RunStatus::kCompleted] + by_status[RunStatus::kFailed];
    std::printf("\r  enqueued %3d  running %3d  completed %3d  failed %3d   ",
                by_status[RunStatus::kEnqueued], by_status[RunStatus::kRunning],
                by_status[RunStatus::kCompleted], by_status[RunStatus::kFailed]);
    std::fflush(stdout);
    if (!killed && terminal >= orders / 2) {
      stop_worker(workers[0], SIGKILL);
      workers[0] = spawn_worker(order_worker());
      killed = true;
      std::printf("\n  SIGKILL sent to a worker halfway; a new worker took its place\n");
    }
    if (terminal == orders) break;
    std::this_thread::sleep_for(100ms);
  }
  std::printf("\n");
  for (pid_t w : workers) stop_worker(w, SIGTERM);
  return killed;
}

// The table at the end; 0 when every order ended as the example says and no step ran twice
// beyond the one in flight at the kill.
int report_orders(Engine& engine, const std::map<int, std::string>& ids, bool killed) {
  int completed = 0, compensated = 0, other = 0, unexpected = 0;
  for (const auto& [order, run_id] : ids) {
    Result<RunResult> found = engine.find(run_id);
    if (!found.ok()) {
      ++unexpected;
      continue;
    }
    const RunResult& r = *found;
    if (r.status == RunStatus::kCompleted)
      ++completed;
    else if (r.status == RunStatus::kFailed)
      ++compensated;
    else
      ++other;
    if (!as_expected(order, r)) ++unexpected;
  }
  const int twice = repeated_starts(steps_started_twice(kDemoLedger));
  std::printf("\n%-44s %d\n", "completed:", completed);
  std::printf("%-44s %d\n", "failed and compensated (card declined):", compensated);
  std::printf("%-44s %d\n", "not finished or failed otherwise:", other);
  std::printf("%-44s %d (at most the %d in flight at the kill)\n", "steps executed twice:", twice,
              killed ? 1 : 0);
  std::printf("%-44s %d\n", "ended otherwise than expected:", unexpected);
  return unexpected == 0 && other == 0 && twice <= (killed ? 1 : 0) ? 0 : 1;
}

int run_demo(const DemoOptions& options) {
  if (options.map) return run_map_demo();
  if (options.async) return run_async_demo();
  if (options.approval) return run_approval_demo();
  if (options.coordination) return run_coordination_demo();
  if (options.in_process) return run_in_process(options);
  remove_demo_files(kDemoDb, kDemoLedger);

  examples::OrderServices services;
  const std::string storage = std::string("sqlite://") + kDemoDb;
  std::unique_ptr<Engine> engine = open_demo_engine(storage, services);
  if (!engine) return 2;
  std::printf(
      "Reactor demo: %d OrderSaga runs (reserve -> charge -> ship) on SQLite (%s),\n"
      "2 worker processes; one is killed with SIGKILL halfway and replaced.\n"
      "Orders whose id is a multiple of 10 have their card declined.\n\n",
      options.orders, kDemoDb);
  const std::map<int, std::string> ids = start_orders(*engine, options.orders);
  if (ids.empty()) return 1;
  const std::optional<bool> killed = serve_with_a_kill(*engine, options.orders);
  if (!killed) return 1;
  const int rc = report_orders(*engine, ids, *killed);
  return end_with_dashboard(*engine, storage, options.dashboard, rc);
}

}  // namespace

int demo_command(const std::string& /*storage: the demo keeps its own*/,
                 const std::vector<std::string>& args) {
  DemoOptions demo;
  CLI::App app{"Run a batch of OrderSaga runs and show the outcome", "reactor demo"};
  auto* orders = app.add_option("-n,--orders", demo.orders, "How many orders to run")
                     ->check(CLI::Range(1, 100000));
  auto* in_process = app.add_flag("--in-process", demo.in_process,
                                  "Run the sagas in this process only, without storage or workers");
  auto* log = app.add_flag("--log", demo.log_events,
                           "With --in-process: print one key=value line per engine event");
  auto* dashboard =
      app.add_flag("--dashboard", demo.dashboard,
                   "At the end, keep the dashboard serving the demo's runs until Ctrl-C")
          ->excludes(in_process);
  app.add_flag("--map", demo.map,
               "Instead: one FanOutSum run over 2,000 elements (a fan-out map, batch 50) on two "
               "worker processes, one killed with SIGKILL mid-map; a live progress line")
      ->excludes(orders)
      ->excludes(in_process)
      ->excludes(log)
      ->excludes(dashboard);
  app.add_flag("--async", demo.async,
               "Instead: AsyncOrder runs handed off after charge to two worker processes, where "
               "an async step and an async child reactor run; where each step ran")
      ->excludes(orders)
      ->excludes(in_process)
      ->excludes(log)
      ->excludes(dashboard);
  app.add_flag("--approval", demo.approval,
               "Instead: RefundApproval runs paused at their interrupt; one approved by "
               "correlation id, one rejected, one left to its timeout; the table")
      ->excludes(orders)
      ->excludes(in_process)
      ->excludes(log)
      ->excludes(dashboard);
  app.add_flag("--coordination", demo.coordination,
               "Instead: 40 TransferFunds runs (account locks, a semaphore, a rate limit) on two "
               "worker processes, one killed with SIGKILL; the balances and their checks")
      ->excludes(orders)
      ->excludes(in_process)
      ->excludes(log)
      ->excludes(dashboard);
  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 takes them so
  try {
    app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);
    std::cerr << "reactor demo: " << e.what()
              << "\nRun 'reactor demo --help' for more information.\n";
    return 2;
  }
  return run_demo(demo);
}

}  // namespace reactor_demo
