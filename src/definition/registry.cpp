#include "reactor/registry.hpp"

#include <mutex>

namespace reactor {

// Registration is idempotent for the same graph (the same fingerprint), so modules can register
// what they use without coordinating; a different graph under a taken name is a bug, since
// stored runs and queued jobs would then resolve to the wrong saga.
void Registry::add(const Definition& definition) {
  std::unique_lock lock(mu_);
  auto [it, inserted] = by_name_.try_emplace(definition.name(), definition);
  if (!inserted && it->second.fingerprint() != definition.fingerprint()) {
    throw DefinitionError("reactor '" + definition.name() + "' is already registered");
  }
}

std::optional<Definition> Registry::find(const std::string& name) const {
  std::shared_lock lock(mu_);
  auto it = by_name_.find(name);
  if (it == by_name_.end()) return std::nullopt;
  return it->second;
}

std::vector<std::string> Registry::names() const {
  std::shared_lock lock(mu_);
  std::vector<std::string> out;
  out.reserve(by_name_.size());
  for (const auto& [name, definition] : by_name_) out.push_back(name);
  return out;
}

}  // namespace reactor
