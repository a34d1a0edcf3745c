// Resolves a step's declared arguments against the run's inputs and results.
#pragma once

#include <optional>
#include <string>

#include "reactor/args.hpp"
#include "reactor/definition.hpp"
#include "reactor/run.hpp"

namespace reactor {

// Fills `out` for `step`. `element` is the current map element, for element()
// sources. Returns an error message when an argument cannot be resolved
// (missing path, throwing transform, element outside a map).
std::optional<std::string> resolve_arguments(const StepSpec& step, const Run& run,
                                             const Value* element, Args& out);

// Resolves one source to a value (copied). Used for a map's source().
std::optional<std::string> resolve_source(const ArgumentSource& source, const Run& run,
                                          const DefinitionData& def, Value& out);

// Follows a dotted path ("a.b.0") inside `v`; nullptr when absent.
const Value* follow_path(const Value& v, const std::string& path);

}  // namespace reactor
