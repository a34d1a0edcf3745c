// execute_run: the one entry point that drives a run tree, used by the
// in-process Engine and by the durable paths (worker deliveries, synchronous
// durable runs) alike.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "execution/checkpoint_delta.hpp"
#include "execution/execution_port.hpp"
#include "execution/fan_out_port.hpp"
#include "execution/thread_pool.hpp"
#include "reactor/clock.hpp"
#include "reactor/definition.hpp"
#include "reactor/logger.hpp"
#include "reactor/observer.hpp"
#include "reactor/run.hpp"
#include "reactor/status.hpp"

namespace reactor {

// How one execution goes: the port it talks to and the choices it is given.
struct ExecuteOptions {
  // Whoever keeps the run (execution/execution_port.hpp); nullptr: in process — nothing is
  // written, maps and units run inline, nothing was lost before.
  ExecutionPort* port = nullptr;
  // Instead of sleeping until a retry is due when nothing else can run, suspend the root until
  // then: it ends `waiting`, its suspension set, in a write the port sees
  // (ExecuteOutcome::End::kSuspended).
  bool suspend_on_retry_wait = false;
  // The run is written as running already (what delivered it said so): starting it writes
  // nothing before the first step.
  bool start_written = false;
  Duration checkpoint_min_interval{0};
  // How long a step may keep running past its timeout before ExecutionPort::step_hung.
  Duration hung_step_grace{0};
  // The caller of a durable run (Engine::run): at the reactor's hand-off point
  // (DefinitionData::hand_off) the run is left unfinished the same way as on a stop request,
  // for another execution to go on with, and ExecuteOutcome::End::kHandedOff is the answer.
  // A run hands off at most once.
  bool hand_off = false;
};

struct ExecuteEnv {
  Clock& clock;
  std::vector<std::shared_ptr<Observer>> observers;
  Logger& logger;  // where an observer's exception is told
  const std::map<std::string, RunFn>* overrides = nullptr;
  ThreadPool& pool;
  std::uint64_t jitter_seed = 0;
  // What a step may return (DurabilityOptions::max_value_bytes); 0: no byte limit.
  std::size_t max_value_bytes = 0;
};

// How an execution of a run ended: one answer.
struct ExecuteOutcome {
  enum class End {
    kReturned,        // it went as far as it could here: its status says where (terminal, or left
                      // for its caller)
    kSuspended,       // the root is `waiting` (Run::suspension says until what: a retry's due time,
                      // its fan-out maps and async units)
    kLeftUnfinished,  // left unfinished on a stop request (ExecutionPort::stop_requested)
    kHandedOff,       // left unfinished at its hand-off point (ExecuteOptions::hand_off)
    kStopped,         // a write was refused: stopped where its last write left it (stop_reason)
  };
  End end = End::kReturned;
  Status stop_reason;  // kStopped's

  bool stopped() const { return end == End::kStopped; }
};

// Drives `root` (pending, running, waiting or rolling back) until it is
// terminal, it is suspended, or a write is refused. With `root_is_new`, the first write
// writes the whole tree.
ExecuteOutcome execute_run(Run& root, const Definition& def, const ExecuteEnv& env,
                           const ExecuteOptions& options, bool root_is_new);

// Undoes the completed steps of `root` (a stored run; its status stays), newest first, each
// written before the next starts, and appends the failures of its undos to `failures`. Used
// to roll back an element of a fan-out map.
ExecuteOutcome execute_undo(Run& root, const Definition& def, const ExecuteEnv& env,
                            const ExecuteOptions& options, std::vector<RollbackFailure>& failures);

}  // namespace reactor
