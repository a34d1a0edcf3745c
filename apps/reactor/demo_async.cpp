// `reactor demo --async`: AsyncOrder (examples/async_order) started from this process. Each run
// executes reserve and charge here, then hands off after charge; two worker processes run ship,
// send off notify (an async_step nobody reads) and invoice (an async_reactor of Invoice), and
// close, which reads the invoice. Order 10 is declined at charge, here: nothing is handed off.
// The ledger ("E <key> <pid>" when a step body ends) says where each step ran.
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <thread>

#include "demo.hpp"
#include "demo_support.hpp"
#include "order_saga/order_saga.hpp"
#include "reactor/reactor.hpp"

namespace reactor_demo {

using namespace reactor;
using namespace std::chrono_literals;

namespace {

constexpr int kOrders[] = {1, 2, 3, 10};  // 10: a declined card
constexpr int kAsyncStepMs = 50;          // each step's pause: the units overlap visibly
constexpr auto kAsyncDeadline = 60s;
// The ledger keys of an AsyncOrder run's steps, units' steps by their unit run's path.
constexpr const char* kKeys[] = {
    "reserve",           "charge",           "ship", "notify[0]/notify",
    "invoice[0]/render", "invoice[0]/store", "close"};

// Where each step body ended, by idempotency key: the pid the ledger's "E" line names.
std::map<std::string, std::string> ended_in(const std::string& ledger) {
  std::map<std::string, std::string> out;
  std::ifstream in(ledger);
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    std::string kind, key, pid;
    if (words >> kind >> key >> pid && kind == "E") out[key] = pid;
  }
  return out;
}

// Waits (bounded) until every run has ended.
bool wait_for_all(Engine& engine, const std::vector<std::string>& ids) {
  const auto deadline = std::chrono::steady_clock::now() + kAsyncDeadline;
  for (;;) {
    bool all = true;
    for (const std::string& id : ids) {
      if (!all) break;
      Result<RunResult> r = engine.find(id);
      all = r.ok() && is_terminal(r->status);
    }
    if (all) return true;
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(50ms);
  }
}

// One run's outcome and where each of its steps ran; false when it is not what AsyncOrder says.
bool report(Engine& engine, int order, const std::string& id,
            const std::map<std::string, std::string>& where) {
  Result<RunResult> found = engine.find(id);
  if (!found.ok()) return false;
  const RunResult& r = *found;
  std::printf("\norder %d  run %s: %s\n", order, id.c_str(), to_string(r.status));
  if (r.ok()) std::printf("  value  %s\n", r.value.dump().c_str());
  if (r.error) std::printf("  error  %s\n", r.error->message.c_str());
  const std::string here = std::to_string(::getpid());
  for (const char* key : kKeys) {
    auto it = where.find(id + ":" + key);
    if (it == where.end()) continue;
    std::printf("  %-18s %s\n", key,
                it->second == here ? "here (the caller)" : ("worker " + it->second).c_str());
  }
  const bool handed_off = r.trace_summary().find("handed off after charge") != std::string::npos;
  if (order % 10 == 0) return r.status == RunStatus::kFailed && !handed_off;
  return r.status == RunStatus::kCompleted && handed_off &&
         r.value["invoice"]["invoice_id"] == Value("inv-" + std::to_string(order));
}

}  // namespace

int run_async_demo() {
  std::string dir;
  if (!make_demo_dir("reactor-demo-async", dir)) {
    std::perror("reactor demo: cannot make a directory for the store");
    return 1;
  }
  const std::string storage = "sqlite://" + dir + "/async.db";
  const std::string ledger = dir + "/ledger";
  examples::OrderServices services;
  services.ledger = examples::Ledger(ledger);  // reserve and charge run in this process
  std::unique_ptr<Engine> opened = open_demo_engine(storage, services);
  if (!opened) return 2;
  Engine& engine = *opened;
  std::printf(
      "Reactor demo --async: AsyncOrder runs on SQLite (%s), 2 worker processes.\n"
      "reserve and charge run here (pid %d); background_after(\"charge\") hands the rest to a "
      "worker:\nship, then notify (async_step, nobody reads it) and invoice (async_reactor "
      "Invoice: render -> store),\nthen close, which reads the invoice. Order 10 is declined "
      "at charge.\n\n",
      (dir + "/async.db").c_str(), static_cast<int>(::getpid()));
  const DemoWorker w{storage, ledger, 2, 0};
  std::vector<pid_t> workers = {spawn_worker(w), spawn_worker(w)};
  std::vector<std::string> ids;
  for (int order : kOrders) {
    RunResult r = engine.run(
        "AsyncOrder", {{"order_id", order}, {"amount", 100 * order}, {"step_ms", kAsyncStepMs}});
    std::printf("order %-3d %-8s %s\n", order, to_string(r.status), r.trace_summary().c_str());
    ids.push_back(r.run_id);
  }
  const bool ended = wait_for_all(engine, ids);
  for (pid_t p : workers) stop_worker(p, SIGTERM);
  const std::map<std::string, std::string> where = ended_in(ledger);
  int unexpected = ended ? 0 : 1;
  for (std::size_t k = 0; k < ids.size(); ++k) {
    if (!report(engine, kOrders[k], ids[k], where)) ++unexpected;
  }
  const int again = repeated_starts(steps_started_twice(ledger));
  std::printf("\nsteps started more than once: %d; ended otherwise than expected: %d\n", again,
              unexpected);
  std::printf("a run, its units and where each step ran: reactor show %s --storage %s\n",
              ids.front().c_str(), storage.c_str());
  std::printf(
      "its child Invoice:                       reactor show '%s:invoice[0]' --storage %s\n",
      ids.front().c_str(), storage.c_str());
  return unexpected == 0 && again == 0 ? 0 : 1;
}

}  // namespace reactor_demo
