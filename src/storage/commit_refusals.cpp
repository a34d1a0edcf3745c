#include "storage/commit_refusals.hpp"

namespace reactor::storage {

Status fenced_out(const std::string& root_id, std::uint64_t token) {
  return Status::LeaseLost("run " + root_id + ": fencing token " + std::to_string(token) +
                           " is no longer the newest");
}

Status run_exists(const std::string& run_id) {
  return Status::AlreadyExists("run " + run_id + " exists");
}

Status lease_not_held(const std::string& key, const std::string& owner, std::uint64_t token) {
  return Status::LeaseLost("lease " + key + " is no longer held by " + owner + " (token " +
                           std::to_string(token) + ")");
}

Status no_chain(const std::string& key) {
  return Status::NotFound("no ordered chain '" + key + "'");
}

}  // namespace reactor::storage
