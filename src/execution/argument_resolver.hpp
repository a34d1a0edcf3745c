// Resolves a step's declared arguments against the run's inputs and results.
#pragma once

#include <optional>
#include <string>

#include "reactor/args.hpp"
#include "reactor/definition.hpp"
#include "reactor/run.hpp"

namespace reactor {

// Why an argument could not be resolved; `exception_type` names what a
// transform threw, if it threw.
struct ArgumentError {
  std::string message;
  std::string exception_type;
};

// Fills `out` for `step`. `element` is the current map element, for element()
// sources. Returns the error when an argument cannot be resolved (missing
// path, throwing transform, element outside a map).
std::optional<ArgumentError> resolve_arguments(const StepSpec& step, const Run& run,
                                               const Value* element, Args& out);

// Resolves one source to a value (copied). Used for a map's source().
std::optional<ArgumentError> resolve_source(const ArgumentSource& source, const Run& run,
                                            const DefinitionData& def, Value& out);

// The inputs of a map element: its map's arguments that the element reactor
// declares (a paged map may have more, for its pages alone).
Value element_inputs(const StepSpec& map, const Args& args);

// Follows a dotted path ("a.b.0") inside `v`; nullptr when absent.
const Value* follow_path(const Value& v, const std::string& path);

}  // namespace reactor
