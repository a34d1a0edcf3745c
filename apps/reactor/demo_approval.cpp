// `reactor demo --approval`: three RefundApproval runs (examples/refund_approval) pause at their
// interrupt `approve`, holding nothing. Then this process approves one by its correlation id,
// rejects one by its run id and step, and lets the third's short active timeout fire; one worker
// process runs what follows each. The table shows how each ended and what the ledger says ran.
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <thread>

#include "demo.hpp"
#include "demo_support.hpp"
#include "order_saga/order_saga.hpp"
#include "reactor/reactor.hpp"

namespace reactor_demo {

using namespace reactor;
using namespace std::chrono_literals;

namespace {

struct Refund {
  int order;
  double timeout_s;
  const char* what;    // what the demo does with it
  RunStatus expected;  // how it ends then
  std::string id{};
};

// Polls (bounded) until `pred` holds for the run, or 30 s passed.
template <typename Pred>
bool wait_for(Engine& engine, const std::string& id, Pred pred) {
  const auto deadline = std::chrono::steady_clock::now() + 30s;
  while (std::chrono::steady_clock::now() < deadline) {
    Result<RunResult> r = engine.find(id);
    if (r.ok() && pred(*r)) return true;
    std::this_thread::sleep_for(20ms);
  }
  return false;
}

// The ledger's lines for one run, "S E U …" by step: what ran.
std::string ledger_of(const std::string& ledger, const std::string& id) {
  std::ifstream in(ledger);
  std::string out;
  for (std::string kind, key, pid; in >> kind >> key >> pid;) {
    if (key.rfind(id + ":", 0) != 0) continue;
    if (!out.empty()) out += ", ";
    out += kind + " " + key.substr(id.size() + 1);
  }
  return out;
}

// Resumes the first two; the third is left to its timeout. False when a resume was refused.
bool decide(Engine& engine, std::vector<Refund>& refunds) {
  Result<RunResult> approved = engine.resume_by_correlation(
      "refund-" + std::to_string(refunds[0].order), {{"approved", true}, {"by", "ann"}});
  Result<RunResult> rejected =
      engine.resume_interrupt(refunds[1].id, "approve", {{"approved", false}, {"by", "bob"}});
  for (const Status& s : {approved.status(), rejected.status()}) {
    if (!s.ok()) std::fprintf(stderr, "reactor demo: resume refused: %s\n", s.to_string().c_str());
  }
  return approved.ok() && rejected.ok();
}

}  // namespace

int run_approval_demo() {
  std::string dir;
  if (!make_demo_dir("reactor-demo-approval", dir)) {
    std::perror("reactor demo: cannot make a directory for the store");
    return 1;
  }
  const std::string storage = "sqlite://" + dir + "/approval.db";
  const std::string ledger = dir + "/ledger";
  examples::OrderServices services;
  std::unique_ptr<Engine> opened = open_demo_engine(storage, services);
  if (!opened) return 2;
  Engine& engine = *opened;
  std::vector<Refund> refunds = {
      {101, 3600, "approved by correlation id refund-101", RunStatus::kCompleted},
      {102, 3600, "rejected by run id and step", RunStatus::kFailed},
      {103, 2, "left to its 2 s active timeout", RunStatus::kFailed}};
  std::printf(
      "Reactor demo --approval: RefundApproval runs on SQLite (%s), one worker process.\n"
      "check reserves the refund -> approve waits for a person -> refund pays out.\n\n",
      (dir + "/approval.db").c_str());
  std::vector<pid_t> workers = {spawn_worker(DemoWorker{storage, ledger, 2, 0})};
  int unexpected = 0;
  for (Refund& r : refunds) {
    Result<std::string> id = engine.run_in_background(
        "RefundApproval", {{"order_id", r.order}, {"amount", 25}, {"timeout_s", r.timeout_s}});
    if (!id.ok()) {
      std::fprintf(stderr, "reactor demo: %s\n", id.status().to_string().c_str());
      return 1;
    }
    r.id = *id;
  }
  for (Refund& r : refunds) {
    const bool paused =
        wait_for(engine, r.id, [](const RunResult& x) { return x.status == RunStatus::kPaused; });
    std::printf("order %d  run %s: %s at approve, holding no lease\n", r.order, r.id.c_str(),
                paused ? "paused" : "NOT paused");
    if (!paused) ++unexpected;
  }
  if (!decide(engine, refunds)) ++unexpected;
  std::printf("\n%-6s %-40s %-10s %s\n", "order", "what the demo did", "status", "ledger");
  for (const Refund& r : refunds) {
    const bool ended =
        wait_for(engine, r.id, [](const RunResult& x) { return is_terminal(x.status); });
    Result<RunResult> found = engine.find(r.id);
    const RunStatus status = found.ok() ? found->status : RunStatus::kPending;
    if (!ended || status != r.expected) ++unexpected;
    std::printf("%-6d %-40s %-10s %s\n", r.order, r.what, to_string(status),
                ledger_of(ledger, r.id).c_str());
  }
  for (pid_t p : workers) stop_worker(p, SIGTERM);
  std::printf("\nended otherwise than expected: %d\n", unexpected);
  std::printf("a run's trace: reactor show %s --storage %s\n", refunds[2].id.c_str(),
              storage.c_str());
  return unexpected == 0 ? 0 : 1;
}

}  // namespace reactor_demo
