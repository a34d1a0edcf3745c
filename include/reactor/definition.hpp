// Definition: an immutable, validated saga graph, made by Builder::build().
// Cheap to copy (a shared handle); safe to use from many threads.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "reactor/args.hpp"
#include "reactor/argument.hpp"
#include "reactor/coordination.hpp"
#include "reactor/map_results.hpp"
#include "reactor/retry_policy.hpp"
#include "reactor/schema.hpp"
#include "reactor/step.hpp"
#include "reactor/step_context.hpp"
#include "reactor/step_result.hpp"

namespace reactor {

class Observer;

// Thrown by Builder::build() (and Registry::add) for a definition that cannot
// run. The message names the reactor and the offending step.
class DefinitionError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

using RunFn = std::function<StepResult(const Args&, StepContext&)>;
// `error` is the message of the failure being compensated.
using CompensateFn = std::function<StepResult(const std::string& error, const Args&, StepContext&)>;
// `result` is the value the step returned when it completed.
using UndoFn = std::function<StepResult(const Value& result, const Args&, StepContext&)>;
using StepFactory = std::function<std::unique_ptr<Step>()>;
using CollectFn = std::function<Value(const MapResults&)>;
// A map's items a page at a time (Builder::source_pages): the items at
// [offset, offset + limit) as an array of at most `limit`; fewer: the last page.
// `args` are the map step's arguments that are not element().
using PageFn = std::function<Value(const Args& args, std::size_t offset, std::size_t limit)>;
// A map's rollback in one call (Builder::undo_all): `completed` holds the
// outcomes of its completed elements, read page by page.
using UndoAllFn = std::function<StepResult(const MapResults& completed, StepContext&)>;

// What Builder (and TestRun::mock_step) accept as user code. Each entry point
// checks its argument with a static_assert naming the signatures, so a wrong
// lambda is one readable error instead of std::function's page of them.
//
// A step body: StepResult(const Args&) or StepResult(const Args&, StepContext&).
template <typename F>
concept StepFunction = std::is_invocable_r_v<StepResult, F&, const Args&, StepContext&> ||
    std::is_invocable_r_v<StepResult, F&, const Args&>;
// StepResult(const std::string& error, const Args&, StepContext&).
template <typename F>
concept CompensateFunction =
    std::is_invocable_r_v<StepResult, F&, const std::string&, const Args&, StepContext&>;
// StepResult(const Value& result, const Args&, StepContext&).
template <typename F>
concept UndoFunction =
    std::is_invocable_r_v<StepResult, F&, const Value&, const Args&, StepContext&>;
// Value(const MapResults&).
template <typename F>
concept CollectFunction = std::is_invocable_r_v<Value, F&, const MapResults&>;
// Value(const Args&, std::size_t offset, std::size_t limit).
template <typename F>
concept PageFunction = std::is_invocable_r_v<Value, F&, const Args&, std::size_t, std::size_t>;
// StepResult(const MapResults& completed, StepContext&).
template <typename F>
concept UndoAllFunction = std::is_invocable_r_v<StepResult, F&, const MapResults&, StepContext&>;

// The messages of those static_asserts (string literals, as static_assert needs).
#define REACTOR_STEP_FUNCTION_MESSAGE(where)                                             \
  where                                                                                  \
      ": a step must be callable as StepResult(const Args&) or "                         \
      "StepResult(const Args&, StepContext&), and return a StepResult: Success(value), " \
      "Failure(message), Halt(reason) or Skipped(value)"
#define REACTOR_COMPENSATE_FUNCTION_MESSAGE                                                   \
  "Builder::compensate(fn): compensate must be callable as "                                  \
  "StepResult(const std::string& error, const Args&, StepContext&), and return a StepResult " \
  "(Success() once the failed attempt is cleaned up)"
#define REACTOR_UNDO_FUNCTION_MESSAGE                                                    \
  "Builder::undo(fn): undo must be callable as "                                         \
  "StepResult(const Value& result, const Args&, StepContext&), and return a StepResult " \
  "(Success() once the step's effect is reverted)"
#define REACTOR_COLLECT_FUNCTION_MESSAGE                                                        \
  "Builder::collect(fn): collect must be callable as Value(const MapResults&), and return the " \
  "map's value"
#define REACTOR_PAGE_FUNCTION_MESSAGE                                                          \
  "Builder::source_pages(fn): fn must be callable as "                                         \
  "Value(const Args& args, std::size_t offset, std::size_t limit), and return an array of at " \
  "most `limit` items (fewer: the last page)"
#define REACTOR_UNDO_ALL_FUNCTION_MESSAGE                                                      \
  "Builder::undo_all(fn): undo_all must be callable as "                                       \
  "StepResult(const MapResults& completed, StepContext&), and return a StepResult (Success() " \
  "once every completed element is reverted)"

// kAsync: an async unit (Builder::async_step, async_reactor) — its `child` runs as a run of its
// own, dispatched as a job while the run goes on (docs/async.md). kInterrupt: a step whose
// result is a payload from outside (Builder::interrupt, docs/interrupts.md).
enum class StepKind { kStep, kCompose, kMap, kAsync, kInterrupt };

// The correlation id of an interrupt (Builder::correlation_id): computed from its arguments when
// it is reached; the id a resume may name instead of the run and the step.
using CorrelationFn = std::function<std::string(const Args&)>;

// When an interrupt's deadline is seen (Builder::timeout on an interrupt). kLazy: by a resume
// that comes after it — refused, and the run is rolled back. kActive: a job due at the deadline
// wakes the run and rolls it back, whether anyone calls or not.
enum class TimeoutMode { kLazy, kActive };
const char* to_string(TimeoutMode m);  // "lazy", "active"

struct DefinitionData;

struct ArgumentSpec {
  std::string name;
  ArgumentSource source;
  // kResult: index of the step named by source.name(), set by build().
  std::size_t result_step = static_cast<std::size_t>(-1);
};

struct InputSpec {
  std::string name;
  Schema schema;
};

// What an interrupt (StepKind::kInterrupt) waits for, and how long.
struct InterruptSpec {
  std::vector<InputSpec> payload;  // its fields, checked as a run's inputs are; none: any object
  CorrelationFn correlation;       // or none
  // 1: an invalid payload is refused and the interrupt goes on waiting, however many come.
  // n > 1: the n-th invalid payload fails the step, and the run rolls back.
  int max_attempts = 1;
  std::optional<Duration> timeout;                // a fixed timeout, or
  std::optional<ArgumentSource> timeout_seconds;  // one read when it is reached, in seconds
  TimeoutMode timeout_mode = TimeoutMode::kLazy;
};

// One node of the graph. Read-only once built.
struct StepSpec {
  std::string name;
  StepKind kind = StepKind::kStep;
  std::size_t index = 0;  // position in definition order

  std::vector<ArgumentSpec> arguments;
  bool declares_arguments = false;  // if not, the step receives the reactor inputs
  std::vector<std::string> wait_for;
  std::vector<std::size_t> dependencies;  // indices of the steps this one waits for
  std::vector<std::size_t> dependents;    // indices of the steps waiting for this one

  // kStep: either the three functions or a factory of Step objects.
  RunFn run;
  CompensateFn compensate;
  UndoFn undo;
  StepFactory factory;

  RetryPolicy retry;
  std::optional<Duration> timeout;
  std::optional<Schema> output_schema;

  // kCompose: the child reactor. kMap: the element reactor.
  std::shared_ptr<const DefinitionData> child;
  // kMap only: its items from source(), or a page at a time from source_pages().
  std::optional<ArgumentSource> map_source;
  PageFn pages;
  bool atomic = true;
  CollectFn collect;
  UndoAllFn undo_all;
  // Every element a job of its own, at most batch_size outstanding (docs/maps.md);
  // otherwise the elements run in the step, one after another.
  bool fan_out = false;
  std::uint32_t batch_size = 50;
  std::optional<ArgumentSource> batch_size_source;  // the batch size as an input or a result
  // Elements a worker claims at once (Builder::claim_batch): released together as one run, run
  // one after another in memory, their slots filed by one commit. 1: each element a run.
  std::uint32_t claim = 1;
  std::optional<ArgumentSource> claim_source;  // the claim size as an input or a result
  bool checkpoint_steps = false;               // Builder::checkpoint_steps: claim must stay 1
  // kAsync: the child is this step's own body as a reactor of one step (async_step), named
  // "<reactor>.<step>"; otherwise a reactor of the user's (async_reactor).
  bool own_body = false;
  // kInterrupt only.
  std::optional<InterruptSpec> interrupt;
  // Plain steps: what the step takes around its body (Builder::with_lock etc., after the step).
  CoordinationSpec coordination;
};

// Whether step `reader` reads the result of step `unit` (an argument, a map's source or batch
// size): what makes it wait for an async unit to finish rather than only to be dispatched.
bool reads_result_of(const DefinitionData& def, std::size_t reader, std::size_t unit);

// Where a run started by a caller (Engine::run, durable) goes on in a worker: right after
// `step` finishes, or just before it starts (Builder::background_after, background_before).
struct HandOff {
  enum class Kind { kAfter, kBefore };
  Kind kind = Kind::kAfter;
  std::size_t step = 0;  // index of the step
};
const char* to_string(HandOff::Kind k);  // "after", "before"

struct DefinitionData {
  std::string name;
  std::vector<InputSpec> inputs;
  std::vector<StepSpec> steps;
  std::optional<std::size_t> returns;  // index of the step whose value is the run's
  int max_concurrency = 1;
  std::optional<HandOff> hand_off;  // at most one per reactor
  // What every run of the reactor takes from its admission to its end (Builder::with_lock etc.,
  // before the first step). Kept by a composed child's definition, and taken for it by the
  // compose step (the root re-enters what it holds).
  CoordinationSpec coordination;
  std::vector<std::shared_ptr<Observer>> observers;
  std::string fingerprint;  // hash of the graph's structure
};

class Definition {
 public:
  explicit Definition(std::shared_ptr<const DefinitionData> data) : data_(std::move(data)) {}

  const std::string& name() const { return data_->name; }
  const std::vector<InputSpec>& inputs() const { return data_->inputs; }
  const std::vector<StepSpec>& steps() const { return data_->steps; }
  // nullptr when there is no such step.
  const StepSpec* find_step(const std::string& name) const;
  int max_concurrency() const { return data_->max_concurrency; }
  const std::optional<HandOff>& hand_off() const { return data_->hand_off; }
  // Changes whenever steps, their kinds, arguments, dependencies or composed
  // children change; not when only step code changes.
  const std::string& fingerprint() const { return data_->fingerprint; }

  const std::shared_ptr<const DefinitionData>& data() const { return data_; }

 private:
  std::shared_ptr<const DefinitionData> data_;
};

// Step paths, as tests (reactor/testing.hpp) and RunOptions::overrides name steps: "charge"; the
// steps of a composed child, of a map's elements and of an async_reactor unit under their step's
// name, "payment/charge", "tickets/email", "invoice/render"; one element's step with its index,
// "tickets[1]/email" (a unit's run is element 0 of a map of one: "invoice[0]/render").
//
// Every step path of `def` without indices, parents before their children, in declaration order.
std::vector<std::string> step_paths(const Definition& def);
// The step `path` names in `def` (or a reactor inside it), or nullptr.
const StepSpec* find_step_path(const Definition& def, const std::string& path);
// Why `path` names no step of `def`, with the nearest path that does ("no step 'tickets/emial'
// in TripBooking; the nearest is 'tickets/email'"), or nothing when it names one.
std::optional<std::string> step_path_error(const Definition& def, const std::string& path);
// `path` without its element indices: "tickets[1]/email" is "tickets/email".
std::string without_indices(const std::string& path);

}  // namespace reactor
