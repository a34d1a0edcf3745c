// TransferFunds (transfer_funds.hpp): debit and credit at the simulated bank, each under its
// account's lock, a token of "bank-api" and room in the rate limit "bank".
#include "transfer_funds/transfer_funds.hpp"

#include <unistd.h>

#include <chrono>
#include <thread>

namespace examples {

using namespace reactor;

namespace {

std::int64_t unix_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string call_line(const char* what, const StepContext& ctx) {
  return std::string("B ") + what + " " + ctx.run_id() + " " + ctx.step_path() + " " +
         std::to_string(::getpid()) + " " + std::to_string(unix_ms());
}

std::string money_line(char kind, const StepContext& ctx, const std::string& account,
                       std::int64_t amount) {
  return std::string(1, kind) + " " + ctx.run_id() + " " + account + " " + std::to_string(amount) +
         " " + std::to_string(::getpid());
}

// One call to the bank: "B enter", the call's latency (step_ms), `call` on the books as they
// are now, "B exit".
template <typename Call>
StepResult bank_call(const OrderServices& s, const StepContext& ctx, Call&& call) {
  s.ledger.append_line(call_line("enter", ctx));
  if (s.step_ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(s.step_ms));
  StepResult r = call(read_bank_books(s.ledger.path()));
  s.ledger.append_line(call_line("exit", ctx));
  return r;
}

// The balance is read and the debit written under the lock on the account: no other debit (or
// credit) of it runs in between.
StepResult debit(const OrderServices& s, const Args& a, const StepContext& ctx) {
  const std::string from = a.get<std::string>("from");
  const auto amount = a.get<std::int64_t>("amount");
  return bank_call(s, ctx, [&](const BankBooks& books) -> StepResult {
    const Value debited{{"account", from}, {"amount", amount}};
    if (books.has('D', ctx.run_id())) return Success(debited);  // executed again: done already
    const std::int64_t balance = books.balances.at(from);
    if (balance < amount) {
      return Failure("insufficient funds: account " + from + " holds " + std::to_string(balance) +
                         ", the transfer needs " + std::to_string(amount),
                     /*retryable=*/false);
    }
    s.ledger.append_line(money_line('D', ctx, from, amount));
    return Success(debited);
  });
}

StepResult credit(const OrderServices& s, const Args& a, const StepContext& ctx) {
  const std::string to = a.get<std::string>("to");
  const auto amount = a.get<std::int64_t>("amount");
  return bank_call(s, ctx, [&](const BankBooks& books) -> StepResult {
    const Value credited{{"account", to}, {"amount", amount}};
    if (books.has('C', ctx.run_id())) return Success(credited);
    if (to == kClosedAccount) return Failure("account " + to + " is closed", /*retryable=*/false);
    s.ledger.append_line(money_line('C', ctx, to, amount));
    return Success(credited);
  });
}

// Undoes the money line `done` of this run with a line `undo` (once), moving the step's value.
UndoFn reversal(const OrderServices& s, char done, char undo) {
  return [&s, done, undo](const Value& moved, const Args&, StepContext& ctx) -> StepResult {
    const BankBooks books = read_bank_books(s.ledger.path());
    if (books.has(done, ctx.run_id()) && !books.has(undo, ctx.run_id())) {
      s.ledger.append_line(money_line(undo, ctx, moved.at("account").get<std::string>(),
                                      moved.at("amount").get<std::int64_t>()));
    }
    return Success();
  };
}

KeyFn account_lock(const char* argument) {
  return [argument](const Args& a) { return "account:" + a.get<std::string>(argument); };
}

}  // namespace

const std::map<std::string, std::int64_t>& transfer_accounts() {
  static const std::map<std::string, std::int64_t> kAccounts = {
      {"A", 100}, {"B", 100}, {"C", 100}, {"D", 100}, {"E", 100}, {kClosedAccount, 0}};
  return kAccounts;
}

Definition transfer_funds(OrderServices& s) {
  std::vector<Value> accounts;
  for (const auto& [id, _] : transfer_accounts()) accounts.emplace_back(id);
  // Each step locks its own account around its body and nothing else: a transfer never holds
  // two account locks at once, so A -> B and B -> A cannot wait for each other (no deadlock).
  return Builder("TransferFunds")
      .input("from", string().one_of(accounts))
      .input("to", string().one_of(accounts))
      .input("amount", integer().min(1))
      .step("debit", [&s](const Args& a, StepContext& ctx) { return debit(s, a, ctx); })
      .argument("from", input("from"))
      .argument("amount", input("amount"))
      .undo(reversal(s, 'D', 'R'))  // a refund
      .with_lock(account_lock("from"))
      .with_semaphore("bank-api", kBankApiTokens)
      .with_rate_limit(kBankRateLimit)
      .step("credit", [&s](const Args& a, StepContext& ctx) { return credit(s, a, ctx); })
      .argument("to", input("to"))
      .argument("amount", input("amount"))
      .wait_for("debit")
      .undo(reversal(s, 'C', 'X'))  // a chargeback
      .with_lock(account_lock("to"))
      .with_semaphore("bank-api", kBankApiTokens)
      .with_rate_limit(kBankRateLimit)
      .build();
}

}  // namespace examples
