#include "saga/bench_saga.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

namespace reactor_bench {

using namespace reactor;

namespace {

int env_int(const char* name, int fallback, int min) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return fallback;
  char* end = nullptr;
  const long v = std::strtol(text, &end, 10);
  return (*end == '\0' && v >= min && v <= 1000000) ? static_cast<int>(v) : fallback;
}

std::string step_name(int k) { return "s" + std::to_string(k); }

// "S|<saga>|<k>|<pid>|<t_ms>" (or E): one line of the harness's execution log.
std::string exec_record(char kind, const Value& state, int k) {
  char line[160];
  std::snprintf(line, sizeof line, "%c|%s|%d|%d|%.3f", kind,
                state.at("saga").get_ref<const std::string&>().c_str(), k,
                static_cast<int>(::getpid()), bench_now_ms());
  return line;
}

// The body of step k of `steps`: checks that `state` is what step k-1
// stored, then returns it with the counter moved on; with a record, does the
// harness's writes in the order WORKLOADS.md gives.
StepResult advance(Value state, int k, int steps, int step_ms, BenchRecord* record) {
  const bool log = record != nullptr && record->instrumented();
  if (log) {
    if (auto why = record->command({"RPUSH", "bench:exec", exec_record('S', state, k)});
        !why.empty()) {
      return Failure(why, /*retryable=*/false);
    }
  }
  if (step_ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(step_ms));
  const auto counter = state.at("counter").get<std::int64_t>();
  if (counter != k - 1) {
    return Failure("saga " + state.at("saga").get<std::string>() + ": step " + std::to_string(k) +
                       " received counter " + std::to_string(counter) + ", expected " +
                       std::to_string(k - 1),
                   /*retryable=*/false);
  }
  state["counter"] = counter + 1;
  if (record != nullptr && k == steps) {
    const Value done = {{"saga", state.at("saga")},
                        {"counter", state.at("counter")},
                        {"t_enq", state.at("t_enq")},
                        {"t_done", bench_now_ms()}};
    if (auto why = record->command({"RPUSH", "bench:done", done.dump()}); !why.empty()) {
      return Failure(why, /*retryable=*/false);
    }
  }
  if (log) {
    if (auto why = record->command({"RPUSH", "bench:exec", exec_record('E', state, k)});
        !why.empty()) {
      return Failure(why, /*retryable=*/false);
    }
  }
  return Success(std::move(state));
}

// Milliseconds as the peer harness writes them ("5.0"), rounded to whole ms.
int env_ms(const char* name, int fallback) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return fallback;
  char* end = nullptr;
  const double v = std::strtod(text, &end);
  return (*end == '\0' && v >= 0 && v <= 1e6) ? static_cast<int>(v + 0.5) : fallback;
}

}  // namespace

BenchSagaOptions BenchSagaOptions::from_env() {
  BenchSagaOptions o;
  o.steps = env_int("BENCH_STEPS", o.steps, 1);
  o.step_ms = env_ms("BENCH_STEP_MS", o.step_ms);
  o.record = BenchRecord::from_env();
  return o;
}

std::string bench_saga_id(int index) {
  char id[16];
  std::snprintf(id, sizeof id, "s%06d", index);
  return id;
}

Value bench_saga_input(int index, double t_enq_ms, int pad_length) {
  return Value{{"saga", bench_saga_id(index)},
               {"counter", 0},
               {"t_enq", t_enq_ms},
               {"pad", std::string(static_cast<std::size_t>(pad_length), 'x')}};
}

Definition bench_saga(const BenchSagaOptions& options) {
  const int steps = options.steps < 1 ? 1 : options.steps;
  const int step_ms = options.step_ms;
  // Shared by every step of every run: one connection per process.
  std::shared_ptr<BenchRecord> record = options.record;
  Builder b(kBenchSagaName);
  b.input("saga", string())
      .input("counter", integer())
      .input("t_enq", number())
      .input("pad", string());
  // Step 1's state is the inputs themselves.
  b.step(step_name(1), [steps, step_ms, record](const Args& a) {
    return advance(a.to_json(), 1, steps, step_ms, record.get());
  });
  for (const char* field : {"saga", "counter", "t_enq", "pad"}) b.argument(field, input(field));
  for (int k = 2; k <= steps; ++k) {
    b.step(step_name(k), [k, steps, step_ms, record](const Args& a) {
      return advance(a["state"], k, steps, step_ms, record.get());
    });
    b.argument("state", result(step_name(k - 1)));
  }
  b.returns(step_name(steps));
  return b.build();
}

void register_bench_saga(Registry& registry, const BenchSagaOptions& options) {
  registry.add(bench_saga(options));
}

}  // namespace reactor_bench
