// Child runs attempted as one step of their parent: a composed reactor, and a map's elements
// run here, one after another (a map without fan_out, or an execution with nowhere to send
// them; a fan-out map's durable path is fan_out_map.cpp). Each child is a run of the tree.
#include "execution/child_runs.hpp"

#include <optional>
#include <vector>

#include "definition/inputs.hpp"
#include "execution/argument_resolver.hpp"
#include "execution/run_driver.hpp"
#include "execution/step_invoker.hpp"
#include "reactor/ids.hpp"
#include "reactor/limits.hpp"
#include "reactor/trace_context.hpp"

namespace reactor {
namespace {

// The error of a failed child run (composed reactor or map element). A child that failed
// before any of its steps ran (its inputs were rejected) names no step: name the child instead.
std::optional<RunError> child_failure(const Run& child) {
  std::optional<RunError> e = child.error;
  if (e && e->step.empty()) e->step = child.path;
  return e;
}

}  // namespace

// The child run at children[k] of step i, created on first use. Caller holds
// the lock.
Run& ChildRuns::child_run(std::size_t i, std::size_t k, const Value& inputs,
                          const std::string& path, Lock&, const DefinitionData& child) {
  auto& children = run_.steps[i].children;
  if (children.size() <= k) {
    children.push_back(make_child_run(child, run_, path, inputs, ex_.now_ms()));
    children.back().trace_parent = child_trace_parent(run_.trace_parent, ex_.origin(), run_.path);
    ex_.touch_created(children.back());
  }
  return children[k];
}

Value child_inputs(const StepSpec& spec, const Args& args) {
  Value inputs = args.to_json();
  if (spec.declares_arguments) return inputs;
  // Without arguments the child takes the parent's inputs it declares, and no others.
  Value declared = Value::object();
  for (const InputSpec& in : spec.child->inputs) {
    if (auto it = inputs.find(in.name); it != inputs.end()) declared[in.name] = std::move(*it);
  }
  return declared;
}

Attempt ChildRuns::run_compose(const StepSpec& spec, const Args& args) {
  const std::size_t i = spec.index;
  Value inputs = child_inputs(spec, args);
  Run* child = nullptr;
  {
    Lock lock(ex_.mutex());
    child = &child_run(i, 0, std::move(inputs), d_.path_of(i), lock, *spec.child);
  }
  RunDriver(ex_, *spec.child, *child).drive();
  Lock lock(ex_.mutex());
  Attempt a;
  switch (child->status) {
    case RunStatus::kCompleted:
      a.result = Success(child->value);
      break;
    case RunStatus::kHalted:
      // A child's Halt halts the parent: the saga as a whole stops.
      a.result = Halt(child->value);
      break;
    case RunStatus::kFailed:
      a.result = Failure(child->error ? child->error->message : "child failed", false);
      a.child_error = child_failure(*child);
      break;
    default:
      a.came = Attempt::Came::kCutShort;  // the tree was stopped mid-child
  }
  if (!a.cut_short() && a.result.ok())
    d_.attempts_.check_value_limits(spec, a);  // its steps' values together
  return a;
}

// A fan-out map dispatches its elements when the execution has somewhere to send them;
// otherwise (and without fan_out) they run here, one after another.
Attempt ChildRuns::run_map(std::size_t i, Launch& l) {
  const StepSpec& spec = def_.steps[i];
  if (spec.fan_out && ex_.fan_out() != nullptr) return d_.maps_.dispatch_map(i, l);
  if (spec.map_source) return run_map_inline(i, l.items);
  // source_pages(), read whole: an inline map holds its elements in its run anyway.
  Value items = Value::array();
  for (std::uint32_t first = 0;; first += MapResults::kPageSize) {
    Value page;
    if (Status s = d_.maps_.map_items(spec, l, first, MapResults::kPageSize, page); !s.ok()) {
      return Attempt::unresolved(ArgumentError{s.message(), {}});
    }
    for (auto& item : page) items.push_back(std::move(item));
    if (items.size() > kMaxMapElements) {
      return Attempt::unresolved(ArgumentError{"source_pages of map '" + spec.name +
                                                   "' has more than " +
                                                   std::to_string(kMaxMapElements) + " elements",
                                               {}});
    }
    if (page.size() < MapResults::kPageSize) break;
  }
  return run_map_inline(i, items);
}

Attempt ChildRuns::run_map_inline(std::size_t i, const Value& items) {
  const StepSpec& spec = def_.steps[i];
  {
    Lock lock(ex_.mutex());
    run_.steps[i].children.reserve(items.size());  // child references stay valid
  }
  std::vector<ElementOutcome> outcomes;
  outcomes.reserve(items.size());
  Attempt a;
  for (std::size_t k = 0; k < items.size(); ++k) {
    Args args;
    if (auto err = resolve_arguments(spec, run_, &items[k], args)) {
      err->message = "element " + std::to_string(k) + ": " + err->message;
      a = Attempt::unresolved(*err);
      break;
    }
    Run* child = nullptr;
    {
      Lock lock(ex_.mutex());
      child = &child_run(i, k, element_inputs(spec, args),
                         d_.path_of(i) + "[" + std::to_string(k) + "]", lock, *spec.child);
    }
    RunDriver(ex_, *spec.child, *child).drive();
    Lock lock(ex_.mutex());
    if (child->status == RunStatus::kCompleted) {
      outcomes.push_back(ElementOutcome{k, true, child->value, {}});
      continue;
    }
    if (child->status == RunStatus::kHalted) {
      a.result = Halt(child->value);
      return a;
    }
    if (child->status != RunStatus::kFailed) {
      a.came = Attempt::Came::kCutShort;
      return a;
    }
    outcomes.push_back(
        ElementOutcome{k, false, nullptr, child->error ? child->error->message : ""});
    if (spec.atomic) {
      a.result = Failure(child->error ? child->error->message : "element failed", false);
      a.child_error = child_failure(*child);
      break;
    }
  }
  if (a.result.ok()) {
    collect_inline(spec, outcomes, a);
    if (a.result.ok()) return a;
    a.body_started = false;  // the elements roll back; the map itself has no side effect
  }
  undo_inline_elements(i, a);
  return a;
}

// What an inline map's outcomes come to: collect() over them, or their array.
void ChildRuns::collect_inline(const StepSpec& spec, const std::vector<ElementOutcome>& outcomes,
                               Attempt& a) {
  if (!spec.collect) {
    Value out = Value::array();
    for (const auto& o : outcomes) out.push_back(element_entry(o, spec.atomic));
    a.result = Success(std::move(out));
  } else {
    auto body = [&](std::stop_token) { return Success(spec.collect(MapResults(outcomes))); };
    a.result = invoke_user_code(body, std::nullopt, ex_.clock()).result;
  }
  d_.attempts_.check_value_limits(spec, a);  // the elements' values together may be past them
}

// An inline map i failed: its completed elements are undone, highest index first, and the
// failures of their undos join the step's error.
void ChildRuns::undo_inline_elements(std::size_t i, Attempt& a) {
  const StepSpec& spec = def_.steps[i];
  Lock lock(ex_.mutex());
  std::vector<RollbackFailure> failures;
  auto& children = run_.steps[i].children;
  for (std::size_t k = children.size(); k-- > 0;) {
    RunDriver(ex_, *spec.child, children[k]).undo_completed(lock, failures);
  }
  if (!a.child_error) {
    RunError e;
    e.kind = a.kind;
    e.step = d_.path_of(i);
    e.reactor = def_.name;
    e.exception_type = a.result.exception_type();
    e.message = a.result.message();
    e.attempts = run_.steps[i].attempts;
    e.retryable = false;
    a.child_error = e;
  }
  for (auto& f : failures) a.child_error->rollback_failures.push_back(std::move(f));
  a.body_started = false;
}

Value element_entry(const ElementOutcome& o, bool atomic) {
  if (atomic) return o.value;
  return o.ok ? Value{{"index", o.index}, {"ok", true}, {"value", o.value}}
              : Value{{"index", o.index}, {"ok", false}, {"error", o.error}};
}

Run make_child_run(const DefinitionData& def, const Run& parent, std::string path, Value inputs,
                   std::int64_t now_ms) {
  Run child;
  child.id = new_run_id();
  child.reactor = def.name;
  child.root_id = parent.root_id;
  child.parent_id = parent.id;
  child.path = std::move(path);
  child.fingerprint = def.fingerprint;
  child.inputs = std::move(inputs);
  child.steps.resize(def.steps.size());
  for (std::size_t i = 0; i < def.steps.size(); ++i) child.steps[i].name = def.steps[i].name;
  child.created_at_ms = child.updated_at_ms = now_ms;
  return child;
}

}  // namespace reactor
