#include "durability/durable_fan_out.hpp"

#include <algorithm>
#include <iterator>

#include "base/run_errors.hpp"
#include "base/run_machine.hpp"
#include "durability/claims.hpp"
#include "durability/durable_port.hpp"
#include "reactor/limits.hpp"
#include "reactor/trace_context.hpp"
#include "records/codec.hpp"
#include "records/run_rows.hpp"
#include "records/run_shape.hpp"

namespace reactor {

namespace {

// Element runs created per commit: one commit stays short for the other writers of the store.
constexpr std::uint32_t kElementsPerCommit = 256;
// Slots read per request while looking for the elements to cancel.
constexpr std::uint32_t kSlotPage = 256;

// The executions of `run`'s steps (its composed children's too) lost with their workers.
std::uint32_t lost_executions(const Run& run) {
  std::uint32_t n = 0;
  for (const StepRecord& step : run.steps) {
    n += static_cast<std::uint32_t>(std::max(step.interrupted, 0));
    for (const Run& child : step.children) n += lost_executions(child);
  }
  return n;
}

}  // namespace

// A claim's run that ended without running its elements (unreadable, unknown reactor, a crash
// loop): each of its slots failed with its run's error, so that its map settles all the same.
std::optional<MapSettle> claim_failed(const Run& run, std::uint32_t lost_deliveries) {
  std::optional<ClaimOf> of = parse_claim_run_id(run.id);
  if (!of || !is_terminal(run.status)) return std::nullopt;
  std::vector<MapSlotRow> slots =
      claim_slots(*of, SlotState::kFailed,
                  records::encode_value(run.error ? Value(*run.error) : Value(RunError{})));
  count_lost_deliveries(slots, lost_deliveries);
  return MapSettle{std::move(slots)};
}

std::optional<MapSettle> settle_of(const Run& run, std::uint32_t lost_deliveries) {
  if (!run.element_of) return claim_failed(run, lost_deliveries);
  if (!is_terminal(run.status)) return std::nullopt;
  MapSlotRow slot;
  slot.map_id = run.element_of->map_id;
  slot.index = run.element_of->index;
  switch (run.status) {
    case RunStatus::kFailed:
    case RunStatus::kQuarantined:
      slot.state = SlotState::kFailed;
      slot.body = records::encode_value(run.error ? Value(*run.error) : Value(RunError{}));
      break;
    case RunStatus::kHalted:
      slot.state = SlotState::kHalted;
      slot.body = records::encode_value(run.value);
      break;
    default:
      slot.state = SlotState::kCompleted;
      slot.body = records::encode_value(run.value);
  }
  slot.interrupted = lost_executions(run);
  return MapSettle{std::move(slot)};
}

DurableFanOut::DurableFanOut(DurableEnv& env, const Writer& owner, const Run& root)
    : env_(env),
      owner_(owner),
      owner_id_(root.id),
      owner_reactor_(root.reactor),
      unit_wait_{std::nullopt, env.options.async_park_timeout} {}

FanOut::UnitWait DurableFanOut::unit_wait() const {
  std::call_once(unit_wait_decided_, [this] {
    if (decide_unit_wait_) unit_wait_ = decide_unit_wait_();
  });
  return unit_wait_;
}

Run DurableFanOut::element_run(const Map& map, std::uint32_t index, Value inputs) const {
  Run e;
  e.id = element_run_id(map.map_id, index);
  e.root_id = e.id;
  e.parent_id = map.parent->id;
  e.path = map.path + "[" + std::to_string(index) + "]";
  e.element_of = ElementOf{map.map_id, index};
  // In the trace of the run that owns the map, its span a child of that run's span.
  e.trace_parent =
      child_trace_parent(map.parent->trace_parent, e.element_of->origin(), map.parent->path);
  e.reactor = map.element->name;
  e.fingerprint = map.element->fingerprint;
  e.inputs = std::move(inputs);
  e.steps.resize(map.element->steps.size());
  for (std::size_t i = 0; i < e.steps.size(); ++i) e.steps[i].name = map.element->steps[i].name;
  e.created_at_ms = e.updated_at_ms = env_.now_ms();
  return e;
}

// Appends the runs carrying `inputs`, the elements from `total` on, to `c` (each an element, or a
// claim of map.claim), and those of elements [0, batch_size) to `window`.
void DurableFanOut::add_runs(const Map& map, std::vector<Value> inputs, std::uint32_t& total,
                             std::vector<Run>& window, std::uint32_t& released,
                             CommitRequest& c) const {
  const std::size_t claim = std::max<std::uint32_t>(map.claim, 1);
  for (std::size_t k = 0; k < inputs.size(); k += claim) {
    const std::uint32_t first = total;
    const std::size_t n = std::min(claim, inputs.size() - k);
    total += static_cast<std::uint32_t>(n);
    Run e = claim == 1 ? element_run(map, first, std::move(inputs[k]))
                       : claim_run(map, first,
                                   {std::make_move_iterator(inputs.begin() + k),
                                    std::make_move_iterator(inputs.begin() + k + n)},
                                   env_.now_ms());
    records::encode_created(e, /*expires_at_ms=*/0, c);  // it lives as long as its owner
    if (first < map.batch_size) {
      window.push_back(std::move(e));
      released = total;
    }
  }
}

// Persist before enqueue: every element run exists before any job names it, and the commit that
// writes the map's record releases its first batch_size. Until then nothing but this execution
// touches them, so an owner taken over mid-way writes them again (same ids, same inputs).
Status DurableFanOut::dispatch(const Map& map, std::uint32_t& total) {
  total = 0;
  Result<MapRow> stored = map.fresh ? Status::NotFound("") : env_.backend.load_map(map.map_id);
  Status s = stored.status();
  if (s.ok()) {
    total = stored->total;
    return s;
  }
  if (s.code() != StatusCode::kNotFound) return s;
  // Each run is an element, or a claim of `claim` elements; a commit creates whole claims.
  const std::uint32_t claim = std::max<std::uint32_t>(map.claim, 1);
  const std::uint32_t per_commit = claim * std::max<std::uint32_t>(kElementsPerCommit / claim, 1);
  std::vector<Run> window;     // the runs of elements [0, batch_size), released by the last commit
  std::uint32_t released = 0;  // the elements they carry
  CommitRequest c = owner_.fenced();
  for (bool last = false; !last;) {
    std::vector<Value> inputs;
    if (s = map.inputs(total, per_commit, inputs); !s.ok()) return s;
    last = inputs.size() < per_commit;
    if (total + inputs.size() > kMaxMapElements) {
      return Status::InvalidArgument("map '" + map.path + "' has more than " +
                                     std::to_string(kMaxMapElements) + " elements");
    }
    add_runs(map, std::move(inputs), total, window, released, c);
    if (last || total == 0) break;
    if (s = env_.backend.commit(c); !s.ok()) return s;
    c = owner_.fenced();
  }
  if (total == 0) return Status::Ok();
  const std::int64_t now = env_.now_ms();
  const std::string queue = env_.queue_for(owner_reactor_);
  for (Run& e : window) {
    advance(e, RunEvent::kEnqueue);
    auto written = std::find_if(c.headers.begin(), c.headers.end(),
                                [&](const RunHeaderRow& h) { return h.id == e.id; });
    if (written != c.headers.end()) {
      written->status = RunStatus::kEnqueued;
    } else {
      c.headers.push_back(records::encode_header(e, 0));
    }
    c.enqueue.push_back(JobSpec{queue, JobKind::kStart, e.id, e.reactor, now, 0});
  }
  MapRow row;
  row.map_id = map.map_id;
  row.owner_id = owner_id_;
  row.owner_reactor = owner_reactor_;
  row.queue = queue;
  row.element_reactor = map.element->name;
  row.total = total;
  row.batch_size = map.batch_size;
  row.atomic = map.atomic;
  row.claim = claim;
  row.released = released;
  c.maps.push_back(std::move(row));
  return env_.backend.commit(c);
}

Status DurableFanOut::wait_for_settle(const std::string& map_id, Duration max_wait, bool& settled) {
  Result<bool> waited = env_.backend.wait_for_settle(map_id, max_wait);
  if (!waited.ok()) return waited.status();
  settled = *waited;
  return Status::Ok();
}

Status DurableFanOut::state(const std::string& map_id, MapRow& out) {
  Result<MapRow> row = env_.backend.load_map(map_id);
  if (!row.ok()) return row.status();
  out = std::move(row).value();
  return Status::Ok();
}

Status DurableFanOut::slots(const std::string& map_id, std::uint32_t first, std::uint32_t limit,
                            std::vector<MapSlotRow>& out) {
  if (delivered_slot_ && delivered_slot_->map_id == map_id && delivered_slot_->index == first &&
      limit == 1) {
    out.assign(1, std::move(*delivered_slot_));
    delivered_slot_.reset();
    return Status::Ok();
  }
  Result<std::vector<MapSlotRow>> page = env_.backend.load_map_slots(map_id, first, limit);
  if (!page.ok()) return page.status();
  out = std::move(page).value();
  return Status::Ok();
}

// The element's lease, for the owner's rollback of it. The map settled, so a holder can only be
// an execution that lost its run and has not noticed: its lease lapses within lease_ttl.
Status DurableFanOut::take_element(const std::string& id, Lease& lease) {
  const TimePoint give_up = env_.clock.now() + env_.options.lease_ttl * 2;
  for (;;) {
    Result<LeaseGrant> grant = env_.backend.acquire_lease(
        run_lease_key(id), owner_.lease.owner + "/" + id, env_.options.lease_ttl);
    if (!grant.ok()) return grant.status();
    lease = std::move(grant->lease);
    if (grant->granted) return Status::Ok();
    if (env_.clock.now() >= give_up) {
      return Status::Unavailable("element run " + id + " stays held by " + lease.owner);
    }
    env_.clock.sleep_until(std::min(give_up, env_.clock.now() + std::chrono::milliseconds(100)));
  }
}

// Element run `id` as its definition reads it, for the owner to roll it back or cancel it.
Status DurableFanOut::load_element(const std::string& id, Run& run,
                                   std::optional<Definition>& def) {
  Result<StoredRun> stored = env_.backend.load_run(id);
  Status s = stored.status();
  if (s.ok()) s = records::decode_run(*stored, run);
  if (!s.ok()) return s;
  def = env_.registry.find(run.reactor);
  if (!def || def->fingerprint() != run.fingerprint) {
    return Status::Unavailable("element run " + id + " cannot be rolled back here: reactor '" +
                               run.reactor + "' is not registered as it ran");
  }
  records::name_steps(run, *def->data());
  if (auto why = records::run_shape_error(run, *def->data(), env_.options.max_value_bytes)) {
    return Status::Corruption(*why);
  }
  return Status::Ok();
}

// Rolls element `index` back as its own run would: its completed steps undone newest first, each
// committed under its lease, and the last commit files its slot undone.
Status DurableFanOut::roll_back(const MapRow& map, const MapSlotRow& slot,
                                std::vector<RollbackFailure>& failures,
                                std::vector<TraceEvent>& undone) {
  if (map.claim > 1) {
    return roll_back_claimed(
        env_, map, slot, failures, undone,
        [this](const std::string& id, Lease& l) { return take_element(id, l); });
  }
  const std::string& map_id = map.map_id;
  const std::uint32_t index = slot.index;
  const std::string id = element_run_id(map_id, index);
  Lease lease;
  if (Status s = take_element(id, lease); !s.ok()) return s;
  Writer w{env_, lease, std::nullopt, ""};
  Run run;
  std::optional<Definition> def;
  if (Status s = load_element(id, run, def); !s.ok()) {
    (void)env_.backend.release_lease(lease.key, lease.owner, lease.token);  // else it lapses
    return s;
  }
  auto entry = env_.keeper.keep(lease, env_.options.lease_ttl, env_.clock.now());
  const std::size_t traced = run.trace.size();
  DurablePort port(w, *entry, /*fan_out=*/nullptr);
  ExecuteOutcome out = env_.undo(run, *def, durable_options(env_.options, port, false), failures);
  env_.keeper.drop(entry);
  if (out.stopped()) return out.stop_reason;
  for (std::size_t k = traced; k < run.trace.size(); ++k) {
    if (run.trace[k].type == TraceType::kUndo) undone.push_back(run.trace[k]);
  }
  CommitRequest c = w.fenced();
  run.updated_at_ms = env_.now_ms();
  c.headers.push_back(records::encode_header(run, 0));
  c.settle =
      MapSettle{MapSlotRow{map_id, index, SlotState::kUndone, records::encode_value(run.value)}};
  w.finish_with(c);
  return env_.backend.commit(c);
}

bool any_step_executed(const Run& run) {
  if (run.status == RunStatus::kRollingBack || run.status == RunStatus::kWaiting) return true;
  for (const StepRecord& step : run.steps) {
    if (step.status != StepStatus::kPending || step.attempts > 0 || !step.children.empty()) {
      return true;
    }
  }
  return false;
}

// The candidates are the released elements without a slot, and the next one to release; each is
// filed under its own lease, so one a worker fetches meanwhile is either cancelled before it
// starts (the worker then finds it ended) or left to run.
Status DurableFanOut::cancel(const std::string& map_id) {
  MapRow map;
  Status s = state(map_id, map);
  if (!s.ok() || map.state == MapState::kSettled) return s;
  std::vector<std::uint32_t> unreported;
  for (std::uint32_t first = 0; s.ok() && first < map.released; first += kSlotPage) {
    std::vector<MapSlotRow> page;
    s = slots(map_id, first, std::min(kSlotPage, map.released - first), page);
    std::uint32_t next = first;
    for (const MapSlotRow& slot : page) {
      while (next < slot.index) unreported.push_back(next++);
      next = slot.index + 1;
    }
    while (next < std::min(first + kSlotPage, map.released)) unreported.push_back(next++);
  }
  if (map.state == MapState::kRunning && map.released < map.total) {
    unreported.push_back(map.released);
  }
  for (std::size_t k = 0; s.ok() && k < unreported.size(); ++k) {
    const std::uint32_t i = unreported[k];
    if (map.claim <= 1) {
      s = cancel_element(map_id, i);
    } else if (ClaimOf claim = claim_of(map, i);
               k == 0 || claim.first != claim_of(map, unreported[k - 1]).first) {
      s = cancel_claim(env_, owner_, map, claim);  // a claim reports whole
    }
  }
  return s;
}

// Files element `index` never run, if nobody holds it and none of its steps ran.
Status DurableFanOut::cancel_element(const std::string& map_id, std::uint32_t index) {
  const std::string id = element_run_id(map_id, index);
  Result<LeaseGrant> grant = env_.backend.acquire_lease(
      run_lease_key(id), owner_.lease.owner + "/" + id, env_.options.lease_ttl);
  if (!grant.ok()) return grant.status();
  if (!grant->granted) return Status::Ok();  // an execution holds it: it reports when it ends
  Lease lease = std::move(grant->lease);
  Writer w{env_, lease, std::nullopt, ""};
  Run run;
  std::optional<Definition> def;
  Status s = load_element(id, run, def);
  if (!s.ok() || is_terminal(run.status) || any_step_executed(run)) {
    (void)env_.backend.release_lease(lease.key, lease.owner, lease.token);  // else it lapses
    return s;
  }
  advance(run, RunEvent::kFailOutright);
  run.error = engine_error(ErrorKind::kOwnerEnded, run.reactor,
                           "its run " + owner_id_ + " was ending before it started: nothing ran");
  run.updated_at_ms = env_.now_ms();
  CommitRequest c = w.fenced();
  c.headers.push_back(records::encode_header(run, 0));
  c.settle = MapSettle{
      MapSlotRow{map_id, index, SlotState::kCancelled, records::encode_value(Value(*run.error))}};
  w.finish_with(c);
  return env_.backend.commit(c);
}

Status DurableFanOut::lost_executions(const std::string& map_id, std::uint32_t index,
                                      std::vector<TraceEvent>& lost) {
  Result<StoredRun> stored = env_.backend.load_run(element_run_id(map_id, index));
  Run run;
  Status s = stored.status();
  if (s.ok()) s = records::decode_run(*stored, run);
  for (const TraceEvent& e : run.trace) {
    if (e.type == TraceType::kInterrupted) lost.push_back(e);
  }
  return s;
}

}  // namespace reactor
