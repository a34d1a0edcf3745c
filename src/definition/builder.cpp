// Builder: collects the declaration as written; build() checks it whole.
#include "reactor/builder.hpp"

#include "definition/builder_state.hpp"
#include "definition/graph_check.hpp"

namespace reactor {

Builder::Builder(std::string reactor_name) : state_(std::make_unique<State>()) {
  state_->data.name = std::move(reactor_name);
}
Builder::Builder(Builder&&) noexcept = default;
Builder& Builder::operator=(Builder&&) noexcept = default;
Builder::~Builder() = default;

Builder& Builder::input(std::string name, Schema schema) {
  state_->data.inputs.push_back(InputSpec{std::move(name), std::move(schema)});
  return *this;
}

Builder& Builder::max_concurrency(int n) {
  state_->data.max_concurrency = n;
  return *this;
}

Builder& Builder::observe(std::shared_ptr<Observer> observer) {
  state_->data.observers.push_back(std::move(observer));
  return *this;
}

static StepSpec new_step(std::string name, StepKind kind, std::size_t index) {
  StepSpec s;
  s.name = std::move(name);
  s.kind = kind;
  s.index = index;
  return s;
}

Builder& Builder::add_step(std::string name, RunFn fn) {
  auto& steps = state_->data.steps;
  steps.push_back(new_step(std::move(name), StepKind::kStep, steps.size()));
  steps.back().run = std::move(fn);
  return *this;
}

Builder& Builder::add_step_class(std::string name, StepFactory factory) {
  auto& steps = state_->data.steps;
  steps.push_back(new_step(std::move(name), StepKind::kStep, steps.size()));
  steps.back().factory = std::move(factory);
  return *this;
}

Builder& Builder::compose(std::string name, const Definition& child) {
  auto& steps = state_->data.steps;
  steps.push_back(new_step(std::move(name), StepKind::kCompose, steps.size()));
  steps.back().child = child.data();
  return *this;
}

Builder& Builder::map(std::string name, const Definition& element_reactor) {
  auto& steps = state_->data.steps;
  steps.push_back(new_step(std::move(name), StepKind::kMap, steps.size()));
  steps.back().child = element_reactor.data();
  return *this;
}

Builder& Builder::async_reactor(std::string name, const Definition& child) {
  auto& steps = state_->data.steps;
  steps.push_back(new_step(std::move(name), StepKind::kAsync, steps.size()));
  steps.back().child = child.data();
  return *this;
}

// The step just declared becomes an async unit; build() makes its body a reactor of its own.
Builder& Builder::make_async_step() {
  StepSpec& s = state_->data.steps.back();
  s.kind = StepKind::kAsync;
  s.own_body = true;
  return *this;
}

StepSpec* Builder::current(const char* modifier) {
  if (state_->data.steps.empty()) {
    state_->misuse.push_back(std::string(modifier) + "() called before any step was declared");
    return nullptr;
  }
  return &state_->data.steps.back();
}

Builder& Builder::argument(std::string name, ArgumentSource source) {
  if (StepSpec* s = current("argument")) {
    s->declares_arguments = true;
    s->arguments.push_back(ArgumentSpec{std::move(name), std::move(source)});
  }
  return *this;
}

Builder& Builder::wait_for(std::string step) {
  if (StepSpec* s = current("wait_for")) s->wait_for.push_back(std::move(step));
  return *this;
}

Builder& Builder::wait_for(std::initializer_list<std::string> steps) {
  for (const auto& s : steps) wait_for(s);
  return *this;
}

// Rollback functions belong to plain steps: a composed child or a map rolls
// back through its own steps. An async_step compensates its own failure in its job.
static bool accepts_rollback_fn(const StepSpec& s) { return s.kind == StepKind::kStep; }
// A step with a body of its own: a plain step, or an async_step.
static bool has_own_body(const StepSpec& s) { return s.kind == StepKind::kStep || s.own_body; }

Builder& Builder::compensate(CompensateFn fn) {
  if (StepSpec* s = current("compensate")) {
    if (!has_own_body(*s) || s->factory) {
      state_->misuse.push_back("step '" + s->name +
                               "': compensate() applies to function steps only (a Step class, "
                               "compose or map rolls back through its own code)");
    }
    s->compensate = std::move(fn);
  }
  return *this;
}

Builder& Builder::undo(UndoFn fn) {
  if (StepSpec* s = current("undo")) {
    if (s->kind == StepKind::kAsync) {
      state_->misuse.push_back("step '" + s->name +
                               "': undo() is not allowed on an async unit: it is never undone "
                               "(its job compensates its own failure)");
    } else if (!accepts_rollback_fn(*s) || s->factory) {
      state_->misuse.push_back("step '" + s->name +
                               "': undo() applies to function steps only (a Step class, compose "
                               "or map rolls back through its own code)");
    }
    s->undo = std::move(fn);
  }
  return *this;
}

Builder& Builder::retries(RetryPolicy policy) {
  if (StepSpec* s = current("retries")) {
    if (!has_own_body(*s)) {
      state_->misuse.push_back("step '" + s->name +
                               "': retries() is not allowed on compose, map or async_reactor "
                               "(their own steps declare retries)");
    }
    s->retry = policy;
  }
  return *this;
}

Builder& Builder::timeout(Duration limit) {
  if (StepSpec* s = current("timeout")) {
    if (s->kind == StepKind::kInterrupt) return timeout(limit, TimeoutMode::kLazy);
    if (!has_own_body(*s)) {
      state_->misuse.push_back("step '" + s->name + "': timeout() applies to plain steps only");
    }
    s->timeout = limit;
  }
  return *this;
}

Builder& Builder::validate_output(Schema schema) {
  if (StepSpec* s = current("validate_output")) {
    // Only a plain step's value is checked (and compensated on failure); accepting the
    // modifier on compose or map would silently check nothing.
    if (!has_own_body(*s)) {
      state_->misuse.push_back("step '" + s->name +
                               "': validate_output() applies to plain steps only (check a "
                               "composed reactor's or a map's value in its own steps)");
    }
    s->output_schema = std::move(schema);
  }
  return *this;
}

static void require_map(StepSpec& s, const char* modifier, std::vector<std::string>& misuse) {
  if (s.kind != StepKind::kMap) {
    misuse.push_back("step '" + s.name + "': " + modifier + "() applies to map steps only");
  }
}

Builder& Builder::source(ArgumentSource collection) {
  if (StepSpec* s = current("source")) {
    require_map(*s, "source", state_->misuse);
    s->map_source = std::move(collection);
  }
  return *this;
}

Builder& Builder::source_pages(PageFn fn) {
  if (StepSpec* s = current("source_pages")) {
    require_map(*s, "source_pages", state_->misuse);
    s->pages = std::move(fn);
  }
  return *this;
}

Builder& Builder::fan_out(std::uint32_t batch_size) {
  if (StepSpec* s = current("fan_out")) {
    require_map(*s, "fan_out", state_->misuse);
    if (batch_size == 0) {
      state_->misuse.push_back("step '" + s->name +
                               "': fan_out() needs a batch_size of at least 1");
    }
    s->fan_out = true;
    s->batch_size = batch_size;
  }
  return *this;
}

Builder& Builder::fan_out(ArgumentSource batch_size) {
  if (StepSpec* s = current("fan_out")) {
    require_map(*s, "fan_out", state_->misuse);
    if (batch_size.kind() == ArgumentSource::Kind::kElement) {
      state_->misuse.push_back("step '" + s->name +
                               "': fan_out()'s batch size cannot be an element");
    }
    s->fan_out = true;
    s->batch_size_source = std::move(batch_size);
  }
  return *this;
}

Builder& Builder::claim_batch(std::uint32_t elements) {
  if (StepSpec* s = current("claim_batch")) {
    require_map(*s, "claim_batch", state_->misuse);
    if (elements == 0) {
      state_->misuse.push_back("step '" + s->name +
                               "': claim_batch() needs at least 1 element a claim");
    }
    s->claim = std::max<std::uint32_t>(elements, 1);
  }
  return *this;
}

Builder& Builder::claim_batch(ArgumentSource elements) {
  if (StepSpec* s = current("claim_batch")) {
    require_map(*s, "claim_batch", state_->misuse);
    if (elements.kind() == ArgumentSource::Kind::kElement) {
      state_->misuse.push_back("step '" + s->name + "': claim_batch()'s size cannot be an element");
    }
    s->claim_source = std::move(elements);
  }
  return *this;
}

Builder& Builder::checkpoint_steps() {
  if (StepSpec* s = current("checkpoint_steps")) {
    require_map(*s, "checkpoint_steps", state_->misuse);
    s->checkpoint_steps = true;
  }
  return *this;
}

Builder& Builder::undo_all(UndoAllFn fn) {
  if (StepSpec* s = current("undo_all")) {
    require_map(*s, "undo_all", state_->misuse);
    s->undo_all = std::move(fn);
  }
  return *this;
}

Builder& Builder::atomic(bool atomic) {
  if (StepSpec* s = current("atomic")) {
    require_map(*s, "atomic", state_->misuse);
    s->atomic = atomic;
  }
  return *this;
}

Builder& Builder::collect(CollectFn fn) {
  if (StepSpec* s = current("collect")) {
    require_map(*s, "collect", state_->misuse);
    s->collect = std::move(fn);
  }
  return *this;
}

Builder& Builder::returns(std::string step) {
  state_->returns_name = std::move(step);
  return *this;
}

Builder& Builder::background_after(std::string step) {
  return hand_off(HandOff::Kind::kAfter, std::move(step));
}

Builder& Builder::background_before(std::string step) {
  return hand_off(HandOff::Kind::kBefore, std::move(step));
}

Builder& Builder::hand_off(HandOff::Kind kind, std::string step) {
  state_->hand_offs.emplace_back(kind, std::move(step));
  return *this;
}

Definition Builder::build() const {
  const std::string& name = state_->data.name;
  if (!state_->misuse.empty()) {
    throw DefinitionError("reactor '" + name + "': " + state_->misuse.front());
  }
  auto data = std::make_shared<DefinitionData>(state_->data);
  finish_definition(*data, state_->returns_name, state_->hand_offs);  // throws DefinitionError
  return Definition(std::move(data));
}

}  // namespace reactor
