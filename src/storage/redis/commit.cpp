#include <algorithm>

#include "reactor/ids.hpp"
#include "records/codec.hpp"
#include "storage/commit_check.hpp"
#include "storage/redis/backend.hpp"
#include "storage/redis/call.hpp"
#include "storage/redis/reply.hpp"
#include "storage/redis/wire.hpp"

namespace reactor {

using redis::append_fetch_args;
using redis::append_job_args;
using redis::append_map_args;
using redis::element;
using redis::integer;
using redis::ScriptId;
using redis::text;

namespace {

// The settle section of the commit script's arguments: 0, or 1 and the slot (its map, index and
// state, its element's lost executions, then its record).
void append_settle_args(const CommitRequest& c, std::vector<std::string>& args) {
  if (!c.settle) {
    args.emplace_back("0");
    return;
  }
  const MapSlotRow& slot = c.settle->slot;
  args.emplace_back("1");
  args.push_back(slot.map_id);
  args.push_back(std::to_string(slot.index));
  args.emplace_back(to_string(slot.state));
  args.push_back(std::to_string(slot.interrupted));
  args.push_back(records::encode_slot_record(slot));
}

// Fan-out maps are written by the general commit script only (includes/maps.lua).
bool writes_maps(const CommitRequest& c) { return !c.maps.empty() || c.settle.has_value(); }

// The commit script's arguments (after the prefix), docs in scripts/commit.lua.
std::vector<std::string> commit_args(const CommitRequest& c) {
  // Enqueueing is the one write that is not idempotent. A commit that
  // enqueues carries a nonce, so resending it after a lost connection cannot
  // enqueue its jobs twice; so does one that settles a map slot, which may
  // release an element or resume the map's owner.
  const std::string nonce =
      c.enqueue.empty() && c.redeliver.empty() && !c.settle ? "" : new_run_id();
  std::vector<std::string> args = {nonce,
                                   c.root_id,
                                   std::to_string(c.fencing_token),
                                   c.release_lease ? "1" : "0",
                                   c.lease_owner,
                                   c.ack_job ? std::to_string(*c.ack_job) : "",
                                   c.ack_owner,
                                   c.create ? "1" : "0"};
  // + 8 row counts, the prefix that run() puts first, and room for a fetch's
  args.reserve(args.size() + 19 + 9 * c.headers.size() + 2 * c.inputs.size() + 3 * c.steps.size() +
               3 * c.trace.size() + 6 * c.enqueue.size() + 27 * c.maps.size() + (c.settle ? 5 : 0));
  // Each row's fields appended one by one (an initializer list would copy
  // every body twice).
  args.push_back(std::to_string(c.headers.size()));
  for (const auto& h : c.headers) {
    args.push_back(h.id);
    args.push_back(h.root_id);
    args.push_back(h.parent_id);
    args.push_back(h.reactor);
    args.emplace_back(to_string(h.status));
    args.emplace_back(is_terminal(h.status) ? "1" : "0");
    args.push_back(std::to_string(h.updated_at_ms));
    args.push_back(std::to_string(h.expires_at_ms));
    args.push_back(records::encode_header_record(h));
  }
  args.push_back(std::to_string(c.inputs.size()));
  for (const auto& i : c.inputs) {
    args.push_back(i.run_id);
    args.push_back(i.inputs);
  }
  args.push_back(std::to_string(c.steps.size()));
  for (const auto& s : c.steps) {
    args.push_back(s.run_id);
    args.push_back(std::to_string(s.index));
    args.push_back(s.body);
  }
  args.push_back(std::to_string(c.trace.size()));
  for (const auto& t : c.trace) {
    args.push_back(t.root_id);
    args.push_back(std::to_string(t.seq));
    args.push_back(t.body);
  }
  args.push_back(std::to_string(c.enqueue.size()));
  for (const auto& j : c.enqueue) append_job_args(j, args);
  args.push_back(std::to_string(c.redeliver.size()));
  for (const auto& j : c.redeliver) append_job_args(j, args);
  args.push_back(std::to_string(c.maps.size()));
  for (const auto& m : c.maps) append_map_args(m, args);
  append_settle_args(c, args);
  return args;
}

// Runs started together (one or in bulk): unfenced, each a root with its
// header, its inputs and its one start job, in that order, and nothing else.
// The create_runs script takes this shape.
bool is_create_commit(const CommitRequest& c) {
  if (!c.create || writes_maps(c) || !c.redeliver.empty() || c.fencing_token != 0 ||
      c.headers.empty() || c.inputs.size() != c.headers.size() ||
      c.enqueue.size() != c.headers.size() || !c.steps.empty() || !c.trace.empty() || c.ack_job ||
      c.release_lease) {
    return false;
  }
  const RunStatus status = c.headers.front().status;
  for (std::size_t i = 0; i < c.headers.size(); ++i) {
    const RunHeaderRow& h = c.headers[i];
    const JobSpec& j = c.enqueue[i];
    if (h.status != status || is_terminal(h.status) || h.root_id != h.id || !h.parent_id.empty() ||
        c.inputs[i].run_id != h.id || j.run_id != h.id || j.reactor != h.reactor ||
        j.kind != JobKind::kStart || j.snoozes != 0) {
      return false;
    }
  }
  return true;
}

// The create_runs script's arguments (after the prefix), docs in scripts/create_runs.lua.
std::vector<std::string> create_args(const CommitRequest& c) {
  std::vector<std::string> args;
  args.reserve(3 + 7 * c.headers.size());
  args.push_back(new_run_id());  // the nonce: a resent start must not enqueue twice
  args.emplace_back(to_string(c.headers.front().status));
  args.emplace_back(to_string(JobKind::kStart));
  for (std::size_t i = 0; i < c.headers.size(); ++i) {
    const RunHeaderRow& h = c.headers[i];
    args.push_back(h.id);
    args.push_back(h.reactor);
    args.push_back(std::to_string(h.updated_at_ms));
    args.push_back(records::encode_header_record(h));
    args.push_back(c.inputs[i].inputs);
    args.push_back(c.enqueue[i].queue);
    args.push_back(std::to_string(c.enqueue[i].run_at_ms));
  }
  return args;
}

// A commit that writes only its own root's rows: fenced, the root's own header
// row and nothing but its own step and trace rows besides (no inputs, no
// jobs, no map records). The step_commit and finish_commit scripts take the
// two shapes of it that almost every commit has.
constexpr std::size_t kMaxOwnRootRows = 200;  // one HSET, whose unpack() the Lua stack bounds

bool writes_only_its_root(const CommitRequest& c) {
  if (c.fencing_token == 0 || writes_maps(c) || !c.inputs.empty() || !c.enqueue.empty() ||
      !c.redeliver.empty() || c.headers.size() != 1 || c.steps.size() > kMaxOwnRootRows) {
    return false;
  }
  const RunHeaderRow& h = c.headers.front();
  if (h.id != c.root_id || h.root_id != c.root_id || !h.parent_id.empty()) return false;
  return std::all_of(c.steps.begin(), c.steps.end(),
                     [&](const StepRow& s) { return s.run_id == c.root_id; }) &&
         std::all_of(c.trace.begin(), c.trace.end(),
                     [&](const TraceRow& t) { return t.root_id == c.root_id; });
}

// The rows after the header in the step_commit and finish_commit scripts' arguments:
// n, n step rows (index, body), then the trace rows (seq, body).
void append_own_rows(const CommitRequest& c, std::vector<std::string>& args) {
  args.push_back(std::to_string(c.steps.size()));
  for (const auto& s : c.steps) {
    args.push_back(std::to_string(s.index));
    args.push_back(s.body);
  }
  for (const auto& t : c.trace) {
    args.push_back(std::to_string(t.seq));
    args.push_back(t.body);
  }
}

// The arguments step_commit and finish_commit begin with (after the prefix):
// root id, fencing token, status, reactor, updated_at, header blob. `more` is
// room for what the caller appends.
std::vector<std::string> own_root_args(const CommitRequest& c, std::size_t more) {
  const RunHeaderRow& h = c.headers.front();
  std::vector<std::string> args;
  args.reserve(8 + more + 2 * c.steps.size() + 2 * c.trace.size());
  args.push_back(c.root_id);
  args.push_back(std::to_string(c.fencing_token));
  args.emplace_back(to_string(h.status));
  args.push_back(h.reactor);
  args.push_back(std::to_string(h.updated_at_ms));
  args.push_back(records::encode_header_record(h));
  return args;
}

// The step_commit script's arguments (after the prefix), docs in scripts/step_commit.lua.
std::vector<std::string> step_commit_args(const CommitRequest& c) {
  std::vector<std::string> args = own_root_args(c, 0);
  append_own_rows(c, args);
  return args;
}

// The finish_commit script's arguments (after the prefix), docs in scripts/finish_commit.lua.
std::vector<std::string> finish_commit_args(const CommitRequest& c) {
  std::vector<std::string> args = own_root_args(c, 12);  // and a fetch's, when it fetches
  args.push_back(std::to_string(c.headers.front().expires_at_ms));
  args.push_back(c.release_lease ? c.lease_owner : "");
  args.push_back(c.ack_job ? std::to_string(*c.ack_job) : "");
  args.push_back(c.ack_owner);
  append_own_rows(c, args);
  return args;
}

// The script that applies `c`: a short one for each shape almost every commit
// has, the general commit for the rest.
ScriptId commit_script(const CommitRequest& c) {
  if (writes_only_its_root(c)) {
    // The step that ends a root, usually with the ack of its job and the release of its lease.
    if (is_terminal(c.headers.front().status)) return ScriptId::kFinishCommit;
    // One step of a running root: no ack, the lease kept.
    if (!c.release_lease && !c.ack_job) return ScriptId::kStepCommit;
  }
  return is_create_commit(c) ? ScriptId::kCreateRuns : ScriptId::kCommit;
}

// The arguments (after the prefix) of `script`, commit_script(c).
std::vector<std::string> commit_script_args(ScriptId script, const CommitRequest& c) {
  switch (script) {
    case ScriptId::kFinishCommit:
      return finish_commit_args(c);
    case ScriptId::kStepCommit:
      return step_commit_args(c);
    case ScriptId::kCreateRuns:
      return create_args(c);
    default:
      return commit_args(c);
  }
}

Status fenced_out(const CommitRequest& c) {
  return Status::LeaseLost("run " + c.root_id + ": fencing token " +
                           std::to_string(c.fencing_token) + " is no longer the newest");
}

}  // namespace

Status RedisBackend::commit(const CommitRequest& c) {
  if (Status s = storage::check_commit(c); !s.ok()) return s;
  const auto applied = [&](const redisReply& r) {
    // A create commit that names a run that exists is answered with its id.
    if (r.type == REDIS_REPLY_STRING) return Status::AlreadyExists("run " + text(r) + " exists");
    return integer(r) == 1 ? Status::Ok() : fenced_out(c);
  };
  const ScriptId script = commit_script(c);
  return run(script, commit_script_args(script, c), applied);
}

Result<std::optional<Delivery>> RedisBackend::commit_then_fetch(const CommitRequest& c,
                                                                const FetchRequest& f) {
  std::optional<Delivery> next;
  if (Status s = storage::check_commit(c); !s.ok()) return s;
  // A start is answered with the id of a run that exists, which the combined script cannot pass on.
  if (f.owner.empty() || f.queues.empty() || c.create) {
    if (Status s = commit(c); !s.ok()) return s;
    return std::nullopt;
  }
  // Only the finish shape has a script that also fetches; the others go the general way.
  const bool finishes = commit_script(c) == ScriptId::kFinishCommit;
  const ScriptId script = finishes ? ScriptId::kFinishCommitThenFetch : ScriptId::kCommitThenFetch;
  std::vector<std::string> args = finishes ? finish_commit_args(c) : commit_args(c);
  args.insert(args.begin(), std::to_string(args.size()));
  append_fetch_args(f, args);
  const auto asked_at = std::chrono::steady_clock::now();
  Status s = run(script, std::move(args), [&](const redisReply& r) {
    if (integer(element(r, 0)) != 1) return fenced_out(c);
    // The commit is applied whatever the fetch found: a fetch reply this
    // build cannot read only leaves `next` empty, it must not turn the
    // commit's success into an error.
    const Status fetched = read_reply(script, element(r, 1), [&](const redisReply& f_reply) {
      return read_fetch_reply(f_reply, f, asked_at, next);
    });
    if (!fetched.ok()) next.reset();
    return Status::Ok();
  });
  if (!s.ok()) return s;
  return next;
}

}  // namespace reactor
