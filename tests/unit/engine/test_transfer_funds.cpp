// The example TransferFunds (examples/transfer_funds) on the memory backend, run by the caller:
// money moves as the books say, a short balance refuses the debit, a closed account undoes it;
// and read_bank_books on a ledger written by hand (each move counted once, a killed process's
// calls ended at its "K" line).
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "order_saga/order_saga.hpp"
#include "reactor/reactor.hpp"
#include "support/result_testing.hpp"
#include "transfer_funds/transfer_funds.hpp"

namespace {

using namespace reactor;

class TransferFundsExample : public ::testing::Test {
 protected:
  void SetUp() override {
    ledger_ = ::testing::TempDir() + "transfer_funds_" +
              ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".ledger";
    std::remove(ledger_.c_str());
    services_.ledger = examples::Ledger(ledger_);
    std::unique_ptr<Backend> backend;
    ASSERT_OK_AND_ASSIGN(backend, open_backend("memory:", nullptr));
    EngineOptions options;
    options.backend = std::move(backend);
    engine_ = std::make_unique<Engine>(std::move(options));
    examples::register_examples(engine_->registry(), services_);
  }
  void TearDown() override { std::remove(ledger_.c_str()); }

  RunResult transfer(const std::string& from, const std::string& to, int amount) {
    return engine_->run("TransferFunds", {{"from", from}, {"to", to}, {"amount", amount}});
  }
  void write_ledger(const std::string& text) {
    std::ofstream out(ledger_);
    out << text;
  }

  std::string ledger_;
  examples::OrderServices services_;
  std::unique_ptr<Engine> engine_;
};

TEST_F(TransferFundsExample, MovesTheMoneyAndTheBooksSayIt) {
  RunResult r = transfer("A", "B", 30);
  ASSERT_EQ(r.status, RunStatus::kCompleted) << (r.error ? r.error->message : "");
  examples::BankBooks books = examples::read_bank_books(ledger_);
  EXPECT_EQ(books.balances.at("A"), 70);
  EXPECT_EQ(books.balances.at("B"), 130);
  EXPECT_EQ(books.total(), 500);
  EXPECT_TRUE(books.has('D', r.run_id));
  EXPECT_TRUE(books.has('C', r.run_id));
  EXPECT_EQ(books.calls, 2);
  EXPECT_EQ(books.most_calls_in_flight, 1);
}

TEST_F(TransferFundsExample, AShortBalanceFailsTheDebitAndMovesNothing) {
  RunResult r = transfer("C", "D", 101);
  ASSERT_EQ(r.status, RunStatus::kFailed);
  ASSERT_TRUE(r.error.has_value());
  EXPECT_NE(r.error->message.find("insufficient funds: account C holds 100"), std::string::npos)
      << r.error->message;
  examples::BankBooks books = examples::read_bank_books(ledger_);
  EXPECT_EQ(books.balances.at("C"), 100);
  EXPECT_FALSE(books.has('D', r.run_id));
}

TEST_F(TransferFundsExample, AClosedAccountRefusesTheCreditAndTheDebitIsRefunded) {
  RunResult r = transfer("E", examples::kClosedAccount, 40);
  ASSERT_EQ(r.status, RunStatus::kFailed);
  examples::BankBooks books = examples::read_bank_books(ledger_);
  EXPECT_TRUE(books.has('D', r.run_id));
  EXPECT_TRUE(books.has('R', r.run_id));
  EXPECT_EQ(books.balances.at("E"), 100);
  EXPECT_EQ(books.lowest.at("E"), 60);
  EXPECT_EQ(books.total(), 500);
}

TEST_F(TransferFundsExample, TheBooksCountEachMoveOnceAndEndAKilledProcesssCalls) {
  write_ledger(
      "B enter r1 debit 7 1000\n"
      "D r1 A 10 7\n"
      "B enter r2 debit 8 1001\n"
      "K 7\n"          // process 7 died inside r1's call
      "D r1 A 10 9\n"  // r1's debit executed again: the bank repeats nothing
      "B enter r3 credit 9 1002\n"
      "C r3 B 10 9\n"
      "C 7b:charge 12\n"  // another example's compensate line
      "B exit r3 credit 9 1003\n"
      "B exit r2 debit 8 1004\n");
  examples::BankBooks books = examples::read_bank_books(ledger_);
  EXPECT_EQ(books.balances.at("A"), 90);
  EXPECT_EQ(books.balances.at("B"), 110);
  EXPECT_EQ(books.calls, 3);
  EXPECT_EQ(books.most_calls_in_flight, 2);
}

}  // namespace
