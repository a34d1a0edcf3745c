#include "reactor/definition.hpp"

namespace reactor {

const StepSpec* Definition::find_step(const std::string& name) const {
  for (const auto& s : data_->steps) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

}  // namespace reactor
