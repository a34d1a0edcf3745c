// `locks [--json]`: what the store holds for coordination (reactor/hold_store.hpp) — lock and
// semaphore holders, rate-limit windows, period marks, ordered chains — and
// `ordered-lock peek|skip|reset KEY [--json]`: an operator's calls on one ordered chain.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <iostream>

#include "cli/command.hpp"
#include "cli/refusal.hpp"
#include "cli/text.hpp"
#include "web/coordination_json.hpp"

namespace reactor::cli {

namespace {

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : ",") + s;
  return out.empty() ? "-" : out;
}

void print_view(const CoordinationView& v) {
  if (v.holds.empty() && v.rate_windows.empty() && v.periods.empty() && v.ordered.empty()) {
    std::printf("nothing held\n");
    return;
  }
  for (const HoldRow& h : v.holds) {
    std::printf("%-9s %-28s held %zu/%d  by %s\n", to_string(h.kind), h.key.c_str(),
                h.holders.size(), h.limit, joined(h.holders).c_str());
  }
  for (const RateWindowRow& w : v.rate_windows) {
    std::printf("rate      %-28s %d in the %lld ms window from %s\n", w.key.c_str(), w.count,
                static_cast<long long>(w.window_ms),
                format_utc(from_unix_ms(w.bucket_start_ms)).c_str());
  }
  for (const PeriodRow& p : v.periods) {
    std::printf("period    %-28s done by %s\n", p.mark.c_str(), p.run_id.c_str());
  }
  for (const OrderedChainRow& c : v.ordered) {
    std::vector<std::string> runs;
    for (const OrderedMember& m : c.members) runs.push_back(std::to_string(m.seq) + ":" + m.run_id);
    std::printf("ordered   %-28s %s%s\n", c.key.c_str(), joined(runs).c_str(),
                c.failed ? ("  (failed at " + c.failed_run + ")").c_str() : "");
  }
}

class LocksCommand final : public Command {
 public:
  const char* name() const override { return "locks"; }
  const char* description() const override {
    return "List lock and semaphore holders, rate-limit windows, period marks and ordered chains";
  }
  void declare(CLI::App& sub) override {
    sub.add_flag("--json", json_, "One JSON object: holds, rate_windows, periods, ordered");
  }
  int run(const Context& ctx) override {
    const std::string who = ctx.program + " locks";
    auto engine = open_store(ctx, "locks", StoreUse::kMustExist, ctx.options.engine.durability);
    if (!engine) return 2;
    Result<CoordinationView> v = engine->backend()->coordination();
    if (!v.ok()) return refused(who, v.status());
    if (json_) {
      std::cout << web::coordination_json(*v).dump() << "\n";
    } else {
      print_view(*v);
    }
    return 0;
  }

 private:
  bool json_ = false;
};

class OrderedLockCommand final : public Command {
 public:
  const char* name() const override { return "ordered-lock"; }
  const char* description() const override {
    return "An ordered chain: peek (its runs), skip (stop waiting for its head), reset (clear "
           "its failure and forget its runs)";
  }
  void declare(CLI::App& sub) override {
    sub.add_option("action", action_, "peek, skip or reset")
        ->required()
        ->check(CLI::IsMember({"peek", "skip", "reset"}));
    sub.add_option("key", key_, "The chain's key")->required();
    sub.add_flag("--json", json_, "The chain as one JSON object");
  }
  int run(const Context& ctx) override {
    const std::string who = ctx.program + " ordered-lock";
    auto engine =
        open_store(ctx, "ordered-lock", StoreUse::kMustExist, ctx.options.engine.durability);
    if (!engine) return 2;
    HoldStore& store = *engine->backend();
    Result<OrderedChainRow> c = action_ == "peek"   ? store.ordered_peek(key_)
                                : action_ == "skip" ? store.ordered_skip(key_)
                                                    : store.ordered_reset(key_);
    if (!c.ok()) return refused(who, c.status());
    if (json_) {
      std::cout << web::chain_json(*c).dump() << "\n";
      return 0;
    }
    CoordinationView one;
    one.ordered.push_back(*c);
    print_view(one);
    return 0;
  }

 private:
  std::string action_;
  std::string key_;
  bool json_ = false;
};

}  // namespace

std::unique_ptr<Command> locks_command() { return std::make_unique<LocksCommand>(); }
std::unique_ptr<Command> ordered_lock_command() { return std::make_unique<OrderedLockCommand>(); }

}  // namespace reactor::cli
