// ChildRuns: child runs attempted as one step of their parent, in this execution — a composed
// reactor, and a map's elements run here one after another (a map without fan_out, or an
// execution with nowhere to send them). Each child is a run of the tree.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "execution/attempt.hpp"
#include "execution/execution.hpp"

namespace reactor {

// The children of `driver`'s run.
class ChildRuns : public DriverPart {
 public:
  using DriverPart::DriverPart;

  Attempt run_compose(const StepSpec& spec, const Args& args);
  // A map: its elements sent out (FanOutMaps) or, without a FanOut, run here.
  Attempt run_map(std::size_t i, Launch& l);
  // The child run of step i at `path` (the k-th), created pending when it does not exist yet.
  Run& child_run(std::size_t i, std::size_t k, const Value& inputs, const std::string& path,
                 Lock& lock, const DefinitionData& child);

 private:
  Attempt run_map_inline(std::size_t i, const Value& items);
  void collect_inline(const StepSpec& spec, const std::vector<ElementOutcome>& outcomes,
                      Attempt& a);
  void undo_inline_elements(std::size_t i, Attempt& a);
};

}  // namespace reactor
