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
  StepResult call_compensate(std::size_t i, const Args& args, const std::string& error);
  // Before step i's `kind` ("compensate", "undo") runs: its arguments resolved again into `args`,
  // and its locks and semaphores taken again. False: the tree stopped. True with `refused` set:
  // the code must not run, `refused` is its failure (arguments, a contended key, a key error).
  bool prepare_code(std::size_t i, const char* kind, Lock& lock, Args& args,
                    std::optional<RollbackFailure>& refused);
  void undo(std::size_t i, Lock& lock, std::vector<RollbackFailure>& failures);
  StepResult call_undo(std::size_t i, const Args& args, const std::string& path);
};

}  // namespace reactor
