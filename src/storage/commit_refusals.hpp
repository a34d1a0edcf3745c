// The refusals of a commit and of a lease call, each one's Status code and text written here
// once: memory, SQLite and Redis return these (the Redis scripts return a code, which the C++
// side maps to one of them). The order in which a commit checks them: docs/durability.md, "The
// commit contract"; the malformed requests refused before any of them: commit_check.hpp.
#pragma once

#include <cstdint>
#include <string>

#include "reactor/status.hpp"

namespace reactor::storage {

// LeaseLost: the commit's fencing token is no longer the newest of its root's run lease (the
// run was taken over); nothing was written. The Redis commit scripts and take_holds return 0 for
// it.
Status fenced_out(const std::string& root_id, std::uint64_t token);

// AlreadyExists: a start (CommitRequest::create) names a root run that exists; nothing was
// written. The Redis commit and create_runs scripts return the run's id for it.
Status run_exists(const std::string& run_id);

// LeaseLost: extend_lease by an owner and token that no longer hold the lease. The Redis
// extend_lease script returns 0 for it.
Status lease_not_held(const std::string& key, const std::string& owner, std::uint64_t token);

// NotFound: an operator call names an ordered chain the store does not know. The Redis
// ordered_chain script returns 0 for it.
Status no_chain(const std::string& key);

}  // namespace reactor::storage
