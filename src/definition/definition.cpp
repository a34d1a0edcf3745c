#include "reactor/definition.hpp"

namespace reactor {

const char* to_string(HandOff::Kind k) { return k == HandOff::Kind::kAfter ? "after" : "before"; }

const StepSpec* Definition::find_step(const std::string& name) const {
  for (const auto& s : data_->steps) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

}  // namespace reactor
