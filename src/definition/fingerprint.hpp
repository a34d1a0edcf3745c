// A definition's fingerprint: what a stored run checks its reactor against (the names of its
// inputs, steps, arguments and their sources, its children's fingerprints), so that a run started
// on one shape of a reactor is not carried on by another (ErrorKind::kDefinitionChanged).
#pragma once

#include <string>

#include "reactor/definition.hpp"

namespace reactor {

// 16 hex digits (FNV-1a), the same in every process and build for the same shape.
std::string fingerprint_of(const DefinitionData& d);

}  // namespace reactor
