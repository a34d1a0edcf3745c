// What the parts of a run's driver share: what each works on (DriverPart), one attempt of a
// step and what it came to (Attempt), and a step about to start (Launch).
#pragma once

#include <cstddef>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "execution/argument_resolver.hpp"
#include "execution/run_mutex.hpp"
#include "reactor/definition.hpp"
#include "reactor/run.hpp"

namespace reactor {

// The run's lock, as the driver's parts hold it: released around user code.
using RunLock = std::unique_lock<RunMutex>;

class Execution;
class RunDriver;

// What each part of a run's driver (run_driver.hpp) works on: the driver, whose schedule it
// reads and writes, the execution, the definition and the run.
class DriverPart {
 public:
  using Lock = RunLock;

  explicit DriverPart(RunDriver& driver);

 protected:
  RunDriver& d_;
  Execution& ex_;
  const DefinitionData& def_;
  Run& run_;
};

// What one attempt of a step came to, before it is recorded.
struct Attempt {
  StepResult result = Success();
  ErrorKind kind = ErrorKind::kStepFailed;
  bool body_started = true;
  std::vector<FieldError> validation_errors;
  // Set when a composed child or map element failed (already rolled back):
  // its error becomes the run's, and the step is neither retried nor
  // compensated.
  std::optional<RunError> child_error;
  // What the attempt came to, besides its result, one of:
  enum class Came {
    kOutcome,      // the step's outcome, recorded as such
    kCutShort,     // the tree stopped mid-child (or a store read failed): record nothing
    kDispatched,   // a fan-out map's elements (an async unit) went out: the step waits for them
    kUnitOutcome,  // an async unit's own outcome (settled, or run inline), recorded by
                   // record_unit: a failure is no failure of the run unless a step reads it
  };
  Came came = Came::kOutcome;
  bool cut_short() const { return came == Came::kCutShort; }
  // What a transform threw, when an argument could not be resolved.
  std::string exception_type;

  // An argument (or a map's source) could not be resolved: the body never
  // started, so the step is neither retried nor compensated.
  static Attempt unresolved(ArgumentError error) {
    Attempt a;
    a.result = Failure(std::move(error.message), false);
    a.kind = ErrorKind::kArgumentResolution;
    a.body_started = false;
    a.exception_type = std::move(error.exception_type);
    return a;
  }
};

// A step about to start: its arguments resolved, its attempt counted and
// marked as started under this execution.
struct Launch {
  std::size_t i = 0;
  std::optional<StepSpec> mocked;  // a test's override of the step, when it has one
  Args args;
  Value items;  // a map's
  int attempt_no = 0;
  const StepSpec& spec(const DefinitionData& def) const { return mocked ? *mocked : def.steps[i]; }
};

}  // namespace reactor
