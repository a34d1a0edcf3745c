// The simulated bank's books, read back from the side-effect ledger (transfer_funds.hpp says the
// line formats): balances, the lowest each reached, and how many calls were in flight at once.
#include <fstream>
#include <sstream>

#include "transfer_funds/transfer_funds.hpp"

namespace examples {

namespace {

// What a D, C, R or X line does to its account's balance.
std::int64_t sign_of(char kind) { return kind == 'D' || kind == 'X' ? -1 : 1; }

// Applies one money line ("<kind> <run> <account> <amount> <pid>"), counted once per (kind,
// run). Skips a line that is not one (the other examples' "C <key> <pid>" lines included).
void apply_money_line(BankBooks& books, char kind, std::istringstream& fields) {
  std::string run, account;
  std::int64_t amount = 0;
  long pid = 0;
  if (!(fields >> run >> account >> amount >> pid)) return;
  if (books.balances.count(account) == 0 || amount <= 0) return;
  if (!books.moved.insert({kind, run}).second) return;  // the bank repeats nothing
  std::int64_t& balance = books.balances[account];
  balance += sign_of(kind) * amount;
  std::int64_t& lowest = books.lowest[account];
  if (balance < lowest) lowest = balance;
}

// The bank calls in flight: "<run> <step>" by the process making it.
using InFlight = std::multimap<std::string, std::string>;

void apply_call_line(BankBooks& books, InFlight& in_flight, std::istringstream& fields) {
  std::string what, run, step, pid;
  if (!(fields >> what >> run >> step >> pid)) return;
  if (what == "enter") {
    ++books.calls;
    in_flight.emplace(pid, run + " " + step);
    if (static_cast<int>(in_flight.size()) > books.most_calls_in_flight) {
      books.most_calls_in_flight = static_cast<int>(in_flight.size());
    }
    return;
  }
  if (what != "exit") return;
  auto [first, last] = in_flight.equal_range(pid);
  for (auto it = first; it != last; ++it) {
    if (it->second == run + " " + step) {
      in_flight.erase(it);
      return;
    }
  }
}

}  // namespace

std::int64_t BankBooks::total() const {
  std::int64_t sum = 0;
  for (const auto& [_, balance] : balances) sum += balance;
  return sum;
}

BankBooks read_bank_books(const std::string& path) {
  BankBooks books;
  books.balances = transfer_accounts();
  books.lowest = books.balances;
  InFlight in_flight;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    std::string kind;
    if (!(fields >> kind) || kind.size() != 1) continue;
    switch (kind[0]) {
      case 'B':
        apply_call_line(books, in_flight, fields);
        break;
      case 'K': {
        std::string pid;
        if (fields >> pid) in_flight.erase(pid);  // the killed process's calls ended
        break;
      }
      case 'D':
      case 'C':
      case 'R':
      case 'X':
        apply_money_line(books, kind[0], fields);
        break;
      default:
        break;
    }
  }
  return books;
}

void mark_killed(const Ledger& ledger, pid_t pid) {
  ledger.append_line("K " + std::to_string(pid));
}

}  // namespace examples
