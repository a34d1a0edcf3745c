// TransferFunds: the example of coordination (docs/coordination.md). Moves `amount` (an integer
// > 0) from account `from` to account `to` at a simulated bank, in two steps:
//   debit   takes the amount from `from` — a Failure, not retried, when the balance would go
//           below zero (nothing moved, nothing to compensate); undone by a refund;
//   credit  gives it to `to` — a Failure, not retried, for the closed account Z, which undoes
//           the debit; undone by a chargeback.
// Each step holds, around its body only, an exclusive lock on its own account
// ("account:<id>"), one of the 2 tokens of the semaphore "bank-api" and room in the engine's
// named rate limit "bank" (20 calls per second, registered by register_examples). Holding only
// its own account's lock, never two at once, is what keeps two opposite transfers (A -> B and
// B -> A) from deadlocking; holding it across the read of the balance and the write of the
// debit is what keeps two debits of one account from both spending the same money.
//
// The bank keeps its books in the side-effect ledger ($REACTOR_LEDGER; without one it keeps
// none, and every account stays at its starting balance). Its lines:
//   B enter <run> <step> <pid> <ms>   a bank call starts (ms: Unix time in milliseconds)
//   B exit <run> <step> <pid> <ms>    it returns
//   D <run> <account> <amount> <pid>  debited        C <run> <account> <amount> <pid> credited
//   R <run> <account> <amount> <pid>  debit refunded X <run> <account> <amount> <pid> credit
//                                                                                  charged back
//   K <pid>                           process pid was killed: its calls in flight ended there
// The bank is idempotent, as a real one is under an idempotency key: a re-executed step finds
// its own line and moves nothing again, and the books count each kind of line once per run.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "order_saga/order_saga.hpp"

namespace examples {

// The accounts and their starting balances: A, B, C, D and E with 100 each, and Z, closed,
// with 0 (a debit from it fails, a credit to it fails and undoes the debit).
const std::map<std::string, std::int64_t>& transfer_accounts();
inline constexpr const char* kClosedAccount = "Z";
// The engine's named rate limit both steps share: calls to the bank per second.
inline constexpr const char* kBankRateLimit = "bank";
inline constexpr int kBankCallsPerSecond = 20;
// Tokens of the semaphore "bank-api": bank calls at once.
inline constexpr int kBankApiTokens = 2;

// The reactor, bound to `services` (its ledger, and step_ms: how long a bank call takes).
// Register the limit kBankRateLimit on the registry first (register_examples does).
reactor::Definition transfer_funds(OrderServices& services);

// The bank's books as the ledger at `path` has them.
struct BankBooks {
  std::map<std::string, std::int64_t> balances;  // every account, starting balance included
  std::map<std::string, std::int64_t> lowest;    // the lowest balance each account reached
  std::set<std::pair<char, std::string>> moved;  // (D, C, R or X, run): counted once
  int calls = 0;                                 // bank calls started (B enter)
  int most_calls_in_flight = 0;                  // the most calls between enter and exit
  bool has(char kind, const std::string& run) const { return moved.count({kind, run}) > 0; }
  std::int64_t total() const;
};
// Reads the ledger (no file: the starting balances). Lines of other formats are skipped.
BankBooks read_bank_books(const std::string& path);

// Notes in the ledger that process `pid` was killed (and reaped): its bank calls still in
// flight end at this line. Whoever kills a worker calls it, so that read_bank_books does not
// count those calls as in flight for ever.
void mark_killed(const Ledger& ledger, pid_t pid);

}  // namespace examples
