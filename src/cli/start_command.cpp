// `start`: one run of a registered reactor, its inputs inline, from a file or from stdin.
#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <optional>

#include "cli/command.hpp"
#include "cli/json_argument.hpp"
#include "cli/text.hpp"
#include "reactor/trace_context.hpp"
#include "records/codec.hpp"

namespace reactor::cli {

namespace {

struct StartOptions {
  std::string reactor;
  // Inline JSON, "@PATH" (a file) or "-" (stdin).
  std::string input = "{}";
  std::string input_file;  // --input-file PATH; exclusive with --input
  bool background = false;
  bool json = false;  // the run result as JSON; with --background {"id", "status"}
  // --id: the run's id (a business key makes the start idempotent); empty: a fresh UUID.
  std::string run_id;
  // --async-wait-timeout: DurabilityOptions::async_wait_timeout; unset: its default.
  std::optional<double> async_wait_timeout_s;
  // --wait: wait for async units even when no worker serves their queue
  // (DurabilityOptions::wait_without_workers).
  bool wait = false;
  // --at ISO8601 / --in 10m: a scheduled start (BackgroundOptions::start_at, delay); implies
  // --background.
  std::string at;
  std::string in;
  std::string traceparent;  // --traceparent: a W3C trace context the run continues
};

// What --at and --in ask for, as BackgroundOptions (both checked when the line was parsed).
BackgroundOptions background_options(const StartOptions& o) {
  BackgroundOptions b;
  b.run_id = o.run_id;
  b.traceparent = o.traceparent;
  if (!o.at.empty()) b.start_at = *parse_utc(o.at);
  if (!o.in.empty()) b.delay = *parse_delay(o.in);
  return b;
}

// The run reached its hand-off point or a fan-out map: the caller's part is done, and workers
// go on with it.
bool handed_to_workers(const RunResult& r) { return !is_terminal(r.status) && !r.error; }

void print_result(const RunResult& r, bool json) {
  if (json) {
    std::cout << to_json(r).dump(2) << "\n";
    return;
  }
  std::cout << "run " << (r.run_id.empty() ? "-" : r.run_id) << ": " << to_string(r.status) << "\n";
  if (r.ok()) std::cout << "value: " << r.value.dump() << "\n";
  if (!r.trace.empty()) std::cout << "trace: " << r.trace_summary() << "\n";
  if (handed_to_workers(r))
    std::cout << "it goes on in a worker: reactor show " << r.run_id << "\n";
}

// Unknown names and invalid inputs are the caller's mistake (2); a saga that
// ran and failed is an outcome (1).
int exit_code(const RunResult& r) {
  if (r.ok() || r.status == RunStatus::kHalted || handed_to_workers(r)) return 0;
  if (r.error &&
      (r.error->kind == ErrorKind::kUnknownReactor || r.error->kind == ErrorKind::kInputInvalid ||
       r.error->kind == ErrorKind::kRunIdConflict)) {
    return 2;
  }
  return 1;
}

// Before a synchronous start that would wait for its async units: says so when no worker serves
// their queue, so the run goes on in a worker rather than here (Engine::hands_off_unserved).
void say_if_nobody_serves(Engine& engine, const std::string& reactor, const std::string& who) {
  if (!engine.hands_off_unserved(reactor)) return;
  print_error(who, "no worker serves queue '" + engine.queue_for(reactor) +
                       "' now: the run goes on in a worker once one starts, rather than wait "
                       "here for its async units (--wait: wait for one here)");
}

// The inputs as given (a file, stdin or the line), decoded; nullopt, said why, when they cannot
// be read or are no JSON.
std::optional<Value> read_start_inputs(const StartOptions& o, const std::string& who) {
  return read_json_argument(o.input, o.input_file, "--input", "input", who);
}

// --background: the run stored with its job, for a worker; its id (or, --json, its status).
int start_in_background(Engine& engine, const StartOptions& o, Value inputs,
                        const std::string& who) {
  Result<std::string> started =
      engine.run_in_background(o.reactor, std::move(inputs), background_options(o));
  if (!started.ok()) {
    const Status& s = started.status();
    // InvalidArgument: the inputs (invalid, too large) or the id, refused before anything
    // was stored, as a synchronous start refuses them (input_invalid). AlreadyExists: the id
    // is another run's. Unavailable: the store's.
    if (s.code() == StatusCode::kInvalidArgument) {
      print_error(who, std::string(to_string(ErrorKind::kInputInvalid)) + ": " + s.message());
    } else if (s.code() == StatusCode::kAlreadyExists) {
      print_error(who, std::string(to_string(ErrorKind::kRunIdConflict)) + ": " + s.message());
    } else {
      print_error(who, s.to_string());
    }
    return s.code() == StatusCode::kUnavailable ? 1 : 2;
  }
  const std::string& id = *started;
  if (!o.json) {
    std::cout << id << "\n";
    return 0;
  }
  // As stored now: enqueued (scheduled), or for a start under the id of a run that exists, that
  // run's.
  Result<RunHeaderRow> header = engine.backend()->load_header(id);
  if (!header.ok()) {
    print_error(who, header.status().to_string());
    return 1;
  }
  std::cout << Value{{"id", id}, {"status", to_string(header->status)}}.dump() << "\n";
  return 0;
}

// The run executed here, as far as it goes here; its result.
int start_here(Engine& engine, const StartOptions& o, Value inputs, const std::string& who) {
  say_if_nobody_serves(engine, o.reactor, who);
  RunOptions run_options;
  run_options.run_id = o.run_id;
  run_options.traceparent = o.traceparent;
  RunResult r = engine.run(o.reactor, std::move(inputs), run_options);
  // A start refused before anything was stored (invalid inputs or id) has no run to show.
  const bool refused = r.error && r.error->kind == ErrorKind::kInputInvalid;
  if (!refused || o.json) print_result(r, o.json);
  if (r.error) print_error(who, std::string(to_string(r.error->kind)) + ": " + r.error->message);
  return exit_code(r);
}

int run_start(const Context& ctx, const StartOptions& o) {
  const std::string who = ctx.program + " start";
  // Before anything is read or opened: nothing is stored for a name nobody registered.
  if (!ctx.definitions.registry().find(o.reactor)) {
    print_error(who, "unknown_reactor: no reactor is registered as '" + o.reactor +
                         "' (registered: " + registered_closest_first(ctx, o.reactor) + ")");
    return 2;
  }
  std::optional<Value> inputs = read_start_inputs(o, who);
  if (!inputs) return 2;
  DurabilityOptions durability = ctx.options.engine.durability;
  if (o.async_wait_timeout_s) {
    durability.async_wait_timeout = std::chrono::duration_cast<Duration>(
        std::chrono::duration<double>(*o.async_wait_timeout_s));
  }
  durability.wait_without_workers = o.wait;
  auto engine = open_store(ctx, "start", StoreUse::kMayCreate, durability);
  if (!engine) return 2;
  if (o.background || !o.at.empty() || !o.in.empty()) {
    return start_in_background(*engine, o, std::move(*inputs), who);
  }
  return start_here(*engine, o, std::move(*inputs), who);
}

class StartCommand final : public Command {
 public:
  const char* name() const override { return "start"; }
  const char* description() const override { return "Start one run of a registered reactor"; }
  void declare(CLI::App& sub) override {
    StartOptions& o = options_;
    sub.add_option("reactor", o.reactor, "Registered reactor name")->required();
    auto* input = sub.add_option(
        "--input", o.input,
        "Inputs: a JSON object, @PATH (a file holding one) or - (read from stdin); default {}");
    sub.add_option("--input-file", o.input_file, "Inputs: a file holding a JSON object")
        ->excludes(input);
    sub.add_flag("--background", o.background,
                 "Persist the run with its job and print its id at once");
    sub.add_flag("--json", o.json,
                 "Print the run result as JSON (with --background: {\"id\", \"status\"})");
    sub.add_option("--id", o.run_id,
                   "The run's id, e.g. a business key: starting it again with the same inputs "
                   "gives the stored run, with others a run_id_conflict");
    sub.add_option("--async-wait-timeout", o.async_wait_timeout_s,
                   "Seconds a step reading an async unit waits for it here before it fails "
                   "(async_wait_timeout; default 30; 0: hand the run to the workers instead)")
        ->check(CLI::Range(0.0, 31536000.0));  // up to a year: a Duration holds it
    auto* at = sub.add_option("--at", o.at,
                              "Start the run at this time (ISO 8601, e.g. 2026-12-03T19:00:00Z): "
                              "stored scheduled, in the background")
                   ->check(CLI::Validator(
                       [](std::string& s) {
                         return parse_utc(s).ok() ? std::string()
                                                  : "'" + s +
                                                        "' is no ISO 8601 time (e.g. "
                                                        "2026-12-03T19:00:00Z)";
                       },
                       "ISO8601"));
    sub.add_option("--in", o.in,
                   "Start the run after this delay (90s, 10m, 2h, 1d): stored scheduled, in "
                   "the background")
        ->excludes(at)
        ->check(CLI::Validator(
            [](std::string& s) {
              return parse_delay(s) ? std::string()
                                    : "'" + s + "' is no delay (e.g. 90s, 10m, 2h, 1d)";
            },
            "DELAY"));
    sub.add_option("--traceparent", o.traceparent,
                   "Continue this W3C trace (00-<trace id>-<span id>-<flags>): the run's span "
                   "is its child, in every process that runs a part of it")
        ->check(CLI::Validator(
            [](std::string& s) {
              Result<TraceContext> c = parse_traceparent(s);
              return c.ok() ? std::string() : c.status().message();
            },
            "TRACEPARENT"));
    sub.add_flag("--wait", o.wait,
                 "Wait here for the run's async units even when no worker serves their queue "
                 "now (by default the run then goes on in a worker at once)");
  }
  int run(const Context& ctx) override { return run_start(ctx, options_); }

 private:
  StartOptions options_;
};

}  // namespace

std::unique_ptr<Command> start_command() { return std::make_unique<StartCommand>(); }

}  // namespace reactor::cli
