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
// Two commands of its own:
//   holds            what the store holds (HoldStore::coordination), one line each:
//                      hold <lock|semaphore> <key> <limit> <held> [<holder>...]
//                      window <key> <window_ms> <bucket_start_ms> <count>
//                      period <mark> <run>
//                      ordered <key> <next_seq> <failed 0|1> <members>
//   start-many R N   starts N runs of reactor R in the background, in order, with n = 1..N
//                    (and ms from --ms), from this one process; prints their ids in order.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
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

std::string probe_line(const char* what, const std::string& tag, std::int64_t n,
                       const StepContext& ctx) {
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                      std::chrono::system_clock::now().time_since_epoch())
                      .count();
  return std::string(what) + " " + tag + " " + std::to_string(n) + " " + ctx.run_id() + " " +
         std::to_string(::getpid()) + " " + std::to_string(ms);
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

int holds_command(const std::string& storage, const std::vector<std::string>&) {
  std::unique_ptr<Engine> engine = open_engine(storage);
  if (!engine) return 2;
  Result<CoordinationView> view = engine->backend()->coordination();
  if (!view.ok()) {
    std::fprintf(stderr, "coordination-cli holds: %s\n", view.status().to_string().c_str());
    return 1;
  }
  for (const HoldRow& h : view->holds) {
    std::printf("hold %s %s %d %zu", to_string(h.kind), h.key.c_str(), h.limit, h.holders.size());
    for (const std::string& holder : h.holders) std::printf(" %s", holder.c_str());
    std::printf("\n");
  }
  for (const RateWindowRow& w : view->rate_windows) {
    std::printf("window %s %lld %lld %d\n", w.key.c_str(), static_cast<long long>(w.window_ms),
                static_cast<long long>(w.bucket_start_ms), w.count);
  }
  for (const PeriodRow& p : view->periods) {
    std::printf("period %s %s\n", p.mark.c_str(), p.run_id.c_str());
  }
  for (const OrderedChainRow& o : view->ordered) {
    std::printf("ordered %s %lld %d %zu\n", o.key.c_str(), static_cast<long long>(o.next_seq),
                o.failed ? 1 : 0, o.members.size());
  }
  return 0;
}

// start-many REACTOR COUNT [--ms MS]
int start_many_command(const std::string& storage, const std::vector<std::string>& args) {
  if (args.size() != 2 && !(args.size() == 4 && args[2] == "--ms")) {
    std::fprintf(stderr, "usage: coordination-cli start-many REACTOR COUNT [--ms MS]\n");
    return 2;
  }
  std::unique_ptr<Engine> engine = open_engine(storage);
  if (!engine) return 2;
  const int count = std::atoi(args[1].c_str());
  const int ms = args.size() == 4 ? std::atoi(args[3].c_str()) : 50;
  for (int n = 1; n <= count; ++n) {
    Result<std::string> id = engine->run_in_background(args[0], Value{{"n", n}, {"ms", ms}});
    if (!id.ok()) {
      std::fprintf(stderr, "coordination-cli start-many: %s\n", id.status().to_string().c_str());
      return 1;
    }
    std::printf("%s\n", id->c_str());
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
      {"holds", "What the store holds: holders, rate windows, periods, chains", holds_command});
  options.commands.push_back(
      {"start-many", "Start N runs of a reactor in order, n = 1..N", start_many_command});
  return cli_main(engine, argc, argv, options);
}
