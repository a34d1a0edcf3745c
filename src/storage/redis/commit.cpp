#include <algorithm>

#include "reactor/ids.hpp"
#include "records/codec.hpp"
#include "storage/commit_check.hpp"
#include "storage/commit_refusals.hpp"
#include "storage/redis/backend.hpp"
#include "storage/redis/call.hpp"
#include "storage/redis/reply.hpp"
#include "storage/redis/script_args.hpp"
#include "storage/redis/wire.hpp"

namespace reactor {

using redis::append_fetch_args;
using redis::append_section;
using redis::element;
using redis::integer;
using redis::kHeaderArgs;
using redis::kOrderedJoinArgs;
using redis::kPeriodMarkArgs;
using redis::kRecordFields;
using redis::kReleaseArgs;
using redis::kSlotArgs;
using redis::root_key;
using redis::ScriptId;
using redis::text;

namespace {

// Fan-out maps are written by the general commit script only (includes/maps.lua).
bool writes_maps(const CommitRequest& c) { return !c.maps.empty() || c.settle.has_value(); }

// The commit script's arguments, docs in scripts/commit-10.lua: its scalars, then a section
// (script_args.hpp) of each kind of row.
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
  append_section(c.headers, kHeaderArgs, args);
  append_section(c.inputs, kRecordFields, args);
  append_section(c.steps, kRecordFields, args);
  append_section(c.trace, kRecordFields, args);
  append_section(c.enqueue, kRecordFields, args);
  append_section(c.redeliver, kRecordFields, args);
  append_section(c.maps, kRecordFields, args);
  append_section(c.settle ? c.settle->slots : std::vector<MapSlotRow>{}, kSlotArgs, args);
  append_section(c.release_holds, kReleaseArgs, args);
  append_section(c.period_marks, kPeriodMarkArgs, args);
  append_section(c.ordered_joins, kOrderedJoinArgs, args);
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

// The create_runs script's arguments, docs in scripts/create_runs-4.lua.
std::vector<std::string> create_args(const CommitRequest& c) {
  std::vector<std::string> args = {
      new_run_id()};  // the nonce: a resent start must not enqueue twice
  append_section(c.headers, kHeaderArgs, args);
  append_section(c.inputs, kRecordFields, args);
  append_section(c.enqueue, kRecordFields, args);
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

// The sections step_commit and finish_commit end with: the root's header, its steps, its trace.
void append_own_rows(const CommitRequest& c, std::vector<std::string>& args) {
  append_section(c.headers, kHeaderArgs, args);
  append_section(c.steps, kRecordFields, args);
  append_section(c.trace, kRecordFields, args);
}

// The step_commit script's arguments, docs in scripts/step_commit-5.lua.
std::vector<std::string> step_commit_args(const CommitRequest& c) {
  std::vector<std::string> args = {std::to_string(c.fencing_token)};
  append_own_rows(c, args);
  return args;
}

// The finish_commit script's arguments, docs in scripts/finish_commit-5.lua.
std::vector<std::string> finish_commit_args(const CommitRequest& c) {
  std::vector<std::string> args = {std::to_string(c.fencing_token),
                                   c.release_lease ? c.lease_owner : "",
                                   c.ack_job ? std::to_string(*c.ack_job) : "", c.ack_owner};
  append_own_rows(c, args);
  return args;
}

// The script that applies `c`: a short one for each shape almost every commit
// has, the general commit for the rest — and for every commit that coordinates, since only it
// writes holds, period marks and chains (includes/hold_commit.lua).
ScriptId commit_script(const CommitRequest& c) {
  if (c.coordinates()) return ScriptId::kCommit;
  if (writes_only_its_root(c)) {
    // The step that ends a root, usually with the ack of its job and the release of its lease.
    if (is_terminal(c.headers.front().status)) return ScriptId::kFinishCommit;
    // One step of a running root: no ack, the lease kept.
    if (!c.release_lease && !c.ack_job) return ScriptId::kStepCommit;
  }
  return is_create_commit(c) ? ScriptId::kCreateRuns : ScriptId::kCommit;
}

// The arguments of `script`, commit_script(c).
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

// The keys of `c`'s root that `script` takes after its store-wide ones (redis::script_keys()).
std::vector<std::string> commit_script_keys(ScriptId script, const CommitRequest& c) {
  switch (script) {
    case ScriptId::kFinishCommit:
    case ScriptId::kFinishCommitThenFetch:
    case ScriptId::kStepCommit:
      return {root_key(c.root_id, "meta"), root_key(c.root_id, "rows")};
    case ScriptId::kCreateRuns:
      return {};
    default:  // commit, commit_then_fetch
      return {root_key(c.root_id, "meta")};
  }
}

// The commit scripts' refusal codes (scripts/commit-10.lua): 0 is the fence.
Status fenced_out(const CommitRequest& c) {
  return storage::fenced_out(c.root_id, c.fencing_token);
}

}  // namespace

Status RedisBackend::commit(const CommitRequest& c) {
  if (Status s = storage::check_commit(c); !s.ok()) return s;
  const auto applied = [&](const redisReply& r) {
    // A create commit that names a run that exists is answered with its id.
    if (r.type == REDIS_REPLY_STRING) return storage::run_exists(text(r));
    return integer(r) == 1 ? Status::Ok() : fenced_out(c);
  };
  const ScriptId script = commit_script(c);
  return run(script, commit_script_keys(script, c), commit_script_args(script, c), applied);
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
  Status s = run(script, commit_script_keys(script, c), std::move(args), [&](const redisReply& r) {
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
