// Which coordination a definition's parts declare (reactor/coordination.hpp): read by the
// execution (a step's gate) and the durable layer (admission).
#pragma once

#include "reactor/definition.hpp"

namespace reactor {

// Whether `d` (or a reactor it composes, maps or dispatches) declares any coordination.
bool declares_coordination(const DefinitionData& d);
// What step `s` takes around its body: its own, or a composed child's reactor-level
// coordination (the root re-enters what it holds).
const CoordinationSpec& step_coordination(const StepSpec& s);

}  // namespace reactor
