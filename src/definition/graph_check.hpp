// The checks build() makes before a definition may run, and the derived
// facts (dependency indices, fingerprint) it fills in.
#pragma once

#include <optional>
#include <string>

#include "reactor/definition.hpp"

namespace reactor {

// Validates `data`, resolves step dependencies and `returns`, and computes the
// fingerprint. Throws DefinitionError naming the reactor and the step.
void finish_definition(DefinitionData& data, const std::optional<std::string>& returns_name);

}  // namespace reactor
