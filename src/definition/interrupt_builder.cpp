// The Builder's interrupts: the step that waits for a payload, and its modifiers.
#include "definition/builder_state.hpp"

namespace reactor {

const char* to_string(TimeoutMode m) { return m == TimeoutMode::kActive ? "active" : "lazy"; }

Builder& Builder::interrupt(std::string name) {
  auto& steps = state_->data.steps;
  StepSpec s;
  s.name = std::move(name);
  s.kind = StepKind::kInterrupt;
  s.index = steps.size();
  s.interrupt.emplace();
  steps.push_back(std::move(s));
  return *this;
}

// The interrupt declared last, or nullptr (the misuse noted) when the last step is not one.
InterruptSpec* Builder::current_interrupt(const char* modifier) {
  StepSpec* s = current(modifier);
  if (s == nullptr) return nullptr;
  if (!s->interrupt) {
    state_->misuse.push_back("step '" + s->name + "': " + modifier +
                             "() applies to interrupts only");
    return nullptr;
  }
  return &*s->interrupt;
}

Builder& Builder::payload(std::string field, Schema schema) {
  if (InterruptSpec* i = current_interrupt("payload")) {
    i->payload.push_back(InputSpec{std::move(field), std::move(schema)});
  }
  return *this;
}

Builder& Builder::correlation(CorrelationFn fn) {
  if (InterruptSpec* i = current_interrupt("correlation_id")) i->correlation = std::move(fn);
  return *this;
}

Builder& Builder::max_attempts(int n) {
  if (InterruptSpec* i = current_interrupt("max_attempts")) i->max_attempts = n;
  return *this;
}

Builder& Builder::timeout(Duration limit, TimeoutMode mode) {
  if (InterruptSpec* i = current_interrupt("timeout")) {
    i->timeout = limit;
    i->timeout_seconds.reset();
    i->timeout_mode = mode;
  }
  return *this;
}

Builder& Builder::timeout(ArgumentSource seconds, TimeoutMode mode) {
  if (InterruptSpec* i = current_interrupt("timeout")) {
    i->timeout_seconds = std::move(seconds);
    i->timeout.reset();
    i->timeout_mode = mode;
  }
  return *this;
}

}  // namespace reactor
