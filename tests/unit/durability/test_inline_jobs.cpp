// Inline jobs: run_in_background executes the jobs it enqueues in its caller, as a worker would.
#include "support/result_testing.hpp"
#include "unit/durability/durable_fixture.hpp"

namespace reactor::durable_test {
namespace {

class InlineJobs : public ::testing::Test {
 protected:
  void SetUp() override {
    std::unique_ptr<Backend> memory;
    ASSERT_OK_AND_ASSIGN(memory, open_backend("memory:", clock_));
    EngineOptions options;
    options.clock = clock_;
    options.backend = std::move(memory);
    options.durability.inline_jobs = true;
    engine_ = std::make_unique<Engine>(std::move(options));
  }
  std::shared_ptr<ManualClock> clock_ = std::make_shared<ManualClock>();
  std::unique_ptr<Engine> engine_;
};

TEST_F(InlineJobs, ABackgroundRunHasRunThroughItsRetriesWhenTheCallReturns) {
  int attempts = 0;
  engine_->registry().add(Builder("Flaky")
                              .step("a", [](const Args&) { return Success(1); })
                              .step("b",
                                    [&attempts](const Args&) {
                                      if (++attempts < 3) return Failure("not yet");
                                      return Success(2);
                                    })
                              .retries(fixed_backoff(3, 30s))
                              .returns("b")
                              .build());
  std::string id;
  ASSERT_OK_AND_ASSIGN(id, engine_->run_in_background("Flaky", Value::object()));
  RunResult r;
  ASSERT_OK_AND_ASSIGN(r, engine_->find(id));
  EXPECT_EQ(r.status, RunStatus::kCompleted);
  EXPECT_EQ(r.value, 2);
  EXPECT_EQ(r.step("b")->attempts, 3);
  // The retry delays were waited out on the clock, not slept.
  EXPECT_EQ(clock_->sleeps(), (std::vector<Duration>{30s, 30s}));
  bool has_job = true;
  ASSERT_OK_AND_ASSIGN(has_job, engine_->backend()->has_job(id));
  EXPECT_FALSE(has_job);
}

}  // namespace
}  // namespace reactor::durable_test
