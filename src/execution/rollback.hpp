// Rollback: compensation of a failed run's failed steps, and undo of its completed ones,
// newest first — composed children and map elements recursively.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "execution/attempt.hpp"
#include "execution/execution.hpp"

namespace reactor {

// The rollback of `driver`'s run.
class Rollback : public DriverPart {
 public:
  using DriverPart::DriverPart;

  void rollback(Lock& lock);
  void undo_completed(Lock& lock, std::vector<RollbackFailure>& failures);

 private:
  void compensate(std::size_t i, Lock& lock);
  StepResult call_compensate(std::size_t i, const std::string& error);
  void undo(std::size_t i, Lock& lock, std::vector<RollbackFailure>& failures);
};

}  // namespace reactor
