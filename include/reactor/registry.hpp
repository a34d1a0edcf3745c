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
  // Registers `definition`, and under their own names the element reactors of
  // its fan-out maps (however deep), which element runs name. Throws
  // DefinitionError when a name is taken by another definition, or when it (or a reactor it
  // composes) names a rate limit rate_limits() does not hold.
  void add(const Definition& definition);
  // A registered reactor, or a fan-out map's element reactor.
  std::optional<Definition> find(const std::string& name) const;
  // The reactors registered with add(), not their elements'.
  std::vector<std::string> names() const;
  // The reactor registered with add() that `name` belongs to: itself, or for
  // an element reactor the first one registered with it. Its jobs go to that
  // reactor's queue, which the workers serving it fetch from. `name` itself
  // when it is unknown.
  std::string home_of(const std::string& name) const;
  // Whether the step at `path` ("invoice", "payment/invoice", "m[3]/notify") of a run of
  // `reactor` is an async unit (reactor/definition.hpp, step paths). False for a reactor or a
  // path it does not know.
  bool is_async_unit(const std::string& reactor, const std::string& path) const;
  // The rate limits reactors may name (Builder::with_rate_limit(name)).
  RateLimits& rate_limits() { return rate_limits_; }
  const RateLimits& rate_limits() const { return rate_limits_; }

 private:
  RateLimits rate_limits_;
  mutable std::shared_mutex mu_;
  std::map<std::string, Definition> by_name_;
  std::map<std::string, Definition> parts_;   // element reactors, by name
  std::map<std::string, std::string> homes_;  // element reactor -> reactor registered with it
};

}  // namespace reactor
