// HoldPlan: what a reactor's (or a step's) coordination asks of the store for one run — its
// keys computed from the inputs (or the step's arguments), in the fixed order: ordered gate,
// period, rate limits, locks sorted by key, semaphores (docs/coordination.md).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "definition/coordination_of.hpp"
#include "reactor/args.hpp"
#include "reactor/backend.hpp"
#include "reactor/coordination.hpp"
#include "reactor/result.hpp"
#include "reactor/value.hpp"

namespace reactor {

struct HoldPlan {
  std::vector<OrderedGate> ordered;
  std::vector<std::string> periods;  // "<key>@<bucket>", checked now
  std::vector<RateCharge> rates;
  std::vector<HoldClaim> holds;
  std::vector<PeriodMark> marks;   // written by the commit that completes the run (the step)
  std::vector<OrderedJoin> joins;  // written by the start's commit
  Duration wait{0};                // how long a caller waits for a held key
  Duration rollback_wait{0};       // how long a compensate or undo waits for its locks

  bool empty() const {
    return ordered.empty() && periods.empty() && rates.empty() && holds.empty();
  }
  TakeRequest request(std::string holder, std::string charge_id) const;
};

struct PlanContext {
  std::string run_id;       // the run the plan is for (the period's and the chain's)
  std::string claim;        // "<run id>" or "<run id>/<step path>"
  std::string default_key;  // the period's key when it names none: the reactor or step
  std::int64_t now_ms = 0;
  const RateLimits* limits = nullptr;  // the engine's named limits
};

// The plan of `spec` for `args`. InvalidArgument naming the primitive when a key function
// throws or returns "" (the run, or the step, fails with ErrorKind::kCoordinationKey), or when
// a named rate limit is gone.
Result<HoldPlan> plan_holds(const CoordinationSpec& spec, const Args& args, const PlanContext& ctx);

// The ordered chain a run of `d` with `inputs` joins in its start's commit: none when `d` has no
// ordered lock, or when its key cannot be computed (the run then fails at admission, naming why).
std::optional<OrderedJoin> ordered_join_of(const DefinitionData& d, const std::string& run_id,
                                           const Value& inputs);

// A run's inputs as the Args a reactor-level key function reads.
Args args_of_inputs(const Value& inputs);

}  // namespace reactor
