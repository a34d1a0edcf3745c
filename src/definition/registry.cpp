#include "reactor/registry.hpp"

#include <mutex>

namespace reactor {

namespace {

// Adds `definition` under its name; a different graph under that name is a bug, since stored runs
// and queued jobs would then resolve to the wrong saga.
void add_named(std::map<std::string, Definition>& by_name, const Definition& definition) {
  auto [it, inserted] = by_name.try_emplace(definition.name(), definition);
  if (!inserted && it->second.fingerprint() != definition.fingerprint()) {
    throw DefinitionError("reactor '" + definition.name() + "' is already registered");
  }
}

// The element reactors of the fan-out maps and the reactors of the async units in `def`, however
// deep: a worker resolves an element run's or a unit run's reactor by name.
void add_elements(std::map<std::string, Definition>& parts, const DefinitionData& def) {
  for (const StepSpec& s : def.steps) {
    if (!s.child) continue;
    if ((s.kind == StepKind::kMap && s.fan_out) || s.kind == StepKind::kAsync) {
      add_named(parts, Definition(s.child));
    }
    add_elements(parts, *s.child);
  }
}

}  // namespace

// Registration is idempotent for the same graph (the same fingerprint), so modules can register
// what they use without coordinating.
namespace {

void check_named(const RateLimits& limits, const std::string& where, const CoordinationSpec& c) {
  for (const RateLimitSpec& r : c.rate_limits) {
    if (!r.named.empty() && !limits.find(r.named)) {
      throw DefinitionError(where + ": rate limit '" + r.named +
                            "' is not registered (Engine::rate_limits().add)");
    }
  }
}

// Every rate limit `d` (and what it composes, maps and dispatches) names by name is registered.
void check_rate_limits(const RateLimits& limits, const DefinitionData& d) {
  check_named(limits, "reactor '" + d.name + "'", d.coordination);
  for (const StepSpec& s : d.steps) {
    check_named(limits, "reactor '" + d.name + "', step '" + s.name + "'", s.coordination);
    if (s.child) check_rate_limits(limits, *s.child);
  }
}

}  // namespace

void Registry::add(const Definition& definition) {
  check_rate_limits(rate_limits_, *definition.data());
  std::unique_lock lock(mu_);
  add_named(by_name_, definition);
  std::map<std::string, Definition> elements;
  add_elements(elements, *definition.data());
  for (const auto& [name, part] : elements) {
    add_named(parts_, part);
    homes_.try_emplace(name, definition.name());
  }
  for (const auto& [name, part] : parts_) {
    auto it = by_name_.find(name);
    if (it != by_name_.end() && it->second.fingerprint() != part.fingerprint()) {
      throw DefinitionError("reactor '" + name + "' is already registered");
    }
  }
}

std::optional<Definition> Registry::find(const std::string& name) const {
  std::shared_lock lock(mu_);
  if (auto it = by_name_.find(name); it != by_name_.end()) return it->second;
  if (auto it = parts_.find(name); it != parts_.end()) return it->second;
  return std::nullopt;
}

std::string Registry::home_of(const std::string& name) const {
  std::shared_lock lock(mu_);
  auto it = homes_.find(name);
  return it == homes_.end() ? name : it->second;
}

bool Registry::is_async_unit(const std::string& reactor, const std::string& path) const {
  const std::optional<Definition> def = find(reactor);
  const StepSpec* step = def ? find_step_path(*def, without_indices(path)) : nullptr;
  return step != nullptr && step->kind == StepKind::kAsync;
}

std::vector<std::string> Registry::names() const {
  std::shared_lock lock(mu_);
  std::vector<std::string> out;
  out.reserve(by_name_.size());
  for (const auto& [name, definition] : by_name_) out.push_back(name);
  return out;
}

}  // namespace reactor
