// What a Builder has collected so far: shared by the files that define its members
// (builder.cpp, interrupt_builder.cpp).
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "reactor/builder.hpp"

namespace reactor {

struct Builder::State {
  DefinitionData data;
  std::optional<std::string> returns_name;
  // The hand-off points declared, by kind and step name: build() accepts at most one.
  std::vector<std::pair<HandOff::Kind, std::string>> hand_offs;
  // Misuse found while declaring (a modifier with no step to apply to, a map
  // modifier on a plain step). Reported by build(), so the chain stays fluent.
  std::vector<std::string> misuse;
};

}  // namespace reactor
