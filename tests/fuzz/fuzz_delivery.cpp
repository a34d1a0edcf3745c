// The fuzz target `delivery` (tests/fuzz/README.md): one whole delivery of a fan-out map's owner
// on the memory backend, over a slot its element left. Byte 0 picks the slot's state (bits 0-1,
// as slot_body) and the map (bit 2 set: atomic(false)); the rest is the slot's body. The owner
// must end, failed as a corrupt record when its reader refuses the slot, and otherwise only when
// the slot is failed (its error may name any kind, the owner's then too). It runs the whole
// engine, so it is in the replay only (REACTOR_FUZZ_ENGINE_TARGETS; CMakeLists.txt).
#include <exception>
#include <memory>
#include <optional>
#include <string>

#include "durability/delivery.hpp"
#include "engine/engine_access.hpp"
#include "fuzz_targets.hpp"
#include "reactor/reactor.hpp"

namespace reactor::fuzz {

namespace {

// The owner, a fan_out(1) map of one element, atomic or not; the element never runs (the
// target files its slot).
Definition delivery_element() {
  return Builder("FuzzOwner.element")
      .input("x", integer())
      .step("echo", [](const Args& a) -> StepResult { return Success(a["x"]); })
      .argument("x", input("x"))
      .returns("echo")
      .build();
}

Definition delivery_owner(bool atomic) {
  return Builder("FuzzOwner")
      .input("items", array())
      .map("m", delivery_element())
      .source(input("items"))
      .argument("x", element("m"))
      .fan_out(1)
      .atomic(atomic)
      .returns("m")
      .build();
}

// Deliveries of one input at most: the owner's resume and whatever it leads to take a few.
constexpr int kMaxDeliveries = 50;

// The element's last commit, as settle_of and the delivery write it, with `slot` for its slot:
// fenced by the element's lease (taken by fetching its start job, so it never runs), its header
// filed terminal, its job acknowledged.
void settle_element(DurableEnv& env, const std::string& queue, const std::string& element_id,
                    const MapSlotRow& slot) {
  const std::string owner = "fuzz-element";
  Result<std::optional<Delivery>> fetched = env.backend.fetch(
      {{queue}, owner, env.options.lease_ttl, env.options.lease_ttl, env.worker_id});
  Status s = fetched.status();
  std::optional<Delivery> d = std::move(fetched).value_or(std::nullopt);
  if (!s.ok() || !d || d->job.spec.run_id != element_id || !d->run_leased) {
    finding("the element's start job is not the one due", s.to_string());
  }
  Result<RunHeaderRow> loaded = env.backend.load_header(element_id);
  if (!loaded.ok()) finding("load_header", loaded.status().message());
  RunHeaderRow header = std::move(loaded).value_or(RunHeaderRow{});
  header.status = slot.state == SlotState::kFailed   ? RunStatus::kFailed
                  : slot.state == SlotState::kHalted ? RunStatus::kHalted
                                                     : RunStatus::kCompleted;
  header.updated_at_ms = env.now_ms();
  CommitRequest c;
  c.root_id = element_id;
  c.fencing_token = d->run_lease.token;
  c.headers.push_back(std::move(header));
  c.ack_job = d->job.id;
  c.ack_owner = owner;
  c.release_lease = true;
  c.lease_owner = owner;
  c.settle = MapSettle{slot};
  if (s = env.backend.commit(c); !s.ok()) finding("the element's last commit", s.to_string());
}

// Delivers the jobs due on `queue` as inline jobs do (drain_inline), one by one, at most
// kMaxDeliveries of them: more is a loop.
void deliver_due(DurableEnv& env, const std::string& queue) {
  for (int n = 0;; ++n) {
    if (n == kMaxDeliveries) finding("jobs keep coming due", std::to_string(n) + " deliveries");
    const std::string owner = "fuzz-worker-" + std::to_string(n);
    DeliveryOptions o;
    o.asked_at = env.clock.now();
    o.yield_on_retry_wait = false;
    Result<std::optional<Delivery>> fetched = env.backend.fetch(
        {{queue}, owner, env.options.lease_ttl, env.options.lease_ttl, env.worker_id});
    if (!fetched.ok()) finding("fetch", fetched.status().to_string());
    std::optional<Delivery> d = std::move(fetched).value_or(std::nullopt);
    if (!d) return;
    (void)process_delivery(env, *d, owner, o);
  }
}

void delivery(std::string_view input) {
  const std::uint8_t mode = input.empty() ? 0 : static_cast<unsigned char>(input[0]);
  const bool atomic = (mode & 4) == 0;
  auto clock = std::make_shared<ManualClock>();
  std::unique_ptr<Backend> memory;
  if (Result<std::unique_ptr<Backend>> opened = open_backend("memory:", clock); opened.ok()) {
    memory = std::move(opened).value();
  } else {
    finding("memory:", opened.status().message());
  }
  EngineOptions options;
  options.clock = clock;
  options.backend = std::move(memory);
  options.random_seed = 1;
  Engine engine(std::move(options));
  engine.registry().add(delivery_owner(atomic));
  DurableEnv& env = *EngineAccess::durable_env(engine);
  const std::string queue = env.queue_for("FuzzOwner");

  // The owner runs up to its map, dispatches element 0 and waits.
  const RunResult started = engine.run("FuzzOwner", {{"items", Value::array({1})}});
  if (started.status != RunStatus::kWaiting) finding("the owner does not wait on its map");
  const std::string map_id = started.run_id + ":m";
  const MapSlotRow slot = slot_input(input, map_id);
  settle_element(env, queue, element_run_id(map_id, 0), slot);

  try {
    deliver_due(env, queue);
  } catch (const std::exception& e) {
    finding("an exception escaped a delivery", e.what());
  }
  RunResult r;
  if (Result<RunResult> found = engine.find(started.run_id); found.ok()) {
    r = std::move(found).value();
  } else {
    finding("find", found.status().message());
  }
  const bool has_job = engine.backend()->has_job(started.run_id).value_or(false);
  if (!is_terminal(r.status)) {
    finding("the owner did not end", to_string(r.status) + std::string(has_job ? "" : ", no job"));
  }
  // A slot its reader refuses fails the owner as a corrupt record, and only such a slot does
  // (a failed element's error may name any kind, the owner's then too).
  const bool corrupt =
      r.status == RunStatus::kFailed && r.error && r.error->kind == ErrorKind::kCorruptRecord;
  const bool unreadable = slot_unreadable(slot);
  if (unreadable != corrupt && !(corrupt && slot.state == SlotState::kFailed)) {
    finding(unreadable ? "an unreadable slot did not fail its owner as corrupt"
                       : "a readable slot failed its owner as corrupt",
            to_string(r.status) + std::string(r.error ? ": " + r.error->message : ""));
  }
}

const Target kEngineTargets[] = {
    {"delivery", delivery},
};

}  // namespace

const Target* find_engine_target(std::string_view name) {
  for (const Target& t : kEngineTargets) {
    if (name == t.name) return &t;
  }
  return nullptr;
}

}  // namespace reactor::fuzz
