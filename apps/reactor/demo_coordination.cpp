// `reactor demo --coordination`: 40 TransferFunds runs (examples/transfer_funds) among the
// accounts A to E, on SQLite in a directory of its own under $TMPDIR, across two worker
// processes of 3 threads each; one is killed with SIGKILL mid-way and not replaced, the other
// finishes. Then the balances the bank's books (the ledger) hold, and the checks: the total is
// unchanged, no account went below zero, the bank never had more than 2 calls in flight, and
// every transfer ended, its money moved as its run says.
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <thread>
#include <vector>

#include "demo.hpp"
#include "demo_support.hpp"
#include "reactor/reactor.hpp"
#include "transfer_funds/transfer_funds.hpp"

namespace reactor_demo {

using namespace reactor;
using namespace std::chrono_literals;

namespace {

constexpr int kTransfers = 40;
constexpr int kKillAfterEnded = 12;  // the SIGKILL once this many transfers ended
const std::vector<std::string> kAccounts = {"A", "B", "C", "D", "E"};

struct Transfer {
  std::string from, to;
  int amount = 0;
  std::string id{};
  RunResult result{};
};

// A fixed set: every account pays 8 transfers of 20 to 80 and receives 8.
std::vector<Transfer> demo_transfers() {
  std::vector<Transfer> out;
  for (int i = 0; i < kTransfers; ++i) {
    const std::size_t from = static_cast<std::size_t>(i) % kAccounts.size();
    const std::size_t to = (from + 1 + static_cast<std::size_t>(i / 5) % 4) % kAccounts.size();
    out.push_back(Transfer{kAccounts[from], kAccounts[to], 20 + (i * 37) % 61});
  }
  return out;
}

// How many of the demo's runs ended; false when the store cannot say.
bool count_ended(Engine& engine, int& ended) {
  RunFilter all;
  all.reactor = "TransferFunds";
  all.limit = kTransfers;
  Result<std::vector<RunHeaderRow>> rows = engine.backend()->list_runs(all);
  if (!rows.ok()) {
    std::fprintf(stderr, "\nreactor demo: cannot list runs: %s\n",
                 rows.status().to_string().c_str());
    return false;
  }
  ended = 0;
  for (const RunHeaderRow& r : *rows) ended += is_terminal(r.status) ? 1 : 0;
  return true;
}

// Waits (bounded, 90 s) for every transfer to end, killing `workers[0]` mid-way. False when
// the store failed.
bool serve_transfers(Engine& engine, std::vector<pid_t>& workers, const std::string& ledger) {
  bool killed = false;
  int ended = 0, shown = -1;
  const bool tty = ::isatty(STDOUT_FILENO) != 0;
  const auto deadline = std::chrono::steady_clock::now() + 90s;
  while (std::chrono::steady_clock::now() < deadline) {
    if (!count_ended(engine, ended)) return false;
    // On a terminal one line kept up to date; else (a log) a line for every 10 more.
    if (ended != shown && (tty || ended / 10 != shown / 10 || ended == kTransfers)) {
      std::printf(tty ? "\r  transfers ended: %2d of %d   " : "  transfers ended: %2d of %d\n",
                  ended, kTransfers);
      std::fflush(stdout);
      shown = ended;
    }
    if (!killed && ended >= kKillAfterEnded) {
      const pid_t victim = workers[0];
      stop_worker(victim, SIGKILL);
      examples::mark_killed(examples::Ledger(ledger), victim);
      workers.erase(workers.begin());
      killed = true;
      std::printf("%s  SIGKILL sent to worker %d; the other one finishes alone\n", tty ? "\n" : "",
                  static_cast<int>(victim));
    }
    if (ended == kTransfers) break;
    std::this_thread::sleep_for(100ms);
  }
  if (tty) std::printf("\n");
  return true;
}

// Whether the books moved a transfer's money as its run says: a completed run debited and
// credited; a failed one moved nothing, or had its debit refunded.
bool books_agree(const examples::BankBooks& books, const Transfer& t) {
  const bool d = books.has('D', t.id), c = books.has('C', t.id), r = books.has('R', t.id);
  if (t.result.status == RunStatus::kCompleted) return d && c && !r;
  if (t.result.status == RunStatus::kFailed) return !c && (!d || r);
  return false;
}

void print_books(const examples::BankBooks& books) {
  std::printf("\n%-8s %6s %6s %7s\n", "account", "start", "end", "lowest");
  std::int64_t start_total = 0;
  for (const std::string& a : kAccounts) {
    const std::int64_t start = examples::transfer_accounts().at(a);
    start_total += start;
    std::printf("%-8s %6lld %6lld %7lld\n", a.c_str(), static_cast<long long>(start),
                static_cast<long long>(books.balances.at(a)),
                static_cast<long long>(books.lowest.at(a)));
  }
  std::printf("%-8s %6lld %6lld\n", "total", static_cast<long long>(start_total),
              static_cast<long long>(books.total()));
}

bool print_check(bool ok, const std::string& what) {
  std::printf("  [%s] %s\n", ok ? "ok" : "FAILED", what.c_str());
  return ok;
}

// Prints the outcome and the checks; true when every check holds.
bool report_transfers(const std::vector<Transfer>& all, const examples::BankBooks& books) {
  int completed = 0, refused = 0, other = 0, disagree = 0;
  for (const Transfer& t : all) {
    const bool short_of_funds =
        t.result.status == RunStatus::kFailed && t.result.error &&
        t.result.error->message.find("insufficient funds") != std::string::npos;
    if (t.result.status == RunStatus::kCompleted) {
      ++completed;
    } else if (short_of_funds) {
      ++refused;
    } else {
      ++other;
    }
    if (!books_agree(books, t)) ++disagree;
  }
  print_books(books);
  std::printf("\ncompleted %d, refused for insufficient funds %d, other %d; %d bank calls\n\n",
              completed, refused, other, books.calls);
  std::int64_t lowest = books.lowest.at(kAccounts.front());
  for (const std::string& a : kAccounts) lowest = std::min(lowest, books.lowest.at(a));
  const bool none_below = std::all_of(books.lowest.begin(), books.lowest.end(),
                                      [](const auto& account) { return account.second >= 0; });
  const std::int64_t start = examples::read_bank_books("").total();
  bool ok =
      print_check(other == 0, "every transfer ended, completed or refused for insufficient funds");
  ok &= print_check(books.total() == start,
                    "the total is unchanged: " + std::to_string(books.total()) + " (started with " +
                        std::to_string(start) + ")");
  ok &= print_check(none_below, "no account went below zero (the lowest balance of A-E: " +
                                    std::to_string(lowest) + ")");
  ok &= print_check(books.most_calls_in_flight <= examples::kBankApiTokens,
                    "the bank API never saw more than " + std::to_string(examples::kBankApiTokens) +
                        " calls at once (at most " + std::to_string(books.most_calls_in_flight) +
                        ")");
  ok &=
      print_check(disagree == 0, "the books moved each transfer's money once, as its run ended (" +
                                     std::to_string(disagree) + " disagree)");
  return ok;
}

}  // namespace

int run_coordination_demo() {
  std::string dir;
  if (!make_demo_dir("reactor-demo-coordination", dir)) {
    std::perror("reactor demo: cannot make a directory for the store");
    return 1;
  }
  const std::string storage = "sqlite://" + dir + "/bank.db", ledger = dir + "/ledger";
  examples::OrderServices services;
  std::unique_ptr<Engine> opened = open_demo_engine(storage, services);
  if (!opened) return 2;
  Engine& engine = *opened;
  std::printf(
      "Reactor demo --coordination: %d TransferFunds runs among accounts A-E (100 each)\n"
      "on SQLite (%s),\n"
      "2 worker processes of 3 threads; one is killed with SIGKILL mid-way.\n"
      "debit and credit each hold their account's lock, a token of bank-api (2) and room in\n"
      "the rate limit bank (%d calls/s) around a 40 ms bank call.\n\n",
      kTransfers, (dir + "/bank.db").c_str(), examples::kBankCallsPerSecond);
  std::vector<Transfer> all = demo_transfers();
  for (Transfer& t : all) {
    Result<std::string> id = engine.run_in_background(
        "TransferFunds", {{"from", t.from}, {"to", t.to}, {"amount", t.amount}});
    if (!id.ok()) {
      std::fprintf(stderr, "reactor demo: %s\n", id.status().to_string().c_str());
      return 1;
    }
    t.id = *id;
  }
  // Snoozes of 0.2 s (+ up to 0.2 s), up to 1,000 of them: 40 transfers wait for 2 tokens, and
  // a run that keeps losing the race would pass the default cap (20, about 6 s of this).
  const DemoWorker worker{storage, ledger, 3, 40, 0.2, 1000};
  std::vector<pid_t> workers = {spawn_worker(worker), spawn_worker(worker)};
  const bool served = serve_transfers(engine, workers, ledger);
  for (pid_t w : workers) stop_worker(w, SIGTERM);
  if (!served) return 1;
  for (Transfer& t : all) {
    Result<RunResult> found = engine.find(t.id);
    if (found.ok()) t.result = std::move(found).value();
  }
  const bool ok = report_transfers(all, examples::read_bank_books(ledger));
  std::printf("\nthe ledger: %s; a run: reactor show %s --storage %s\n", ledger.c_str(),
              all[0].id.c_str(), storage.c_str());
  return ok ? 0 : 1;
}

}  // namespace reactor_demo
