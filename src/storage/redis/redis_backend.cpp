#include "storage/redis/redis_backend.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <map>
#include <stdexcept>
#include <string_view>
#include <thread>

#include "reactor/ids.hpp"
#include "records/codec.hpp"
#include "storage/commit_check.hpp"
#include "storage/storage_time.hpp"

namespace reactor {

using redis::Reply;
using redis::ScriptId;

namespace {

// A reply of a shape the script never returns.
struct BadReply : std::runtime_error {
  using std::runtime_error::runtime_error;
};

const redisReply& element(const redisReply& r, std::size_t i) {
  if (r.type != REDIS_REPLY_ARRAY || i >= r.elements) {
    throw BadReply("expected an array of more than " + std::to_string(i) + " elements");
  }
  return *r.element[i];
}

std::string text(const redisReply& r) {
  switch (r.type) {
    case REDIS_REPLY_STRING:
    case REDIS_REPLY_STATUS:
      return std::string(r.str, r.len);
    case REDIS_REPLY_INTEGER:
      return std::to_string(r.integer);
    case REDIS_REPLY_NIL:
      return {};
    default:
      throw BadReply("expected a string");
  }
}

std::int64_t integer(const redisReply& r) {
  if (r.type == REDIS_REPLY_INTEGER) return r.integer;
  if (r.type == REDIS_REPLY_STRING) {
    std::int64_t value = 0;
    auto [end, ec] = std::from_chars(r.str, r.str + r.len, value);
    if (ec == std::errc() && end == r.str + r.len) return value;
  }
  throw BadReply("expected an integer");
}

// Visits the field/value pairs of an HGETALL reply.
template <typename Visit>
void for_each_field(const redisReply& r, Visit&& visit) {
  if (r.type != REDIS_REPLY_ARRAY || r.elements % 2 != 0) throw BadReply("expected a hash");
  for (std::size_t i = 0; i < r.elements; i += 2)
    visit(text(*r.element[i]), text(*r.element[i + 1]));  // by value: visitors may keep them
}

// Script arguments for counts: Redis reads LIMIT counts as signed 64-bit.
std::string count_arg(std::size_t n) {
  return std::to_string(std::min<std::size_t>(n, 1'000'000'000));
}

// Run headers are stored whole in the rows hash of their root run, as the
// record codec writes a header row (records/codec.hpp). `what` names the
// header in a Corruption message: the text may not say whose it is.
Status decode_header(const std::string& what, const std::string& text, RunHeaderRow& h) {
  try {
    h = records::decode_header_record(text);
  } catch (const std::exception& e) {
    return Status::Corruption(what + ": " + e.what());
  }
  return Status::Ok();
}

// A header that does not parse is left out of a listing (or a sweep) rather
// than failing it: one bad record must not hide every other run, nor keep
// the sweeper from the other orphans. That run itself is failed with
// corrupt_record when a job delivers it (load_header/load_run report it).
Status decode_headers(const redisReply& list, std::vector<RunHeaderRow>& out) {
  if (list.type != REDIS_REPLY_ARRAY) throw BadReply("expected a list of headers");
  for (std::size_t i = 0; i < list.elements; ++i) {
    RunHeaderRow h;
    if (decode_header("a listed run header", text(*list.element[i]), h).ok()) {
      out.push_back(std::move(h));
    }
  }
  return Status::Ok();
}

// The keys the C++ side names itself; the same names as the Lua helpers in
// scripts/includes/keys.lua.
std::string wake_key(const std::string& prefix, const std::string& queue) {
  return prefix + "wake:" + queue;
}
std::string run_jobs_key(const std::string& prefix, const std::string& run_id) {
  return prefix + "{" + run_id + "}:jobs";
}

std::string queue_set(const std::vector<std::string>& queues) {
  std::string key;
  for (const auto& q : queues) {
    key += q;
    key += '\n';
  }
  return key;
}

// Splits a step field "<run id>#<index>".
void parse_step_field(std::string_view field, std::string& run_id, std::uint32_t& index) {
  const auto hash = field.rfind('#');
  if (hash == std::string_view::npos) throw BadReply("step field '" + std::string(field) + "'");
  const char* first = field.data() + hash + 1;
  const char* last = field.data() + field.size();
  auto [end, ec] = std::from_chars(first, last, index);
  if (ec != std::errc() || end != last) throw BadReply("step field '" + std::string(field) + "'");
  run_id.assign(field.substr(0, hash));
}

std::uint64_t parse_seq(std::string_view seq) {
  std::uint64_t n = 0;
  auto [end, ec] = std::from_chars(seq.data(), seq.data() + seq.size(), n);
  if (ec != std::errc() || end != seq.data() + seq.size()) {
    throw BadReply("trace seq " + std::string(seq));
  }
  return n;
}

// A run's rows from the reply of load_run (or the tail of fetch's): {rows,
// token}, the rows hash as a field/value list (h:<run id> header, i:<run id>
// inputs, s:<run id>#<index> step, t:<seq> trace) and the lease token.
Status read_stored_run(const std::string& root_id, const redisReply& r, StoredRun& out) {
  std::vector<RunHeaderRow> headers;
  std::vector<RunInputsRow> inputs;
  std::vector<StepRow> steps;
  std::vector<TraceRow> trace;
  Status decoded;
  for_each_field(element(r, 0), [&](std::string field, std::string value) {
    const std::string_view name = std::string_view(field).substr(2);
    const std::string_view kind = std::string_view(field).substr(0, 2);
    if (kind == "h:") {
      RunHeaderRow h;
      Status d = decode_header("run header " + std::string(name), value, h);
      if (d.ok()) {
        headers.push_back(std::move(h));
      } else if (decoded.ok()) {
        decoded = d;
      }
    } else if (kind == "i:") {
      inputs.push_back({std::string(name), std::move(value)});
    } else if (kind == "s:") {
      StepRow row;
      parse_step_field(name, row.run_id, row.index);
      row.body = std::move(value);
      steps.push_back(std::move(row));
    } else if (kind == "t:") {
      trace.push_back({root_id, parse_seq(name), std::move(value)});
    } else {
      throw BadReply("field '" + field + "' of run " + root_id);
    }
  });
  if (!decoded.ok()) return decoded;
  auto root = std::find_if(headers.begin(), headers.end(),
                           [&](const RunHeaderRow& h) { return h.id == root_id; });
  if (root == headers.end() || !root->parent_id.empty()) {
    return Status::NotFound("run " + root_id + " not found");
  }
  // The root first, then its descendants by id; inputs and steps in that order.
  std::iter_swap(headers.begin(), root);
  std::sort(headers.begin() + 1, headers.end(),
            [](const RunHeaderRow& a, const RunHeaderRow& b) { return a.id < b.id; });
  std::map<std::string, std::size_t, std::less<>> position;
  for (std::size_t i = 0; i < headers.size(); ++i) position[headers[i].id] = i;
  const auto known = [&](const std::string& run_id) { return position.count(run_id) > 0; };
  std::erase_if(inputs, [&](const RunInputsRow& row) { return !known(row.run_id); });
  std::erase_if(steps, [&](const StepRow& row) { return !known(row.run_id); });
  std::sort(inputs.begin(), inputs.end(), [&](const RunInputsRow& a, const RunInputsRow& b) {
    return position[a.run_id] < position[b.run_id];
  });
  std::sort(steps.begin(), steps.end(), [&](const StepRow& a, const StepRow& b) {
    return std::make_pair(position[a.run_id], a.index) <
           std::make_pair(position[b.run_id], b.index);
  });
  std::sort(trace.begin(), trace.end(),
            [](const TraceRow& a, const TraceRow& b) { return a.seq < b.seq; });

  out.headers = std::move(headers);
  out.inputs = std::move(inputs);
  out.steps = std::move(steps);
  out.trace = std::move(trace);
  out.fencing_token = static_cast<std::uint64_t>(integer(element(r, 1)));
  return Status::Ok();
}

}  // namespace

RedisBackend::RedisBackend(redis::RedisOptions options) : client_(std::move(options)) {}

Status RedisBackend::open(const redis::RedisOptions& options, std::unique_ptr<Backend>& out) {
  std::unique_ptr<RedisBackend> backend(new RedisBackend(options));
  Status s = backend->client_.start();
  std::int64_t version = 0;
  if (s.ok()) {
    s = backend->run(
        ScriptId::kInit,
        {std::to_string(redis::kLayoutVersion), std::to_string(redis::kOldestUpgradableLayout)},
        [&](const redisReply& r) {
          version = integer(r);
          return Status::Ok();
        });
  }
  if (s.ok() && version != redis::kLayoutVersion) {
    s = Status::Unavailable(options.masked_url + ": keys under prefix '" + options.prefix +
                            "' have layout version " + std::to_string(version) + ", " +
                            (version > redis::kLayoutVersion ? "newer than" : "older than") +
                            " the one this build reads (" + std::to_string(redis::kLayoutVersion) +
                            "); no migration between them exists yet: finish or drain those runs "
                            "with the build that wrote them, or use another prefix");
  }
  // Every message above starts with the masked URL.
  if (!s.ok()) return Status::Unavailable("cannot open " + s.message());
  out = std::move(backend);
  return Status::Ok();
}

std::string RedisBackend::describe() const { return client_.options().masked_url; }

std::uint64_t RedisBackend::round_trips() const { return client_.round_trips(); }

template <typename Read>
Status RedisBackend::run(ScriptId script, std::vector<std::string> args, Read&& read) {
  args.insert(args.begin(), client_.options().prefix);
  Reply reply;
  if (Status s = client_.eval(script, std::move(args), reply); !s.ok()) return s;
  return read_reply(script, *reply, std::forward<Read>(read));
}

template <typename Read>
Status RedisBackend::read_reply(ScriptId script, const redisReply& reply, Read&& read) {
  try {
    return read(reply);
  } catch (const std::exception& e) {  // BadReply, or a job kind this build cannot read
    return Status::Internal(client_.options().masked_url + ": script " +
                            redis::script_name(script) + ": unexpected reply: " + e.what());
  }
}

namespace {

// The commit script's arguments (after the prefix), docs in scripts/commit.lua.
std::vector<std::string> commit_args(const CommitRequest& c) {
  // Enqueueing is the one write that is not idempotent. A commit that
  // enqueues carries a nonce, so resending it after a lost connection cannot
  // enqueue its jobs twice.
  const std::string nonce = c.enqueue.empty() ? "" : new_run_id();
  std::vector<std::string> args = {nonce,
                                   c.root_id,
                                   std::to_string(c.fencing_token),
                                   c.release_lease ? "1" : "0",
                                   c.lease_owner,
                                   c.ack_job ? std::to_string(*c.ack_job) : "",
                                   c.ack_owner};
  // + 5 row counts, the prefix that run() puts first, and room for a fetch's
  args.reserve(args.size() + 16 + 9 * c.headers.size() + 2 * c.inputs.size() + 3 * c.steps.size() +
               3 * c.trace.size() + 6 * c.enqueue.size());
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
  for (const auto& j : c.enqueue) {
    args.insert(args.end(), {j.queue, to_string(j.kind), j.run_id, j.reactor,
                             std::to_string(j.run_at_ms), std::to_string(j.snoozes)});
  }
  return args;
}

// Runs started together (one or in bulk): unfenced, each a root with its
// header, its inputs and its one start job, in that order, and nothing else.
// The create_runs script takes this shape.
bool is_create_commit(const CommitRequest& c) {
  if (c.fencing_token != 0 || c.headers.empty() || c.inputs.size() != c.headers.size() ||
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
// jobs). The step_commit and finish_commit scripts take the two shapes of it
// that almost every commit has.
constexpr std::size_t kMaxOwnRootRows = 200;  // one HSET, whose unpack() the Lua stack bounds

bool writes_only_its_root(const CommitRequest& c) {
  if (c.fencing_token == 0 || !c.inputs.empty() || !c.enqueue.empty() || c.headers.size() != 1 ||
      c.steps.size() > kMaxOwnRootRows) {
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

// The fetch script's arguments (after the prefix).
void append_fetch_args(const FetchRequest& f, std::vector<std::string>& args) {
  args.push_back(f.owner);
  args.push_back(std::to_string(storage::to_ms(f.visibility)));
  args.push_back(std::to_string(storage::to_ms(f.run_lease_ttl)));
  args.emplace_back(to_string(RunStatus::kEnqueued));
  args.emplace_back(to_string(RunStatus::kRunning));
  args.insert(args.end(), f.queues.begin(), f.queues.end());
}

Status fenced_out(const CommitRequest& c) {
  return Status::LeaseLost("run " + c.root_id + ": fencing token " +
                           std::to_string(c.fencing_token) + " is no longer the newest");
}

}  // namespace

Status RedisBackend::commit(const CommitRequest& c) {
  if (Status s = storage::check_commit(c); !s.ok()) return s;
  const auto applied = [&](const redisReply& r) {
    return integer(r) == 1 ? Status::Ok() : fenced_out(c);
  };
  const ScriptId script = commit_script(c);
  return run(script, commit_script_args(script, c), applied);
}

Status RedisBackend::commit_then_fetch(const CommitRequest& c, const FetchRequest& f,
                                       std::optional<Delivery>& next) {
  next.reset();
  if (Status s = storage::check_commit(c); !s.ok()) return s;
  if (f.owner.empty() || f.queues.empty()) return commit(c);
  // Only the finish shape has a script that also fetches; the others go the general way.
  const bool finishes = commit_script(c) == ScriptId::kFinishCommit;
  const ScriptId script = finishes ? ScriptId::kFinishCommitThenFetch : ScriptId::kCommitThenFetch;
  std::vector<std::string> args = finishes ? finish_commit_args(c) : commit_args(c);
  args.insert(args.begin(), std::to_string(args.size()));
  append_fetch_args(f, args);
  const auto asked_at = std::chrono::steady_clock::now();
  return run(script, std::move(args), [&](const redisReply& r) {
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
}

Status RedisBackend::load_run(const std::string& root_id, StoredRun& out) {
  out = StoredRun{};
  StoredRun run_rows;
  Status s = run(ScriptId::kLoadRun, {root_id},
                 [&](const redisReply& r) { return read_stored_run(root_id, r, run_rows); });
  if (s.ok()) out = std::move(run_rows);
  return s;
}

Status RedisBackend::load_header(const std::string& run_id, RunHeaderRow& out) {
  return run(ScriptId::kLoadHeader, {run_id}, [&](const redisReply& r) {
    if (r.type == REDIS_REPLY_NIL) return Status::NotFound("run " + run_id + " not found");
    return decode_header("run header " + run_id, text(r), out);
  });
}

Status RedisBackend::list_runs(const RunFilter& filter, std::vector<RunHeaderRow>& out) {
  out.clear();
  std::vector<std::string> args = {filter.status ? to_string(*filter.status) : "",
                                   filter.reactor ? *filter.reactor : "", count_arg(filter.limit)};
  // Without a status, the script reads the index of every status.
  if (!filter.status) {
    for (RunStatus status : all_run_statuses()) args.push_back(to_string(status));
  }
  std::vector<RunHeaderRow> rows;
  Status s =
      run(ScriptId::kListRuns, args, [&](const redisReply& r) { return decode_headers(r, rows); });
  if (s.ok()) out = std::move(rows);
  return s;
}

Status RedisBackend::fetch(const FetchRequest& f, std::optional<Delivery>& out) {
  out.reset();
  if (f.owner.empty()) return Status::InvalidArgument("fetch: owner must not be empty");
  if (f.queues.empty()) return Status::Ok();
  std::vector<std::string> args;
  append_fetch_args(f, args);
  const auto asked_at = std::chrono::steady_clock::now();
  return run(ScriptId::kFetch, std::move(args),
             [&](const redisReply& r) { return read_fetch_reply(r, f, asked_at, out); });
}

Status RedisBackend::read_fetch_reply(const redisReply& r, const FetchRequest& f,
                                      std::chrono::steady_clock::time_point asked_at,
                                      std::optional<Delivery>& out) {
  const std::string outcome = text(element(r, 0));
  if (outcome == "idle") {
    const std::string next_due = text(element(r, 2));
    std::lock_guard lock(next_due_mu_);
    if (next_due.empty()) {
      next_due_.erase(queue_set(f.queues));
    } else {
      // Server time to local steady time, so the workers' clocks never matter.
      const auto in = std::chrono::milliseconds(integer(element(r, 2)) - integer(element(r, 1)));
      next_due_[queue_set(f.queues)] = asked_at + in;
    }
    return Status::Ok();
  }
  if (outcome == "unreadable") {
    return Status::Corruption("job " + text(element(r, 1)) + ": unknown job kind '" +
                              text(element(r, 2)) + "'");
  }
  if (outcome != "job") throw BadReply("unknown fetch outcome '" + outcome + "'");
  Delivery d;
  d.job.id = integer(element(r, 1));
  d.job.spec.queue = text(element(r, 2));
  d.job.spec.kind = job_kind_from_string(text(element(r, 3)));
  d.job.spec.run_id = text(element(r, 4));
  d.job.spec.reactor = text(element(r, 5));
  d.job.spec.run_at_ms = integer(element(r, 6));
  d.job.spec.snoozes = static_cast<int>(integer(element(r, 7)));
  d.job.deliveries = static_cast<int>(integer(element(r, 8)));
  d.job.lease_owner = f.owner;
  d.job.lease_expires_ms = integer(element(r, 9));
  d.run_leased = text(element(r, 10)) == "1";
  d.run_lease.key = run_lease_key(d.job.spec.run_id);
  d.run_lease.owner = text(element(r, 11));
  d.run_lease.token = static_cast<std::uint64_t>(integer(element(r, 12)));
  d.run_lease.expires_at_ms = integer(element(r, 13));
  if (d.run_leased && r.elements > 14) {
    // The run, read by the same script; if it is missing or unreadable the
    // worker loads it again and meets that itself.
    StoredRun rows;
    try {
      if (read_stored_run(d.job.spec.run_id, element(r, 14), rows).ok()) d.run = std::move(rows);
    } catch (const std::exception&) {
    }
    d.run_started = r.elements > 15 && text(element(r, 15)) == "1";
  }
  out = std::move(d);
  return Status::Ok();
}

std::chrono::milliseconds RedisBackend::wait_limit(const std::vector<std::string>& queues,
                                                   Duration max_wait) {
  auto wait = std::chrono::ceil<std::chrono::milliseconds>(max_wait);
  std::lock_guard lock(next_due_mu_);
  if (auto it = next_due_.find(queue_set(queues)); it != next_due_.end()) {
    const auto until_due =
        std::chrono::ceil<std::chrono::milliseconds>(it->second - std::chrono::steady_clock::now());
    wait = std::min(wait, until_due);
  }
  return wait;
}

redis::Command RedisBackend::blpop(const std::vector<std::string>& queues,
                                   std::chrono::milliseconds wait) const {
  redis::Command cmd{"BLPOP"};
  for (const auto& q : queues) cmd.push_back(wake_key(client_.options().prefix, q));
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.3f", static_cast<double>(wait.count()) / 1000.0);
  cmd.emplace_back(seconds);
  return cmd;
}

Status RedisBackend::wait_for_jobs(const std::vector<std::string>& queues, Duration max_wait) {
  if (queues.empty()) return Backend::wait_for_jobs(queues, max_wait);
  const auto wait = wait_limit(queues, max_wait);
  if (wait.count() <= 0)
    return Status::Ok();  // something is due already; BLPOP 0 would block forever
  Reply reply;
  return client_.command(blpop(queues, wait), reply, wait);
}

Status RedisBackend::wait_then_fetch(const FetchRequest& f, Duration max_wait,
                                     std::optional<Delivery>& out) {
  out.reset();
  if (f.queues.empty() || f.owner.empty()) return Backend::wait_then_fetch(f, max_wait, out);
  const auto wait = wait_limit(f.queues, max_wait);
  if (wait.count() <= 0) return fetch(f, out);
  std::vector<std::string> args = {client_.options().prefix};
  append_fetch_args(f, args);
  Reply reply;
  // Stamped before the wait: a next_due the fetch reports is then read as a
  // little earlier than it is, never later.
  const auto asked_at = std::chrono::steady_clock::now();
  Status s = client_.command_then_eval(blpop(f.queues, wait), ScriptId::kFetch, std::move(args),
                                       reply, wait);
  if (!s.ok()) return s;
  return read_reply(ScriptId::kFetch, *reply,
                    [&](const redisReply& r) { return read_fetch_reply(r, f, asked_at, out); });
}

Status RedisBackend::release_job(std::int64_t job_id, const std::string& owner, Duration delay) {
  if (owner.empty()) return Status::Ok();
  return run(ScriptId::kReleaseJob,
             {std::to_string(job_id), owner, std::to_string(storage::to_ms(delay))},
             [](const redisReply&) { return Status::Ok(); });
}

Status RedisBackend::has_job(const std::string& run_id, bool& out) {
  Reply reply;
  if (Status s = client_.command({"EXISTS", run_jobs_key(client_.options().prefix, run_id)}, reply);
      !s.ok()) {
    return s;
  }
  out = reply->type == REDIS_REPLY_INTEGER && reply->integer > 0;
  return Status::Ok();
}

Status RedisBackend::acquire_lease(const std::string& key, const std::string& owner, Duration ttl,
                                   bool& granted, Lease& out) {
  if (key.empty() || owner.empty()) {
    return Status::InvalidArgument("acquire_lease: key and owner must not be empty");
  }
  return run(ScriptId::kAcquireLease, {key, owner, std::to_string(storage::to_ms(ttl))},
             [&](const redisReply& r) {
               granted = integer(element(r, 0)) == 1;
               out = Lease{key, text(element(r, 1)),
                           static_cast<std::uint64_t>(integer(element(r, 2))),
                           integer(element(r, 3))};
               return Status::Ok();
             });
}

Status RedisBackend::extend_lease(const std::string& key, const std::string& owner,
                                  std::uint64_t token, Duration ttl) {
  return run(ScriptId::kExtendLease,
             {key, owner, std::to_string(token), std::to_string(storage::to_ms(ttl))},
             [&](const redisReply& r) {
               if (integer(r) == 1) return Status::Ok();
               return Status::LeaseLost("lease " + key + " is no longer held by " + owner +
                                        " (token " + std::to_string(token) + ")");
             });
}

Status RedisBackend::release_lease(const std::string& key, const std::string& owner,
                                   std::uint64_t token) {
  return run(ScriptId::kReleaseLease, {key, owner, std::to_string(token)},
             [](const redisReply&) { return Status::Ok(); });
}

Status RedisBackend::find_orphans(std::size_t limit, std::vector<RunHeaderRow>& out) {
  out.clear();
  std::vector<RunHeaderRow> rows;
  Status s = run(ScriptId::kFindOrphans,
                 {count_arg(limit), to_string(RunStatus::kRunning),
                  to_string(RunStatus::kRollingBack), to_string(RunStatus::kEnqueued),
                  to_string(RunStatus::kWaiting)},
                 [&](const redisReply& r) { return decode_headers(r, rows); });
  if (s.ok()) out = std::move(rows);
  return s;
}

Status RedisBackend::purge_expired(std::size_t limit, std::size_t& purged) {
  purged = 0;
  return run(ScriptId::kPurgeExpired, {count_arg(limit)}, [&](const redisReply& r) {
    purged = static_cast<std::size_t>(integer(r));
    return Status::Ok();
  });
}

}  // namespace reactor
