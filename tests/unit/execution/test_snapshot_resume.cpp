// The durability proof: all run state lives in the Run, so a run stopped after any step
// resumes from its serialised form alone.
//
// For each saga: run it once, serialising the root run with run_to_json at every checkpoint
// (and noting how often each piece of user code had run by then). Then for every snapshot k:
// parse it back, resume it in a fresh Engine from a freshly built definition, and check that
//   - the final RunResult is the uninterrupted run's (status, value, error, step records,
//     and the trace event by event; only timestamps are ignored), and
//   - the user code run by the resume is exactly what had not run yet at snapshot k
//     (final counters minus the counters at k), and nothing the snapshot records as done
//     (completed, skipped, failed, compensated, undone) runs again.
#include <functional>
#include <set>

#include "unit/engine_test_support.hpp"

using namespace reactor;
using namespace reactor_test;
using std::chrono::milliseconds;

namespace {

// Counts every execution of user code by "<action> <step path>".
struct Probe {
  Counters counters;

  template <typename F>
  RunFn body(F f) {
    return [this, f](const Args& a, StepContext& ctx) -> StepResult {
      counters.hit("run " + ctx.step_path());
      return f(a, ctx);
    };
  }
  UndoFn undo(bool fails = false) {
    return [this, fails](const Value&, const Args&, StepContext& ctx) {
      counters.hit("undo " + ctx.step_path());
      return fails ? Failure("ledger locked") : Success();
    };
  }
  CompensateFn comp() {
    return [this](const std::string&, const Args&, StepContext& ctx) {
      counters.hit("compensate " + ctx.step_path());
      return Success();
    };
  }
};

using Factory = std::function<Definition(Probe&)>;

struct Snapshot {
  Value run;
  std::map<std::string, int> counters;
};

// Child runs get fresh ids in every execution; everything else in a snapshot is deterministic.
Value without_ids(Value j) {
  if (j.is_object()) {
    j.erase("id");
    j.erase("parent_id");
  }
  if (j.is_object() || j.is_array()) {
    for (auto it = j.begin(); it != j.end(); ++it) *it = without_ids(*it);
  }
  return j;
}

std::map<std::string, int> minus(const std::map<std::string, int>& a,
                                 const std::map<std::string, int>& b) {
  std::map<std::string, int> out;
  for (const auto& [k, v] : a) {
    auto it = b.find(k);
    int d = v - (it == b.end() ? 0 : it->second);
    if (d != 0) out[k] = d;
  }
  return out;
}

// Every step record of the tree with its path ("payment/charge", "items[1]/charge").
void collect_records(const reactor::Run& run, const std::string& prefix,
                     std::vector<std::pair<std::string, StepStatus>>& out) {
  for (const auto& rec : run.steps) {
    out.emplace_back(prefix + rec.name, rec.status);
    for (const auto& child : rec.children) collect_records(child, child.path + "/", out);
  }
}

// Runs `make` once with snapshots, then resumes every snapshot; returns the snapshot count.
std::size_t check_every_snapshot_resumes(const Factory& make, const Value& inputs,
                                         RunStatus expected_status) {
  Probe probe;
  std::vector<Snapshot> snaps;
  RunOptions opts;
  opts.run_id = "snapshot-run";
  opts.on_checkpoint = [&](const reactor::Run& root) {
    snaps.push_back({run_to_json(root), probe.counters.all()});
    return Status::Ok();
  };
  Engine engine(with_clock(manual_clock()));
  const RunResult full = engine.run(make(probe), inputs, opts);
  EXPECT_EQ(full.status, expected_status) << (full.error ? full.error->message : "");
  const std::map<std::string, int> final_counters = probe.counters.all();
  EXPECT_FALSE(snaps.empty());

  for (std::size_t k = 0; k < snaps.size(); ++k) {
    SCOPED_TRACE("resuming snapshot " + std::to_string(k) + " of " + std::to_string(snaps.size()));
    // Through text, as a store would keep it.
    reactor::Run run = run_from_json(Value::parse(snaps[k].run.dump()));
    EXPECT_EQ(run_to_json(run), snaps[k].run) << "snapshot does not round-trip";
    std::vector<std::pair<std::string, StepStatus>> records;
    collect_records(run, "", records);

    probe.counters.reset();
    Engine fresh(with_clock(manual_clock()));
    const RunResult resumed = fresh.resume(make(probe), std::move(run));

    EXPECT_EQ(resumed.trace_summary(), full.trace_summary());
    EXPECT_EQ(to_json(without_timestamps(resumed)), to_json(without_timestamps(full)));
    const auto ran = probe.counters.all();
    EXPECT_EQ(ran, minus(final_counters, snaps[k].counters));
    for (const auto& [path, status] : records) {
      switch (status) {
        case StepStatus::kCompleted:
        case StepStatus::kSkipped:
        case StepStatus::kHalted:
        case StepStatus::kFailed:
          EXPECT_EQ(probe.counters.get("run " + path), 0) << path << " ran again";
          break;
        case StepStatus::kCompensated:
          EXPECT_EQ(probe.counters.get("run " + path), 0) << path << " ran again";
          EXPECT_EQ(probe.counters.get("compensate " + path), 0) << path << " compensated again";
          break;
        case StepStatus::kUndone:
          EXPECT_EQ(probe.counters.get("run " + path), 0) << path << " ran again";
          EXPECT_EQ(probe.counters.get("undo " + path), 0) << path << " undone again";
          break;
        default:
          break;
      }
    }
  }
  return snaps.size();
}

// ----- The sagas ---------------------------------------------------------------------------

// a -> b (fails once, retried) -> c (skipped) -> d
Definition linear(Probe& p) {
  return Builder("Linear")
      .step("a", p.body([](const Args&, StepContext&) { return Success(1); }))
      .undo(p.undo())
      .step("b", p.body([](const Args& a, StepContext& ctx) {
        if (ctx.attempt() == 1) return Failure("flaky");
        return Success(a["x"].get<int>() + 1);
      }))
      .argument("x", result("a"))
      .retries(fixed_backoff(2, milliseconds(100)))
      .undo(p.undo())
      .step("c", p.body([](const Args& a, StepContext&) { return Skipped(a["x"].get<int>() + 1); }))
      .argument("x", result("b"))
      .step("d",
            p.body([](const Args& a, StepContext&) { return Success(a["x"].get<int>() * 10); }))
      .argument("x", result("c"))
      .undo(p.undo())
      .returns("d")
      .build();
}

Definition payment(Probe& p, bool charge_fails) {
  return Builder("Payment")
      .input("amount", integer())
      .step("authorize", p.body([](const Args& a, StepContext&) {
        return Success(Value{{"auth", a["amount"]}});
      }))
      .undo(p.undo())
      .step("charge", p.body([charge_fails](const Args& a, StepContext&) {
        if (charge_fails) return Failure("card declined", false);
        return Success(Value{{"charged", a["auth"]}});
      }))
      .argument("auth", result("authorize", "auth"))
      .compensate(p.comp())
      .undo(p.undo())
      .returns("charge")
      .build();
}

// reserve -> payment (composed: authorize -> charge) -> ship
Definition order(Probe& p, bool charge_fails, bool ship_fails, bool reserve_undo_fails) {
  return Builder("Order")
      .input("amount", integer())
      .step("reserve", p.body([](const Args&, StepContext&) { return Success("R1"); }))
      .undo(p.undo(reserve_undo_fails))
      .compose("payment", payment(p, charge_fails))
      .argument("amount", input("amount"))
      .wait_for("reserve")
      .step("ship", p.body([ship_fails](const Args& a, StepContext&) {
        if (ship_fails) return Failure("no carrier", false);
        return Success(a["paid"]);
      }))
      .argument("paid", result("payment", "charged"))
      .compensate(p.comp())
      .undo(p.undo())
      .returns("ship")
      .build();
}

// open -> charge_all (map; each element: hold -> capture) -> close
Definition batch(Probe& p, bool atomic, int declined_item) {
  Definition per_item =
      Builder("ChargeOne")
          .input("item", integer())
          .step("hold", p.body([](const Args& a, StepContext&) { return Success(a["item"]); }))
          .undo(p.undo())
          .step("capture", p.body([declined_item](const Args& a, StepContext&) {
            if (a["h"].get<int>() == declined_item) return Failure("declined", false);
            return Success(a["h"].get<int>() * 10);
          }))
          .argument("h", result("hold"))
          .compensate(p.comp())
          .undo(p.undo())
          .returns("capture")
          .build();
  Builder b("Batch");
  b.input("items", array())
      .step("open", p.body([](const Args&, StepContext&) { return Success(); }))
      .undo(p.undo())
      .map("charge_all", per_item)
      .source(input("items"))
      .argument("item", element("charge_all"))
      .wait_for("open")
      .atomic(atomic);
  if (atomic) {
    b.collect([&p](const MapResults& m) {
      p.counters.hit("collect");
      int total = 0;
      for (const auto& v : m.successes()) total += v.get<int>();
      return Value(total);
    });
  }
  b.step("close", p.body([](const Args& a, StepContext&) { return Success(a["total"]); }))
      .argument("total", result("charge_all"))
      .undo(p.undo())
      .returns("close");
  return b.build();
}

}  // namespace

TEST(SnapshotResume, LinearChain) {
  std::size_t n = check_every_snapshot_resumes(linear, Value::object(), RunStatus::kCompleted);
  // At least one snapshot per recorded step outcome (a, b failed, b, c, d).
  EXPECT_GE(n, 5u);
}

TEST(SnapshotResume, SagaWithComposedChildResumesMidChild) {
  std::size_t n =
      check_every_snapshot_resumes([](Probe& p) { return order(p, false, false, false); },
                                   Value{{"amount", 5}}, RunStatus::kCompleted);
  EXPECT_GE(n, 5u);  // reserve, payment/authorize, payment/charge, payment, ship
}

TEST(SnapshotResume, AtomicMapWithCollect) {
  std::size_t n = check_every_snapshot_resumes([](Probe& p) { return batch(p, true, -1); },
                                               Value{{"items", {1, 2, 3}}}, RunStatus::kCompleted);
  EXPECT_GE(n, 9u);  // open, 3 x (hold, capture), charge_all, close
}

TEST(SnapshotResume, NonAtomicMapWithAFailedElement) {
  check_every_snapshot_resumes([](Probe& p) { return batch(p, false, 2); },
                               Value{{"items", {1, 2, 3}}}, RunStatus::kCompleted);
}

TEST(SnapshotResume, FailingSagaMidRollbackUndoesTheComposedChild) {
  // ship fails: compensate ship, undo payment/charge, payment/authorize, reserve (which fails).
  std::size_t n = check_every_snapshot_resumes([](Probe& p) { return order(p, false, true, true); },
                                               Value{{"amount", 5}}, RunStatus::kFailed);
  EXPECT_GE(n, 9u);
}

TEST(SnapshotResume, FailingChildRollsBackChildThenParentAcrossResumes) {
  check_every_snapshot_resumes([](Probe& p) { return order(p, true, false, false); },
                               Value{{"amount", 5}}, RunStatus::kFailed);
}

TEST(SnapshotResume, FailingAtomicMapMidRollback) {
  check_every_snapshot_resumes([](Probe& p) { return batch(p, true, 3); },
                               Value{{"items", {1, 2, 3, 4}}}, RunStatus::kFailed);
}

TEST(SnapshotResume, HaltedSaga) {
  auto make = [](Probe& p) {
    return Builder("Approval")
        .step("reserve", p.body([](const Args&, StepContext&) { return Success(); }))
        .undo(p.undo())
        .step("check", p.body([](const Args&, StepContext&) { return Halt("needs approval"); }))
        .wait_for("reserve")
        .step("audit", p.body([](const Args&, StepContext&) { return Success(); }))
        .step("ship", p.body([](const Args&, StepContext&) { return Success(); }))
        .wait_for("check")
        .build();
  };
  check_every_snapshot_resumes(make, Value::object(), RunStatus::kHalted);
}

// The durable layer stops a run by refusing a checkpoint (a lost lease). Nothing runs after
// the refusal, and the last accepted snapshot resumes to the uninterrupted result.
TEST(SnapshotResume, RefusedCheckpointStopsTheRunAndTheLastAcceptedSnapshotResumes) {
  const Factory make = [](Probe& p) { return order(p, false, true, false); };
  const Value inputs{{"amount", 5}};

  Probe probe;
  std::vector<Snapshot> snaps;
  RunOptions all;
  all.run_id = "lease-run";
  all.on_checkpoint = [&](const reactor::Run& root) {
    snaps.push_back({run_to_json(root), probe.counters.all()});
    return Status::Ok();
  };
  const RunResult full = Engine(with_clock(manual_clock())).run(make(probe), inputs, all);
  ASSERT_EQ(full.status, RunStatus::kFailed);

  for (std::size_t accepted = 1; accepted < snaps.size(); ++accepted) {
    SCOPED_TRACE("checkpoints accepted: " + std::to_string(accepted));
    Probe p;
    std::size_t calls = 0;
    Value last_accepted;
    RunOptions stop;
    stop.run_id = "lease-run";
    stop.on_checkpoint = [&](const reactor::Run& root) {
      if (++calls > accepted) return Status::LeaseLost("another worker owns the run");
      last_accepted = run_to_json(root);
      return Status::Ok();
    };
    const RunResult stopped = Engine(with_clock(manual_clock())).run(make(p), inputs, stop);
    // (Only the very last checkpoint records a terminal status; refusing it leaves that status.)
    if (accepted + 1 < snaps.size()) {
      EXPECT_FALSE(is_terminal(stopped.status)) << to_string(stopped.status);
    }
    EXPECT_EQ(calls, accepted + 1) << "checkpoints continued after a refusal";
    // The user code that ran is what had run by the refused checkpoint, nothing more.
    EXPECT_EQ(p.counters.all(), snaps[accepted].counters);
    EXPECT_EQ(without_ids(last_accepted), without_ids(snaps[accepted - 1].run));

    Probe q;
    Engine fresh(with_clock(manual_clock()));
    fresh.registry().add(make(q));
    const RunResult resumed = fresh.resume(run_from_json(last_accepted));  // by reactor name
    EXPECT_EQ(to_json(without_timestamps(resumed)), to_json(without_timestamps(full)));
  }
}

TEST(SnapshotResume, ResumingATerminalRunReturnsItUnchanged) {
  Probe p;
  Engine engine(with_clock(manual_clock()));
  Value last;
  RunOptions opts;
  opts.on_checkpoint = [&](const reactor::Run& root) {
    last = run_to_json(root);
    return Status::Ok();
  };
  const RunResult full = engine.run(linear(p), Value::object(), opts);
  ASSERT_TRUE(full.ok());
  p.counters.reset();
  const RunResult again = engine.resume(linear(p), run_from_json(last));
  EXPECT_EQ(again, full);
  EXPECT_TRUE(p.counters.all().empty());
}
