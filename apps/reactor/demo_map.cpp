// `reactor demo --map`: a fan-out map of 2,000 elements (FanOutSum, examples/fan_out_sum), each
// element a run of its own, at most 50 out at once, executed by two worker processes on SQLite;
// one worker is killed with SIGKILL mid-map and replaced. A live line shows the map's progress
// (Inspector::map_progress) until the run ends; then its sum, and what the ledger says about
// element steps that started again after the kill.
#include <signal.h>
#include <stdlib.h>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <thread>

#include "demo.hpp"
#include "demo_support.hpp"
#include "order_saga/order_saga.hpp"
#include "reactor/inspector.hpp"
#include "reactor/reactor.hpp"

namespace reactor_demo {

using namespace reactor;
using namespace std::chrono_literals;

namespace {

constexpr std::int64_t kElements = 2000;
constexpr int kBatch = 50;
constexpr int kStepMs = 4;         // each element's step: the map lasts a few seconds
constexpr int kWorkerThreads = 4;  // so at most 4 elements execute in the worker killed
constexpr auto kDeadline = 60s;

struct MapDemo {
  std::string db;
  std::string storage;
  std::string ledger;
  std::string run_id;
  std::string map_id;

  DemoWorker worker() const { return DemoWorker{storage, ledger, kWorkerThreads, 0}; }
};

// "  done 1,024/2,000  in flight  50  failed 0  rolled back 0  running"
std::string progress_line(const MapProgress& m) {
  char line[160];
  std::snprintf(line, sizeof line, "  done %5s/%s  in flight %3u  failed %u  rolled back %u  %-8s",
                thousands(m.done).c_str(), thousands(m.total).c_str(), m.in_flight(), m.failed,
                m.undone, to_string(m.state));
  return line;
}

// Follows the map until its run ends (or the deadline passes), killing workers[0] once when
// half its elements are done and starting another in its place. True when the run ended.
bool follow(Engine& engine, const MapDemo& demo, std::vector<pid_t>& workers, bool& killed) {
  Inspector inspector(*engine.backend());
  std::string shown;
  const auto deadline = std::chrono::steady_clock::now() + kDeadline;
  while (std::chrono::steady_clock::now() < deadline) {
    Result<MapProgress> m = inspector.map_progress(demo.map_id);
    if (!m.ok() && m.status().code() != StatusCode::kNotFound) {
      std::fprintf(stderr, "\nreactor demo: cannot read the map: %s\n",
                   m.status().to_string().c_str());
      return false;
    }
    const std::string line = m.ok() ? progress_line(*m) : "  dispatching the elements ...";
    if (line != shown) {
      std::printf("\r%s", line.c_str());
      std::fflush(stdout);
      shown = line;
    }
    if (!killed && m.ok() && m->done >= m->total / 2) {
      stop_worker(workers[0], SIGKILL);
      workers[0] = spawn_worker(demo.worker());
      killed = true;
      std::printf(
          "\n  SIGKILL sent to a worker mid-map (%u elements in flight); a new worker took "
          "its place\n",
          m->in_flight());
      shown.clear();
    }
    Result<RunHeaderRow> owner = engine.backend()->load_header(demo.run_id);
    if (owner.ok() && is_terminal(owner->status)) {
      std::printf("\n");
      return true;
    }
    std::this_thread::sleep_for(100ms);
  }
  std::printf("\n");
  return false;
}

// The outcome, the ledger's account of re-executions, and how to look at the run again.
int report(Engine& engine, const MapDemo& demo, bool ended, bool killed) {
  Result<RunResult> found = engine.find(demo.run_id);
  if (!found.ok()) {
    std::fprintf(stderr, "reactor demo: %s\n", found.status().to_string().c_str());
    return 1;
  }
  const RunResult& r = *found;
  const std::int64_t expected = kElements * kElements;
  const bool sum_right =
      r.ok() && r.value.is_object() && r.value.contains("sum") && r.value["sum"] == Value(expected);
  std::printf("\nrun %s: %s%s\n", r.run_id.c_str(), to_string(r.status),
              ended ? "" : " (not ended within the demo's 60 s)");
  if (r.ok()) {
    std::printf(
        "sum: %s (expected %s² = %s: %s)\n",
        r.value.contains("sum") ? thousands(r.value["sum"].get<std::size_t>()).c_str() : "?",
        thousands(kElements).c_str(), thousands(expected).c_str(), sum_right ? "right" : "WRONG");
  }
  if (r.error) std::printf("error: %s\n", r.error->message.c_str());
  std::printf("trace: %s\n", r.trace_summary().c_str());

  const std::map<std::string, int> twice = steps_started_twice(demo.ledger);
  const int again = repeated_starts(twice);
  const int allowed = killed ? kWorkerThreads : 0;
  std::printf(
      "\nledger: element steps started again after the kill: %d (at most the %d in flight "
      "in the killed worker)\n",
      again, allowed);
  for (const auto& [key, n] : twice) std::printf("  %s started %d times\n", key.c_str(), n);
  std::printf("\nthe run and its map: reactor show %s --storage %s\n", demo.run_id.c_str(),
              demo.storage.c_str());
  std::printf("an element:         reactor show '%s[0]' --storage %s\n", demo.map_id.c_str(),
              demo.storage.c_str());
  return ended && sum_right && again <= allowed ? 0 : 1;
}

}  // namespace

int run_map_demo() {
  std::string dir;
  if (!make_demo_dir("reactor-demo-map", dir)) {
    std::perror("reactor demo: cannot make a directory for the store");
    return 1;
  }
  MapDemo demo;
  demo.db = dir + "/map.db";
  demo.storage = "sqlite://" + demo.db;
  demo.ledger = dir + "/ledger";

  examples::OrderServices services;
  std::unique_ptr<Engine> opened = open_demo_engine(demo.storage, services);
  if (!opened) return 2;
  Engine& engine = *opened;
  std::printf(
      "Reactor demo --map: one FanOutSum run summing 2i + 1 over %s elements, each a run of its "
      "own,\nat most %d out at once (fan_out(%d)), on SQLite (%s), 2 worker processes;\n"
      "one is killed with SIGKILL mid-map and replaced.\n\n",
      thousands(kElements).c_str(), kBatch, kBatch, demo.db.c_str());
  Result<std::string> started = engine.run_in_background(
      "FanOutSum", {{"count", kElements}, {"batch_size", kBatch}, {"step_ms", kStepMs}});
  if (!started.ok()) {
    std::cerr << "reactor demo: " << started.status().to_string() << "\n";
    return 1;
  }
  demo.run_id = std::move(started).value();
  demo.map_id = demo.run_id + ":sum";
  std::vector<pid_t> workers = {spawn_worker(demo.worker()), spawn_worker(demo.worker())};
  bool killed = false;
  const bool ended = follow(engine, demo, workers, killed);
  for (pid_t w : workers) stop_worker(w, SIGTERM);
  return report(engine, demo, ended, killed);
}

}  // namespace reactor_demo
