// The checks build() makes before a definition may run, and the derived
// facts (dependency indices, fingerprint) it fills in.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "reactor/definition.hpp"

namespace reactor {

// The hand-off points a builder was given, in the order declared.
using HandOffNames = std::vector<std::pair<HandOff::Kind, std::string>>;

// Validates `data`, resolves step dependencies, `returns` and the hand-off point, and computes
// the fingerprint. Throws DefinitionError naming the reactor and the step.
void finish_definition(DefinitionData& data, const std::optional<std::string>& returns_name,
                       const HandOffNames& hand_offs = {});

}  // namespace reactor
