// coordination-cli: the probe reactors of the coordination process tests
// (tests/integration/coordination.sh, issue 25) on cli_main. Each has one step, body, which
// appends "enter <tag> <n> <run> <pid> <ms>" to the ledger ($REACTOR_LEDGER), sleeps the input
// `ms` (default 50), and appends the same line with "exit"; <n> is the input `n`, <ms> the Unix
// time in milliseconds. Each holds one thing at reactor level:
//   LockProbe       the lock "probe-lock"                 (tag lock)
//   SemaphoreProbe  a token of the semaphore "probe-sem", limit 2   (tag sem)
//   RateProbe       room in the rate limit "probe-rate", 5 per second   (tag rate)
//   PeriodProbe     the minute's period of PeriodProbe          (tag period)
//   OrderedProbe    its turn in the ordered lock "probe-chain"     (tag ordered)
// A command of its own (what the store holds is cli_main's `locks --json`):
//   start-many R N [--ms MS] [--every MS]
//                    starts N runs of reactor R in the background from this one process, in
//                    order, with n = 1..N and the body's ms (default 50), --every ms apart
//                    (default 0); prints "<run id> <n> <Unix ms of its start>" for each.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <reactor/backend.hpp>
#include <reactor/cli.hpp>
#include <reactor/reactor.hpp>
#include <string>
#include <thread>
#include <vector>

#include "order_saga/order_saga.hpp"

using namespace reactor;
using namespace std::chrono_literals;

namespace {

std::int64_t unix_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string probe_line(const char* what, const std::string& tag, std::int64_t n,
                       const StepContext& ctx) {
  return std::string(what) + " " + tag + " " + std::to_string(n) + " " + ctx.run_id() + " " +
         std::to_string(::getpid()) + " " + std::to_string(unix_ms());
}

// A reactor of one step, body, whose coordination `declare` adds before it.
template <typename Declare>
Definition probe(const std::string& name, const std::string& tag, Declare declare) {
  static const char* path = std::getenv("REACTOR_LEDGER");
  static const examples::Ledger kLedger(path != nullptr ? path : "");
  Builder b(name);
  b.input("n", integer().min(0)).input("ms", integer().min(0).default_value(50));
  declare(b);
  return b
      .step("body",
            [tag](const Args& a, StepContext& ctx) {
              const auto n = a.get<std::int64_t>("n");
              kLedger.append_line(probe_line("enter", tag, n, ctx));
              std::this_thread::sleep_for(std::chrono::milliseconds(a.get<std::int64_t>("ms")));
              kLedger.append_line(probe_line("exit", tag, n, ctx));
              return Success(n);
            })
      .argument("n", input("n"))
      .argument("ms", input("ms"))
      .returns("body")
      .build();
}

void register_probes(Registry& registry) {
  registry.add(probe("LockProbe", "lock", [](Builder& b) { b.with_lock("probe-lock"); }));
  registry.add(
      probe("SemaphoreProbe", "sem", [](Builder& b) { b.with_semaphore("probe-sem", 2); }));
  registry.add(probe("RateProbe", "rate", [](Builder& b) {
    b.with_rate_limit(constant_key("probe-rate"), {RateWindow{1s, 5}});
  }));
  registry.add(
      probe("PeriodProbe", "period", [](Builder& b) { b.with_period(PeriodSpec::minute()); }));
  registry.add(probe("OrderedProbe", "ordered",
                     [](Builder& b) { b.with_ordered_lock(constant_key("probe-chain")); }));
}

std::unique_ptr<Engine> open_engine(const std::string& storage) {
  Result<std::unique_ptr<Backend>> backend = open_backend(storage, nullptr);
  if (!backend.ok()) {
    std::fprintf(stderr, "coordination-cli: cannot open %s: %s\n", storage.c_str(),
                 backend.status().to_string().c_str());
    return nullptr;
  }
  EngineOptions options;
  options.backend = std::move(backend).value();
  auto engine = std::make_unique<Engine>(std::move(options));
  register_probes(engine->registry());
  return engine;
}

// start-many REACTOR COUNT [--ms MS] [--every MS]
int start_many_command(const std::string& storage, const std::vector<std::string>& args) {
  std::map<std::string, int> options = {{"--ms", 50}, {"--every", 0}};
  bool usable = args.size() >= 2 && args.size() % 2 == 0;
  for (std::size_t k = 2; usable && k < args.size(); k += 2) {
    usable = options.count(args[k]) > 0;
    if (usable) options[args[k]] = std::atoi(args[k + 1].c_str());
  }
  if (!usable) {
    std::fprintf(stderr,
                 "usage: coordination-cli start-many REACTOR COUNT [--ms MS] [--every MS]\n");
    return 2;
  }
  std::unique_ptr<Engine> engine = open_engine(storage);
  if (!engine) return 2;
  const int count = std::atoi(args[1].c_str());
  for (int n = 1; n <= count; ++n) {
    if (n > 1) std::this_thread::sleep_for(std::chrono::milliseconds(options["--every"]));
    const std::int64_t at = unix_ms();
    Result<std::string> id =
        engine->run_in_background(args[0], Value{{"n", n}, {"ms", options["--ms"]}});
    if (!id.ok()) {
      std::fprintf(stderr, "coordination-cli start-many: %s\n", id.status().to_string().c_str());
      return 1;
    }
    std::printf("%s %d %lld\n", id->c_str(), n, static_cast<long long>(at));
    std::fflush(stdout);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Engine engine;
  register_probes(engine.registry());
  CliOptions options;
  options.description = "the probe reactors of the coordination process tests";
  options.commands.push_back(
      {"start-many", "Start N runs of a reactor in order, n = 1..N", start_many_command});
  return cli_main(engine, argc, argv, options);
}
