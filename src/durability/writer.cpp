#include "durability/writer.hpp"

#include <algorithm>
#include <set>

#include "durability/durable_fan_out.hpp"
#include "records/codec.hpp"
#include "records/run_rows.hpp"

namespace reactor {

CommitRequest Writer::fenced() const {
  CommitRequest c;
  c.root_id = lease.key.substr(4);  // "run:<id>"
  c.fencing_token = lease.token;
  c.lease_owner = lease.owner;
  return c;
}

void Writer::finish_with(CommitRequest& c) const {
  if (job_id) {
    c.ack_job = job_id;
    c.ack_owner = job_owner;
  }
  c.release_lease = true;
}

Status Writer::checkpoint(const Run& root, const CheckpointDelta& delta) const {
  CommitRequest c = fenced();
  encode_delta(root, delta, env.expiry_ms(), c);
  // The commit that writes a new root first is its start: it never overwrites a run.
  c.create = std::find(delta.created.begin(), delta.created.end(), &root) != delta.created.end();
  const bool suspends = root.status == RunStatus::kWaiting || root.status == RunStatus::kPaused;
  const bool ends = delta.leave_unfinished || is_terminal(root.status) || suspends;
  if (delta.leave_unfinished) {
    // Left unfinished (a stop request, a hand-off): its job due at once for another worker, in the
    // same commit.
    c.enqueue.push_back(env.resume_job(root, env.now_ms()));
  } else if (ends) {
    // Persist before enqueue, in one commit: the suspended run and the job
    // that wakes it (when a time does) are written together.
    if (suspends && root.suspension && root.suspension->wake_at_ms() > 0) {
      c.enqueue.push_back(env.resume_job(root, root.suspension->wake_at_ms()));
    }
    // An element of a fan-out map fills its slot with the commit that ends it: the store
    // releases the next element and, after the last, resumes the owner, in the same write.
    c.settle = settle_of(root);
  }
  if (ends) finish_with(c);
  if (decor != nullptr) decor->decorate(c, root, delta);
  Status s;
  // One job fetched ahead at most: a second such commit must not drop it.
  if (!ends || delta.leave_unfinished || !next || next->delivery) {
    s = env.backend.commit(c);
  } else {
    next->asked_at = env.clock.now();
    Result<std::optional<Delivery>> fetched = env.backend.commit_then_fetch(c, next->request);
    s = fetched.status();
    if (fetched.ok()) next->delivery = std::move(fetched).value();
    next->fetched = s.ok();
  }
  if (s.ok() && !delta.steps.empty()) env.durable_steps.fetch_add(1, std::memory_order_relaxed);
  return s;
}

void encode_delta(const Run& root, const CheckpointDelta& delta, std::int64_t expires_at_ms,
                  RunRows& out) {
  std::set<const Run*> written;
  for (const Run* run : delta.created) {
    if (written.insert(run).second) records::encode_created(*run, expires_at_ms, out);
  }
  for (const Run* run : delta.headers) {
    if (written.insert(run).second) {
      out.headers.push_back(records::encode_header(*run, expires_at_ms));
    }
  }
  std::set<std::pair<const Run*, std::size_t>> steps_written;
  for (const auto& [run, i] : delta.steps) {
    if (delta.created.end() != std::find(delta.created.begin(), delta.created.end(), run)) continue;
    if (steps_written.insert({run, i}).second)
      out.steps.push_back(records::encode_step_row(*run, i));
  }
  if (!written.count(&root)) out.headers.push_back(records::encode_header(root, expires_at_ms));
  records::encode_trace_rows(root, delta.trace_begin, out);
}

}  // namespace reactor
