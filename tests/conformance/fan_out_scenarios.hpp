// The fixture of the fan-out scenarios (test_fan_out.cpp, test_fan_out_claims.cpp): an engine
// and a worker over a FaultyBackend, elements recorded in a side-effect log by their
// idempotency keys.
#pragma once

#include <algorithm>
#include <map>
#include <mutex>

#include "conformance/conformance_support.hpp"
#include "conformance/fan_out_reactors.hpp"
#include "conformance/faulty_backend.hpp"
#include "reactor/reactor.hpp"
#include "reactor/worker.hpp"
#include "support/result_testing.hpp"

namespace reactor::conformance {

template <typename Factory>
class FanOutScenarios : public ::testing::Test {
 protected:
  static constexpr Duration kLeaseTtl = 1s;

  void SetUp() override {
    std::unique_ptr<Backend> raw;
    Status s = factory_.open(raw);
    ASSERT_TRUE(s.ok()) << s.to_string();
    auto faulty = std::make_shared<FaultyBackend>(std::move(raw));
    store_ = faulty.get();
    engine_ = std::make_unique<Engine>(scenario_options(factory_.clock(), faulty, kLeaseTtl));
  }
  void TearDown() override {
    if (worker_) worker_->stop_now();
    worker_.reset();
  }

  void start_worker(int threads = 2) { worker_ = scenario_worker(*engine_, threads); }
  void stop_worker() {
    worker_->stop_now();
    worker_.reset();
  }

  std::string start(const std::string& reactor, Value inputs) {
    return start_in_background(*engine_, reactor, std::move(inputs));
  }

  // Runs `reactor` in this process up to its fan-out map, which hands it off: its elements are
  // dispatched (the first window released) and the run waits, before any worker runs.
  std::string dispatch(const std::string& reactor, Value inputs) {
    RunResult r = engine_->run(reactor, std::move(inputs));
    EXPECT_EQ(r.status, RunStatus::kWaiting) << (r.error ? r.error->message : "");
    return r.run_id;
  }

  // Waits (bounded, sweeping now and then) for the run to end; says where it stands if not.
  RunResult wait_for_end(const std::string& id) {
    RunResult r;
    for (int k = 0; k < 3000; ++k) {
      if (assign_if_ok(r, engine_->find(id)) && is_terminal(r.status)) return r;
      if (k % 50 == 49) {
        // A job put off (a resume that met its run's lease still held) falls due, on a clock
        // the test drives too.
        factory_.advance(100ms);
        sweep();
      }
      std::this_thread::sleep_for(5ms);
    }
    ADD_FAILURE() << "run " << id << " did not end: " << describe(id);
    return r;
  }

  // The run, its map "m" and its element runs, for a failure message.
  std::string describe(const std::string& id) {
    std::string out;
    RunResult r;
    if (assign_if_ok(r, engine_->find(id)))
      out += to_string(r.status) + std::string(" ") + r.trace_summary();
    bool job = false;
    (void)assign_or_status(job, store_->has_job(id));
    out += job ? " (has a job)" : " (no job)";
    MapRow m;
    if (assign_or_status(m, store_->load_map(id + ":m")).ok()) {
      out += "; map " + std::string(to_string(m.state)) + " total " + std::to_string(m.total) +
             " released " + std::to_string(m.released) + " done " + std::to_string(m.done) +
             " failed " + std::to_string(m.failed) + " undone " + std::to_string(m.undone);
      for (std::uint32_t i = 0; i < m.released; ++i) {
        RunHeaderRow h;
        if (assign_or_status(h, store_->load_header(element_run_id(m.map_id, i))).ok() &&
            !is_terminal(h.status)) {
          out += "; [" + std::to_string(i) + "] " + to_string(h.status);
        }
      }
    }
    return out;
  }

  void sweep() { EXPECT_TRUE(engine_->sweep_once().ok()); }

  // undo_all is one call over the completed results of a map that a later step fails, read page
  // by page; no element's own undo runs.
  void undo_all_is_one_call(std::uint32_t claim) {
    std::atomic<int> calls{0};
    std::atomic<std::int64_t> seen{0}, sum{0};
    Builder b("Sum");
    b.input("items", array())
        .map("m", doubler(fx_))
        .source(input("items"))
        .argument("x", element("m"))
        .fan_out(100)
        .claim_batch(claim)
        .collect([](const MapResults& r) { return Value(r.indices()); })
        .undo_all([&](const MapResults& completed, StepContext&) -> StepResult {
          ++calls;
          for (const ElementOutcome& e : completed) {
            ++seen;
            sum += e.value.get<std::int64_t>();
          }
          return Success();
        })
        .step("after", [](const Args&) { return Failure("after fails", false); })
        .wait_for("m");
    engine_->registry().add(b.build());
    const std::string id = start("Sum", {{"items", items(600)}});
    start_worker();
    RunResult r = wait_for_end(id);
    ASSERT_EQ(r.status, RunStatus::kFailed);
    EXPECT_EQ(calls.load(), 1);
    EXPECT_EQ(seen.load(), 600);
    EXPECT_EQ(sum.load(), 600 * 599);
    EXPECT_TRUE(fx_.keys('U', id).empty());  // no element's own undo ran
  }

  // M2: the owner's resume, enqueued by the last settle, is lost; the sweeper finds the owner
  // waiting with its map settled and resumes it.
  void resume_lost_is_found(std::uint32_t claim) {
    engine_->registry().add(summing(fx_, "Sum", 3, true, nullptr, claim));
    const std::string id = dispatch("Sum", {{"items", items(3)}});
    target_ = id;
    store_->lose = [this](const Job& job) {
      return job.spec.run_id == target_ && job.spec.kind == JobKind::kResume && faults_++ == 0;
    };
    start_worker(1);
    RunResult r;
    for (int k = 0; k < 1000 && faults_ == 0; ++k) std::this_thread::sleep_for(5ms);
    ASSERT_GE(faults_.load(), 1);
    bool has_job = true;  // once the lost job's acknowledgement is in
    for (int k = 0; k < 400 && has_job; ++k) {
      ASSERT_OK_AND_ASSIGN(has_job, store_->has_job(id));
      if (has_job) std::this_thread::sleep_for(5ms);
    }
    EXPECT_FALSE(has_job);
    ASSERT_OK_AND_ASSIGN(r, engine_->find(id));
    EXPECT_EQ(r.status, RunStatus::kWaiting);
    stop_worker();
    start_worker(1);
    r = wait_for_end(id);
    ASSERT_EQ(r.status, RunStatus::kCompleted) << (r.error ? r.error->message : "");
    EXPECT_EQ(r.value, doubled(3));
  }

  // M4: the dispatch is cut short (the commit of the map record refused); whoever takes the run
  // over dispatches again, the same runs, and every element runs once.
  void dispatch_cut_short_is_done_again(std::uint32_t claim) {
    engine_->registry().add(summing(fx_, "Sum", 2, true, nullptr, claim));
    store_->refuse = [this](const CommitRequest& c) { return !c.maps.empty() && faults_++ == 0; };
    const std::string id = start("Sum", {{"items", items(300)}});  // two creation commits
    start_worker(1);
    for (int k = 0; k < 400 && faults_ == 0; ++k) std::this_thread::sleep_for(5ms);
    ASSERT_GE(faults_.load(), 1);
    let_leases_lapse();
    expect_completed_each_once(id, 300);
    EXPECT_EQ(map_of(id).total, 300u);
  }

  // I-7: a map of 6 whose element 3 fails, `batch` out at once in claims of `claim`, gives the
  // same Failure and undoes the same elements, highest index first, as the map inline (one
  // element out at a time, so the same elements completed). `id`: the run's.
  void atomic_failure_is_as_inline(std::uint32_t batch, std::uint32_t claim, std::string& id) {
    Effects inline_fx;
    Engine in_process;
    RunResult inline_r =
        in_process.run(summing(inline_fx, "Sum", 0), {{"items", items(6)}, {"fail_at", 3}});
    engine_->registry().add(summing(fx_, "Sum", batch, true, nullptr, claim));
    id = start("Sum", {{"items", items(6)}, {"fail_at", 3}});
    start_worker();
    RunResult r = wait_for_end(id);
    ASSERT_EQ(r.status, RunStatus::kFailed);
    ASSERT_EQ(inline_r.status, RunStatus::kFailed);
    ASSERT_TRUE(r.error && inline_r.error);
    RunError a = *r.error, b = *inline_r.error;
    a.inputs = b.inputs = Value();
    EXPECT_EQ(a, b);
    const std::vector<std::string> undone = {":m[2]/double", ":m[1]/double", ":m[0]/double",
                                             ":reserve"};
    EXPECT_EQ(fx_.keys('U', id), undone);
    EXPECT_EQ(inline_fx.keys('U', inline_r.run_id), undone);
  }

  // A map of 12 whose element 5 fails, `batch` out at once in claims of `claim`: elements after
  // the failing one may have completed too; each completed element is undone exactly once,
  // highest index first, none of those never started, then the step before the map. `undone`:
  // how many elements were.
  void undoes_each_completed_once(std::uint32_t batch, std::uint32_t claim, std::size_t& undone) {
    engine_->registry().add(summing(fx_, "Sum", batch, true, nullptr, claim));
    const std::string id = start("Sum", {{"items", items(12)}, {"fail_at", 5}});
    start_worker();
    RunResult r = wait_for_end(id);
    ASSERT_EQ(r.status, RunStatus::kFailed);
    EXPECT_EQ(r.error->step, "m[5]/double");
    std::vector<int> order;
    for (const std::string& key : fx_.keys('U', id)) {
      if (key != ":reserve") order.push_back(std::stoi(key.substr(3)));  // ":m[<i>]/double"
    }
    EXPECT_TRUE(std::is_sorted(order.rbegin(), order.rend()));
    for (int i = 0; i < 12; ++i) {
      const std::string key = id + ":m[" + std::to_string(i) + "]/double";
      EXPECT_EQ(fx_.count('U', key), fx_.count('S', key)) << i;
      EXPECT_LE(fx_.count('U', key), 1) << i;
    }
    EXPECT_EQ(fx_.keys('U', id).back(), ":reserve");
    undone = order.size();
  }

  // Waits for run `id` to end: it completed with doubled(n), each element's step run once.
  // An element that halts halts the run with its value, rolling nothing back.
  void element_halt_halts_the_run(std::uint32_t claim) {
    Definition halter = Builder("Halter")
                            .input("x", integer())
                            .input("fail_at", any().optional())
                            .step("look",
                                  [](const Args& a) -> StepResult {
                                    const std::int64_t x = a.get<std::int64_t>("x");
                                    if (x == 2) return Halt(Value{{"stopped_at", x}});
                                    return Success(x);
                                  })
                            .argument("x", input("x"))
                            .returns("look")
                            .build();
    this->engine_->registry().add(summing(this->fx_, "Sum", 2, true, &halter, claim));
    const std::string id = this->start("Sum", {{"items", items(4)}});
    this->start_worker();
    RunResult r = this->wait_for_end(id);
    ASSERT_EQ(r.status, RunStatus::kHalted) << (r.error ? r.error->message : "");
    EXPECT_EQ(r.value, (Value{{"stopped_at", 2}}));
    EXPECT_EQ(r.step("m")->status, StepStatus::kHalted);
    EXPECT_EQ(r.step("after")->status, StepStatus::kPending);
    EXPECT_EQ(this->fx_.count('U', id + "/reserve"), 0) << "a halt rolls nothing back";
  }

  // An element whose step fails once retries on its own (in a claim, in its thread), and the map
  // completes.
  void element_retries_on_its_own(std::uint32_t claim) {
    std::atomic<int> tries{0};
    Definition flaky = Builder("Flaky")
                           .input("x", integer())
                           .step("once",
                                 [&tries](const Args& a) -> StepResult {
                                   if (a.get<int>("x") == 1 && ++tries == 1) {
                                     return Failure("first try fails");
                                   }
                                   return Success(a.get<int>("x"));
                                 })
                           .argument("x", input("x"))
                           .retries(fixed_backoff(2, 200ms))
                           .returns("once")
                           .build();
    Builder b("Sum");
    b.input("items", array())
        .map("m", flaky)
        .source(input("items"))
        .argument("x", element("m"))
        .fan_out(2)
        .claim_batch(claim)
        .returns("m");
    this->engine_->registry().add(b.build());
    const std::string id = this->start("Sum", {{"items", items(3)}});
    this->start_worker(1);
    RunResult r;
    for (int k = 0; k < 200; ++k) {  // a ManualClock stands still: move it past the backoff
      this->factory_.advance(50ms);
      if (assign_if_ok(r, this->engine_->find(id)) && is_terminal(r.status)) break;
      std::this_thread::sleep_for(10ms);
    }
    for (int i = 0; i < 3 && r.status != RunStatus::kCompleted; ++i) {
      RunResult e;
      (void)assign_if_ok(e, this->engine_->find(id + ":m[" + std::to_string(i) + "]"));
      ADD_FAILURE() << "element " << i << ": " << to_string(e.status) << " "
                    << (e.error ? e.error->message : "") << " " << e.trace_summary();
    }
    ASSERT_EQ(r.status, RunStatus::kCompleted) << (r.error ? r.error->message : "");
    EXPECT_EQ(r.value, items(3));
    EXPECT_EQ(tries.load(), 2);
  }

  // A rollback cut short (element 1's commit of its slot undone refused) resumes, undoing every
  // element once, but for the undo in flight: an element run's undo is committed before its slot,
  // so it does not run again; a claimed element's undos and its slot are one commit, so its undo
  // (of its one step) runs again, once.
  void rollback_cut_short_runs_only_the_undo_in_flight_again(std::uint32_t claim) {
    this->engine_->registry().add(summing(this->fx_, "Sum", 3, true, nullptr, claim));
    this->store_->refuse = [this](const CommitRequest& c) {
      return c.settle && c.settle->slots.front().state == SlotState::kUndone &&
             c.settle->slots.front().index == 1 && this->faults_++ == 0;
    };
    const std::string id = this->start("Sum", {{"items", items(5)}, {"fail_after", true}});
    this->start_worker(1);
    for (int k = 0; k < 1000 && this->faults_ == 0; ++k) std::this_thread::sleep_for(5ms);
    ASSERT_GE(this->faults_.load(), 1);
    this->let_leases_lapse();
    RunResult r = this->wait_for_end(id);
    ASSERT_EQ(r.status, RunStatus::kFailed);
    for (int i = 0; i < 5; ++i) {
      EXPECT_EQ(this->fx_.count('U', id + ":m[" + std::to_string(i) + "]/double"),
                i == 1 && claim > 1 ? 2 : 1)
          << i;
    }
    EXPECT_EQ(this->fx_.count('U', id + ":reserve"), 1);
    EXPECT_EQ(this->map_of(id).undone, 5u);
  }

  // N1: a fan-out map (its claims of `claim`) inside a fan-out map's element; an inner element
  // lost with its worker is run again, and the outer element (the inner map's owner) resumes.
  void nested_map_recovers_an_inner_element(std::uint32_t claim) {
    Builder inner("Inner");
    inner.input("x", array())
        .map("m", doubler(this->fx_))
        .source(input("x"))
        .argument("x", element("m"))
        .fan_out(2)
        .claim_batch(claim)
        .collect([](const MapResults& r) {
          std::int64_t sum = 0;
          for (const ElementOutcome& e : r) sum += e.value.get<std::int64_t>();
          return Value(sum);
        })
        .returns("m");
    Builder outer("Sum");
    outer.input("items", array())
        .map("outer", inner.build())
        .source(input("items"))
        .argument("x", element("outer"))
        .fan_out(2)
        .returns("outer");
    this->engine_->registry().add(outer.build());
    Value nested = Value::array();
    for (int i = 0; i < 3; ++i) nested.push_back(items(i + 2));  // [[0,1],[0,1,2],[0,1,2,3]]
    this->store_->die_with = [this](const Job& job) {
      return job.spec.run_id.find("/m[") != std::string::npos && this->faults_++ == 0;
    };
    const std::string id = this->start("Sum", {{"items", nested}});
    this->start_worker(1);
    for (int k = 0; k < 1000 && this->faults_ == 0; ++k) std::this_thread::sleep_for(5ms);
    ASSERT_GE(this->faults_.load(), 1);  // an inner element's worker died
    this->let_leases_lapse();
    RunResult r = this->wait_for_end(id);
    ASSERT_EQ(r.status, RunStatus::kCompleted) << (r.error ? r.error->message : "");
    EXPECT_EQ(r.value, (Value{2, 6, 12}));
    EXPECT_EQ(this->fx_.count('S', id + ":outer[2]/m[3]/double"), 1);
  }

  // C2: a fan-out map inside a composed child; the root resumes, and the child with it.
  void map_in_a_composed_child_resumes_its_root(std::uint32_t claim) {
    Definition child = summing(this->fx_, "Child", 2, true, nullptr, claim);
    Builder parent("Sum");
    parent.input("items", array())
        .compose("child", child)
        .argument("items", input("items"))
        .step("after", [](const Args& a) { return Success(a["c"]); })
        .argument("c", result("child"))
        .returns("after");
    this->engine_->registry().add(parent.build());
    const std::string id = this->start("Sum", {{"items", items(5)}});
    this->start_worker();
    RunResult r = this->wait_for_end(id);
    ASSERT_EQ(r.status, RunStatus::kCompleted) << (r.error ? r.error->message : "");
    EXPECT_EQ(r.value, doubled(5));
    EXPECT_EQ(this->fx_.count('S', id + ":child/m[4]/double"), 1);
    EXPECT_EQ(this->map_of(id, "child/m").done, 5u);
    // The compose step was carried on, not counted as a lost execution.
    const StepOutcome* compose = r.step("child");
    ASSERT_NE(compose, nullptr);
    EXPECT_EQ(compose->interrupted, 0);
  }

  void expect_completed_each_once(const std::string& id, int n) {
    RunResult r = wait_for_end(id);
    ASSERT_EQ(r.status, RunStatus::kCompleted) << (r.error ? r.error->message : "");
    EXPECT_EQ(r.value, doubled(n));
    for (int i = 0; i < n; ++i) {
      EXPECT_EQ(fx_.count('S', id + ":m[" + std::to_string(i) + "]/double"), 1) << i;
    }
  }

  // A worker that dies holding the next due job: its delivery and its run's lease lapse.
  std::optional<Delivery> take_and_die() {
    std::optional<Delivery> d;
    for (int k = 0; k < 400 && !d; ++k) {
      EXPECT_TRUE(assign_or_status(d, store_->fetch(FetchRequest{
                                          {"Sum"}, "dead-worker", 1h, kLeaseTtl, "dead:1"}))
                      .ok());
      if (!d) std::this_thread::sleep_for(5ms);
    }
    return d;
  }
  // The leases a dead worker held lapse.
  void let_leases_lapse() { factory_.advance(kLeaseTtl + 100ms); }

  MapRow map_of(const std::string& run_id, const std::string& path = "m") {
    MapRow m;
    Status s = assign_or_status(m, store_->load_map(run_id + ":" + path));
    EXPECT_TRUE(s.ok()) << s.to_string();
    return m;
  }
  // The inspector lists exactly the elements at `indices` of map "m" as failed, each of which
  // reads as a failed run.
  void expect_failed_elements(const std::string& id, const std::vector<std::uint32_t>& indices) {
    std::vector<std::string> want, ids;
    for (std::uint32_t i : indices) want.push_back(element_run_id(id + ":m", i));
    Inspector inspector(*store_);
    MapProgress map;
    ASSERT_OK_AND_ASSIGN(map, inspector.map_progress(id + ":m"));
    ASSERT_OK_AND_ASSIGN(ids, inspector.failed_elements(map, 100, 10000));
    EXPECT_EQ(ids, want);
    for (const std::string& e : ids) {
      RunResult element;
      ASSERT_OK_AND_ASSIGN(element, engine_->find(e));
      EXPECT_EQ(element.status, RunStatus::kFailed) << e;
    }
  }
  // The lost executions each slot of map "m" counts, in index order.
  std::vector<std::uint32_t> interrupted_of(const std::string& run_id) {
    std::vector<MapSlotRow> slots;
    Status s = assign_or_status(slots, store_->load_map_slots(run_id + ":m", 0, 1000));
    EXPECT_TRUE(s.ok()) << s.to_string();
    std::vector<std::uint32_t> out;
    for (const MapSlotRow& slot : slots) out.push_back(slot.interrupted);
    return out;
  }

  Factory factory_;
  FaultyBackend* store_ = nullptr;
  std::unique_ptr<Engine> engine_;
  std::unique_ptr<Worker> worker_;
  Effects fx_;
  // For the faults the tests inject (FaultyBackend::refuse, lose): they outlive the test body,
  // which the worker may outlive.
  std::atomic<int> faults_{0};
  std::string target_;
};
}  // namespace reactor::conformance
