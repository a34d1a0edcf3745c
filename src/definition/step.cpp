#include "reactor/step.hpp"

namespace reactor {

// Most steps have nothing to revert on one side or the other, so both rollback actions are
// optional and succeed without doing anything.
StepResult Step::compensate(const std::string& /*error*/, const Args& /*args*/,
                            StepContext& /*ctx*/) {
  return Success();
}

StepResult Step::undo(const Value& /*result*/, const Args& /*args*/, StepContext& /*ctx*/) {
  return Success();
}

}  // namespace reactor
