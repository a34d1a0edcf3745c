#include "durability/correlation.hpp"

#include <algorithm>
#include <chrono>

#include "records/run_rows.hpp"

namespace reactor {

namespace {

std::string key_of(const std::string& id) { return "correlation:" + id; }
std::string owner_of(const Correlation& c) { return c.root_id + '\t' + c.path; }

// Past every deadline, for an interrupt that waits as long as it takes.
constexpr Duration kNoDeadlineHold = std::chrono::hours(24 * 3650);

// Whether the interrupt `holder` names still waits for its payload (a record that cannot be read
// counts as waiting: the id is not taken from it blindly).
bool still_waits(DurableEnv& env, const Correlation& holder) {
  Result<StoredRun> stored = env.backend.load_run(holder.root_id);
  if (stored.status().code() == StatusCode::kNotFound) return false;
  Run root;
  if (!stored.ok() || !records::decode_run(*stored, root).ok()) return true;
  if (is_terminal(root.status)) return false;
  const Run* run = &root;
  for (std::size_t from = 0;;) {
    const std::size_t slash = holder.path.find('/', from);
    const std::string name =
        holder.path.substr(from, slash == std::string::npos ? slash : slash - from);
    auto it = std::find_if(run->steps.begin(), run->steps.end(),
                           [&](const StepRecord& r) { return r.name == name; });
    if (it == run->steps.end()) return true;  // unnamed steps: not known, so not taken
    if (slash == std::string::npos) return it->status == StepStatus::kPaused;
    if (it->children.empty()) return false;
    run = &it->children[0];
    from = slash + 1;
  }
}

Correlation parse(const std::string& id, const std::string& owner) {
  const auto tab = owner.find('\t');
  return Correlation{id, owner.substr(0, tab), owner.substr(tab + 1)};
}

}  // namespace

Status hold(DurableEnv& env, const Correlation& c, std::int64_t until_ms) {
  const Duration ttl =
      until_ms > 0 ? std::chrono::milliseconds(std::max<std::int64_t>(until_ms - env.now_ms(), 0)) +
                         env.options.context_ttl
                   : kNoDeadlineHold;
  for (int tries = 0; tries < 2; ++tries) {
    Result<LeaseGrant> g = env.backend.acquire_lease(key_of(c.id), owner_of(c), ttl);
    if (!g.ok()) return g.status();
    if (g->granted || g->lease.owner == owner_of(c)) return Status::Ok();
    const Correlation holder = parse(c.id, g->lease.owner);
    if (still_waits(env, holder)) {
      return Status::AlreadyExists("correlation id '" + c.id + "' is held by interrupt '" +
                                   holder.path + "' of run " + holder.root_id +
                                   ", which waits for its payload");
    }
    // Its holder was resumed or ended: the id is this interrupt's now.
    Status released = env.backend.release_lease(key_of(c.id), g->lease.owner, g->lease.token);
    if (!released.ok()) return released;
  }
  return Status::Unavailable("correlation id '" + c.id + "' changed hands while taken over");
}

Result<Correlation> find_correlation(Backend& backend, const std::string& id) {
  Result<Lease> lease = backend.peek_lease(key_of(id));
  if (!lease.ok()) return lease.status();
  if (lease->owner.find('\t') == std::string::npos) {
    return Status::NotFound("no interrupt waits under correlation id '" + id + "'");
  }
  return parse(id, lease->owner);
}

}  // namespace reactor
