// Registry: reactors by their unique, stable name. Storage and job queues
// refer to a reactor by this name only, so keep it stable across releases.
#pragma once

#include <map>
#include <optional>
#include <shared_mutex>
#include <string>
#include <vector>

#include "reactor/definition.hpp"

namespace reactor {

// Thread-safe.
class Registry {
 public:
  // Throws DefinitionError when the name is taken by another definition.
  void add(const Definition& definition);
  std::optional<Definition> find(const std::string& name) const;
  std::vector<std::string> names() const;

 private:
  mutable std::shared_mutex mu_;
  std::map<std::string, Definition> by_name_;
};

}  // namespace reactor
