// A run that decodes cleanly and still is not a run of its definition (records/run_shape.hpp):
// what the executor would index past the end of, found before it runs.
#include <gtest/gtest.h>

#include <climits>
#include <cstdint>
#include <string>

#include "reactor/builder.hpp"
#include "records/run_shape.hpp"

namespace reactor::records {
namespace {

Definition child_def() {
  return Builder("Child").step("c1", [](const Args&) { return Success(1); }).build();
}

Definition parent_def() {
  return Builder("Parent")
      .step("plain", [](const Args&) { return Success(1); })
      .compose("sub", child_def())
      .build();
}

Run run_of(const Definition& def) {
  reactor::Run run;
  run.id = run.root_id = "r";
  run.reactor = def.name();
  run.fingerprint = def.fingerprint();
  run.status = RunStatus::kRunning;
  run.steps.resize(def.steps().size());
  for (std::size_t i = 0; i < run.steps.size(); ++i) run.steps[i].name = def.steps()[i].name;
  return run;
}

std::string shape_error(const Run& run, const Definition& def, std::size_t max = SIZE_MAX) {
  return run_shape_error(run, *def.data(), max).value_or("");
}

TEST(RunShape, ARunOfItsDefinitionFits) {
  const Definition def = parent_def();
  reactor::Run run = run_of(def);
  run.steps[1].children.push_back(run_of(Definition(def.steps()[1].child)));
  EXPECT_EQ(shape_error(run, def), "");
}

// step_names shorter than the graph under the right fingerprint: rebuild_schedule indexed past
// the steps' end.
TEST(RunShape, StepsOtherThanTheDefinitionsAreCorrupt) {
  const Definition def = parent_def();
  reactor::Run run = run_of(def);
  run.steps.pop_back();
  EXPECT_NE(shape_error(run, def).find("1 steps, the definition 2"), std::string::npos)
      << shape_error(run, def);
  run = run_of(def);
  run.steps[0].name = "other";
  EXPECT_NE(shape_error(run, def).find("names it 'other'"), std::string::npos);
}

// rolling_back with failed_step 100000: compensate indexed past the steps' end.
TEST(RunShape, AFailedStepPastTheStepsIsCorrupt) {
  const Definition def = parent_def();
  reactor::Run run = run_of(def);
  run.status = RunStatus::kRollingBack;
  run.failed_step = 100000;
  EXPECT_NE(shape_error(run, def).find("failed_step 100000"), std::string::npos);
  run.failed_step = 1;
  EXPECT_EQ(shape_error(run, def), "");
}

TEST(RunShape, ChildrenOnlyWhereTheDefinitionComposesAndOfItsChild) {
  const Definition def = parent_def();
  const Definition child(def.steps()[1].child);
  reactor::Run run = run_of(def);
  run.steps[0].children.push_back(run_of(child));  // a plain step has no child runs
  EXPECT_NE(shape_error(run, def).find("at most 0"), std::string::npos) << shape_error(run, def);
  run = run_of(def);
  run.steps[1].children = {run_of(child), run_of(child)};  // a composed step has one
  EXPECT_NE(shape_error(run, def).find("at most 1"), std::string::npos);
  run = run_of(def);
  reactor::Run wrong = run_of(child);
  wrong.steps.clear();  // the child's own steps are checked against the child definition
  run.steps[1].children = {wrong};
  EXPECT_NE(shape_error(run, def).find("0 steps, the definition 1"), std::string::npos);
  wrong = run_of(child);
  wrong.fingerprint = "other";
  run.steps[1].children = {wrong};
  EXPECT_NE(shape_error(run, def).find("another definition"), std::string::npos);
}

TEST(RunShape, OnlyARootIsEnqueuedOrWaiting) {
  const Definition def = parent_def();
  const Definition child(def.steps()[1].child);
  for (const RunStatus status : {RunStatus::kEnqueued, RunStatus::kWaiting}) {
    reactor::Run run = run_of(def);
    reactor::Run sub = run_of(child);
    sub.status = status;
    run.steps[1].children = {sub};
    EXPECT_NE(shape_error(run, def).find("only a root"), std::string::npos) << to_string(status);
  }
}

TEST(RunShape, AttemptsThatWouldOverflowAndValuesPastTheLimitsAreCorrupt) {
  const Definition def = parent_def();
  reactor::Run run = run_of(def);
  run.steps[0].attempts = INT_MAX;
  EXPECT_NE(shape_error(run, def).find("attempts"), std::string::npos);
  run.steps[0].attempts = -1;
  EXPECT_NE(shape_error(run, def).find("attempts"), std::string::npos);
  run = run_of(def);
  run.steps[0].result = std::string(200, 'x');
  EXPECT_NE(shape_error(run, def, 100).find("its result: over 100 bytes"), std::string::npos);
  EXPECT_EQ(shape_error(run, def, 1000), "");
  run = run_of(def);
  run.inputs = Value{{"k", std::string(200, 'x')}};
  EXPECT_NE(shape_error(run, def, 100).find("its inputs"), std::string::npos);
}

}  // namespace
}  // namespace reactor::records
