// Engine: runs registered reactors — the facade over definition, execution,
// durability and storage (docs/architecture.md).
//
// Thread safety: an Engine may be shared by any number of threads. run(),
// resume(), run_in_background(), run_many_in_background(), find(),
// sweep_once() and the operator calls (cancel(), undo(), retry(),
// resume_halted()) may be called from several threads at once, and alongside the
// Worker threads that serve it; registry() is thread-safe. Register reactors
// before the first run or worker needs them. Construction and destruction are
// not concurrent with anything else; destroy Workers first.
//
// Durability: with a backend, what each call has stored when it returns is
// said at the call; what survives a crash then is the backend's
// (Backend::commit).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "reactor/backend.hpp"
#include "reactor/clock.hpp"
#include "reactor/definition.hpp"
#include "reactor/durability.hpp"
#include "reactor/ids.hpp"
#include "reactor/logger.hpp"
#include "reactor/observer.hpp"
#include "reactor/registry.hpp"
#include "reactor/result.hpp"
#include "reactor/run.hpp"
#include "reactor/run_result.hpp"
#include "reactor/schedule.hpp"
#include "reactor/status.hpp"

namespace reactor {

struct EngineOptions {
  // Every wait (retry backoff, timeouts) goes through it. Default: real time.
  std::shared_ptr<Clock> clock;
  // Called for every run, before the reactor's own observers.
  std::vector<std::shared_ptr<Observer>> observers;
  // Where the engine and its workers tell what no caller waits for (reactor/logger.hpp).
  // Default: stderr_logger().
  std::shared_ptr<Logger> logger;
  // Seed of the jitter generator; 0 picks a random seed.
  std::uint64_t random_seed = 0;
  // Most threads the pool for parallel branches (max_concurrency > 1) may
  // grow to. It grows only while every thread is busy, so that a branch that
  // waits on its own branches (a composed child) can never starve it.
  int max_parallel_threads = 256;

  // Durable execution: with a backend (see open_backend), every run is
  // stored, holds a fenced lease while it executes, commits each step, and
  // is recovered by workers if its process dies. nullptr: in-process only.
  std::shared_ptr<Backend> backend;
  DurabilityOptions durability;

  // Replaces the body of the step at each path in every run this engine executes — the
  // caller's and the deliveries of its workers alike — unless RunOptions::overrides are given
  // for the run. Paths as RunOptions::overrides name them. Used by reactor/testing.hpp's
  // durable TestRun, whose jobs run in workers that get no RunOptions.
  std::map<std::string, RunFn> step_overrides;
};

struct RunOptions {
  // Replaces the body of the step at this path: used by reactor/testing.hpp to
  // mock steps and force failures. Paths as reactor/definition.hpp names them:
  // "charge", "payment/charge", "tickets/email" (the step of every element of
  // map tickets), "tickets[1]/email" (element 1's alone; it wins over the
  // former). A mocked map or composed step runs once, as a plain step.
  std::map<std::string, RunFn> overrides;
  // Called with the root run after every recorded step, under the run's lock.
  // A non-ok status stops the run where it is (the durable layer returns
  // LeaseLost here when another writer took over).
  std::function<Status(const Run& root)> on_checkpoint;
  // Use this id instead of a fresh UUID.
  std::string run_id;
  // A W3C traceparent (reactor/trace_context.hpp) to continue: the run's span is its child, and
  // every span of the run is in its trace. Stored with the run. Malformed: the run fails with
  // kInputInvalid and nothing is stored.
  std::string traceparent{};
};

// How a run is started in the background.
struct BackgroundOptions {
  // The run's id — a business key such as "TRIP-1001" makes the start
  // idempotent — or empty for a fresh UUID.
  std::string run_id{};
  // A scheduled start (docs/schedules.md): the run is stored `scheduled`, its job due then; it
  // starts as an enqueued run does when a worker delivers it at or after that time. A time not
  // in the future starts it at once. `delay` (> 0) is the same, counted from now (engine clock);
  // start_at wins when both are set.
  std::optional<TimePoint> start_at{};
  Duration delay{0};
  // A W3C traceparent to continue (as RunOptions::traceparent); malformed: InvalidArgument,
  // nothing stored.
  std::string traceparent{};
};

// What Engine::run_many_in_background started. A store error does not take back the commits
// that succeeded: run_ids then holds their runs (they will run) beside the error.
struct [[nodiscard]] BackgroundBatch {
  std::vector<std::string> run_ids;  // in input order
  Status status;
  bool ok() const { return status.ok(); }
};

// How a resumed run goes on (Engine::resume_interrupt).
struct ResumeOptions {
  // In this thread, to its end or its next pause, holding the run's lease; otherwise (the
  // default) in a worker serving its reactor, its job due at once.
  bool run_inline = false;
};

// What one sweep did (Engine::sweep_once).
struct SweepResult {
  std::size_t requeued = 0;  // runs nobody executed, enqueued again
  std::size_t purged = 0;    // expired runs deleted
};

class Engine {
 public:
  explicit Engine(EngineOptions options = {});
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  Registry& registry() { return registry_; }
  const Registry& registry() const { return registry_; }
  // The rate limits reactors name (Builder::with_rate_limit(name), reactor/coordination.hpp):
  // add them before registering those reactors. What the store holds of every coordination key
  // is read through backend() (HoldStore, reactor/hold_store.hpp).
  RateLimits& rate_limits() { return registry_.rate_limits(); }
  Clock& clock() const;
  Logger& logger() const;

  // Validates the inputs, then runs the reactor to its end in this process.
  // With a backend the run is durable (stored, leased, checkpointed), except
  // when RunOptions mock steps or set on_checkpoint: those runs are tests and
  // snapshots, and stay in memory. A durable run under an id that exists
  // (RunOptions::run_id) is not run again: the same reactor and inputs return
  // the stored run as it is now (status, value or error), anything else a
  // failed result with ErrorKind::kRunIdConflict; nothing is written.
  // Unknown names and invalid inputs come back as a failed RunResult with
  // ErrorKind::kUnknownReactor / kInputInvalid; no step runs.
  //
  // Durable runs end here early in two cases, for workers to go on with:
  // at the reactor's hand-off point (Builder::background_after/before) the
  // result is `running`, with the steps so far and a "handed off" trace
  // event, and the run is stored with its job due at once; a fan-out map
  // leaves it `waiting` until its elements settle. With
  // durability.inline_jobs those jobs have run when this returns, and the
  // result is the run's end. In process (no backend) the run goes to its end.
  RunResult run(const std::string& reactor, Value inputs, const RunOptions& options = {});
  RunResult run(const Definition& definition, Value inputs, const RunOptions& options = {});

  // Continues a run from its state (e.g. a snapshot taken by on_checkpoint):
  // steps already completed are not run again. A run already terminal is
  // returned as it is.
  RunResult resume(Run run, const RunOptions& options = {});
  // The same for a definition that need not be registered. A run started on
  // another version of the graph fails with ErrorKind::kDefinitionChanged.
  RunResult resume(const Definition& definition, Run run, const RunOptions& options = {});

  // Durable mode only (InvalidArgument without a backend). Validates the inputs here, in the
  // caller, then persists the run as `enqueued` (`scheduled` for a start_at or delay in the
  // future, its job due then) together with its job in one commit, and returns
  // its id at once. NotFound for an unknown reactor, InvalidArgument (listing every field error)
  // for invalid inputs. With durability.inline_jobs the run (and any other job due on its queue)
  // has executed when this returns.
  //
  // A start never overwrites a run: with options.run_id naming a stored run of the same reactor
  // and the same inputs, it is Ok and starts nothing (that run is the start); with other inputs or
  // another reactor it is AlreadyExists naming the id, and nothing is written.
  // Returns the run's id.
  Result<std::string> run_in_background(const std::string& reactor, Value inputs,
                                        const BackgroundOptions& options = {});
  // Starts many runs of one reactor in the background with few store round
  // trips (a producer enqueuing a batch). Every input is validated here first:
  // if any is invalid, InvalidArgument names each bad index and nothing is
  // persisted. Then the runs, each `enqueued` with its job, are persisted in
  // input order, kBackgroundRunsPerCommit runs per commit; each commit is
  // atomic. The result's run_ids are the ids in input order. On a store error
  // they are the runs of the commits that succeeded (they will run), the rest
  // were not persisted. Durable mode only; NotFound for an unknown reactor.
  BackgroundBatch run_many_in_background(const std::string& reactor, std::vector<Value> inputs);
  // Durable mode only (InvalidArgument without a backend). Executes in this
  // thread every job due now on the queue of `reactor` (what a worker
  // serving it would do: hand-offs, fan-out elements, resumes), one after
  // another, and the jobs they queue, until none is due; jobs put off to
  // later stay queued. For tests and scripts (durability.inline_jobs does it
  // after each start). NotFound for an unknown reactor.
  Status run_due_jobs(const std::string& reactor);

  // Resumes the paused interrupt at step path `step` ("approve", "refund/approve" inside a
  // composed child) of run `run_id` with `payload`, its result (docs/interrupts.md). The
  // payload is checked against the interrupt's payload() fields before anything changes; the
  // first valid resume claims the interrupt in one commit, so that under any race (two callers,
  // two processes) exactly one wins; then the run goes on as `options` say. Returns the run as it
  // stands then (run_inline: where it got to). Errors, nothing claimed:
  //   NotFound            no such run, or step
  //   InvalidArgument     no store; the step is not an interrupt; the payload is invalid — every
  //                       field error named (counted when max_attempts > 1: the last rolls the
  //                       run back)
  //   AlreadyExists       the interrupt was resumed already
  //   FailedPrecondition  the run ended, was cancelled or is rolling back; the interrupt is not
  //                       reached (its dependencies are not complete) or failed
  //   DeadlineExceeded    its deadline passed: the run is rolled back
  //   Unavailable         the store is down, or the run executes elsewhere and did not pause in
  //                       time (two lease TTLs)
  // Durable when it returns ok: the payload and the run's job (or, inline, its progress).
  Result<RunResult> resume_interrupt(const std::string& run_id, const std::string& step,
                                     Value payload, const ResumeOptions& options = {});
  // The same for the interrupt waiting under `correlation_id` (Builder::correlation_id). NotFound
  // when no interrupt holds that id; an id stays with an interrupt after its resume, so a
  // second resume by it is AlreadyExists.
  Result<RunResult> resume_by_correlation(const std::string& correlation_id, Value payload,
                                          const ResumeOptions& options = {});
  // Periodic starts (reactor/schedule.hpp, docs/schedules.md); durable mode only
  // (InvalidArgument without a backend). add_schedule validates `schedule` and keeps it in the
  // store (ScheduleStore::upsert_schedule), replacing one of its name but not what that one
  // fired; a new schedule's first run is at its next period boundary. NotFound for a reactor not
  // registered here; InvalidArgument for a bad name, neither or both of every and cron, a bad cron
  // expression (naming the field), or invalid inputs (listing every field error). Durable when it
  // returns as a commit is. Workers serving the reactor fire it (WorkerOptions::schedules).
  Status add_schedule(const Schedule& schedule);
  // Every schedule the store keeps, by name, with its last period fired and what is due now.
  Result<std::vector<ScheduleStatus>> list_schedules();
  // Starts now the run of each due period of the schedules of reactors registered here, as a
  // worker's ticker does; for tests and scripts. Returns how many periods fired; a schedule that
  // cannot fire is logged (EngineOptions::logger) and the others go on.
  Result<std::size_t> fire_schedules();

  // The stored state of a run: status, steps, trace, value or error.
  Result<RunResult> find(const std::string& run_id);
  // One recovery sweep now, without the window claim (`reactor sweep`):
  // re-enqueues runs nobody executes and purges expired ones.
  Result<SweepResult> sweep_once();
  // The backend, or nullptr in in-process mode.
  Backend* backend() const;

  // Operator control of stored runs (docs/operator.md; src/engine/engine_control.cpp). Durable
  // mode only (InvalidArgument without a backend). Each names a root run: NotFound for no such
  // run, InvalidArgument for a fan-out map's element or a composed child (act on its root);
  // FailedPrecondition, naming the status, for a run the call does not apply to.
  //
  // Stops a live run for good: when this returns Ok the run is stored `cancelled`, its error
  // ErrorKind::kCancelled with `reason` as its message. Nothing is rolled back, and it never
  // runs again. An execution of it (a worker's, a caller's) has its next commit refused as a
  // lost lease's and starts no further step: a step body in flight finishes, its outcome is not
  // recorded. FailedPrecondition for a run that ended or is rolling back.
  Status cancel(const std::string& run_id, const std::string& reason = "");
  // Rolls back, in this thread, the completed steps of a paused, halted, completed or failed
  // (not rolled back) run, newest first, composed children and maps' elements included, a
  // failed step whose compensation was cut off compensated first; then the run is
  // `cancelled`, its error ErrorKind::kUndone. Each undo is committed before the next starts:
  // if this process dies midway the run stays rolling_back and a worker's sweeper goes on with
  // it, undoing nothing twice. Returns the run as it ended. FailedPrecondition while it is live
  // elsewhere (its lease held), rolling back, or has nothing left to undo; a store error or a
  // lost lease midway is returned as such (the run is left rolling back, for recovery).
  Result<RunResult> undo(const std::string& run_id);
  // Starts a new run of the reactor and inputs of a run that ended (completed, failed, halted,
  // cancelled, quarantined), in the background as run_in_background does, and returns its id.
  // The new run records the original (RunResult::retried_from) and the original lists it
  // (RunResult::retries). FailedPrecondition for a run that has not ended; InvalidArgument
  // when its inputs are not valid for the reactor as registered now.
  Result<std::string> retry(const std::string& run_id);
  // Continues a halted run whose halt allows it (a step returned ResumableHalt): the halted
  // step runs again from the start, the steps completed before are kept. When this returns Ok
  // the run is stored running with its job due now, for a worker (with inline_jobs: it has
  // run). FailedPrecondition for a run that is not halted, or halted by a plain Halt.
  Status resume_halted(const std::string& run_id);

  // Starts a run record without running it (status kPending).
  Run create_run(const Definition& definition, Value inputs, const std::string& run_id = "") const;

  // The queue the jobs of `reactor` go to: DurabilityOptions::queue_for of its home reactor
  // (an element reactor's is the reactor that registered it), or that name.
  std::string queue_for(const std::string& reactor) const;
  // This process as run headers and trace events name the execution that wrote them:
  // "<host>:<pid>". Empty without a backend.
  std::string worker_id() const;
  // Whether a synchronous run() of `reactor` would hand the run to the workers at once rather
  // than wait here for its async units, because no worker serves their queue now (docs/async.md;
  // one read of the store). False without a backend, with inline_jobs, with
  // async_wait_timeout 0 (it never waits anyway), when the reactor has no async unit or is not
  // registered, and with wait_without_workers.
  bool hands_off_unserved(const std::string& reactor) const;

 private:
  // The library's Worker reaches the durable runtime through it (src/engine/engine_access.hpp,
  // not installed).
  friend struct EngineAccess;
  struct Impl;
  Registry registry_;
  std::unique_ptr<Impl> impl_;
};

// An operator's nudge: enqueues a resume job for stored root run `run_id` on its reactor's
// queue (Engine::queue_for), due now; durable when it returns Ok. NotFound: no such run;
// FailedPrecondition: a child run, or (unless `force`) a run that ended or whose reactor is not
// registered in `engine`. InvalidArgument: an engine without a backend.
Status enqueue_resume(Engine& engine, const std::string& run_id, bool force = false);

}  // namespace reactor
