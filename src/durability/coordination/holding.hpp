// Holding: one execution's coordination (reactor/coordination.hpp, docs/coordination.md). It
// takes what the run's reactor declares at admission (before the run executes) and what each
// step declares before its body (DurablePort::enter_step); a worker that meets contention
// snoozes the run, holding nothing, a caller waits up to LockOptions::wait. What it took is
// given back by the execution's own commits (decorate): a step's when the step's record leaves
// `running`, the run's when it ends or pauses; a completing commit marks the period done.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "durability/coordination/hold_plan.hpp"
#include "durability/durable_env.hpp"
#include "durability/writer.hpp"
#include "execution/execution_port.hpp"

namespace reactor {

// What admission came to.
struct Admission {
  enum class Kind {
    kGo,       // everything taken: execute
    kSnooze,   // contended in a worker: the job again at `due_ms` (`counts` toward the cap)
    kHalt,     // halted before any step (`value`: its period is done; its chain failed)
    kFail,     // fails before any step (`error`, `message`), nothing compensated
    kStopped,  // the take failed (`status`: the lease lost, the store down)
  };
  Kind kind = Kind::kGo;
  std::int64_t due_ms = 0;
  bool counts = true;
  ErrorKind error = ErrorKind::kContended;
  std::string message;
  Value value;
  Status status;
};

class Holding final : public CommitDecor {
 public:
  struct Where {
    bool in_worker = true;  // snooze (worker) or wait (caller) on contention
    int snoozes = 0;        // the delivered job's snoozes so far
  };
  // For the execution of `root` (of `def`) under `lease`.
  Holding(DurableEnv& env, const Definition& def, const Run& root, const Lease& lease, Where where);

  Admission admit(const Run& root);
  StepGate enter_step(const StepAsk& ask);
  // A step's locks and semaphores again for its compensate or undo, waiting up to their
  // rollback_wait where it is (ExecutionPort::enter_rollback); given back by the commit that
  // records the step compensated (undone).
  Status enter_rollback(const StepAsk& ask);
  // For an operator's undo of `root` (it is not admitted again): the reactor's locks and
  // semaphores, waiting up to their rollback_wait where it is; DeadlineExceeded naming the key
  // past it. Given back when the undo ends.
  Status admit_undo(const Run& root);
  // A step asked for the run to be left (StepGate kWait in a worker): its job is due later.
  bool snoozing() const { return snoozing_.load(); }
  // Whether a step whose holds were taken has ended, its release not yet written (decorate
  // writes it with the next commit).
  bool releases_pending() const;

  void decorate(CommitRequest& c, const Run& root, const CheckpointDelta& delta) const override;

 private:
  // Takes `plan`, polling while contended until `wait` has passed (zero: one try).
  Result<TakeResult> take(const HoldPlan& plan, const std::string& charge_id, Duration wait) const;
  // `locks` (a plan's locks and semaphores) for a rollback (enter_rollback, admit_undo), waiting
  // up to its rollback_wait; tells the observers either way.
  Status take_for_rollback(const HoldPlan& locks, const std::string& claim,
                           const std::string& level, const std::string& step) const;
  // How long a contended take waits here: a caller up to plan.wait, a worker not at all.
  Duration wait_of(const HoldPlan& plan) const;
  // Contended in a worker: when the job is due again, or the failure past the cap.
  std::int64_t snooze_due(const TakeResult& t) const;
  std::string contended(const TakeResult& t, const std::string& step) const;
  PlanContext context(std::string claim, std::string default_key) const;
  void release_ended_steps(CommitRequest& c) const;
  // Tells the observers (Observer::on_coordination).
  void notify(const char* what, const std::string& level, const std::string& step,
              const std::string& key, const std::string& holder = "") const;

  DurableEnv& env_;
  const Definition& def_;
  const std::string holder_;     // the root run holding (an async unit's: its owner's root)
  const std::string fence_run_;  // the run this execution holds the lease of
  const std::uint64_t token_;
  const Where where_;
  std::vector<PeriodMark> run_marks_;  // the reactor's period, with the completing commit
  std::string run_keys_;               // what the run took, for its "released" event

  struct StepHold {
    const Run* run;
    std::size_t step;
    std::string path;
    std::string claim;
    std::string keys;
    std::vector<PeriodMark> marks;
    StepStatus held_while = StepStatus::kRunning;  // given back once the step leaves it
    std::vector<std::string> held;                 // its lock and semaphore keys
    bool ended = false;                            // its marks written (if it completed)

    bool holding() const { return run->steps[step].status == held_while; }
  };
  // Whether ended `h` must keep its holds: another step of this execution still holding re-entered
  // one of its keys, and the store keeps one claim per root and key.
  bool shared_with_a_holder(const StepHold& h) const;
  mutable std::mutex mu_;
  mutable std::vector<StepHold> steps_;  // taken, not yet given back
  std::atomic<bool> snoozing_{false};
  std::int64_t snooze_until_ms_ = 0;
};

}  // namespace reactor
