// Step: a step written as a class, for steps with dependencies or state.
//
//   class ChargeCard : public reactor::Step {
//    public:
//     explicit ChargeCard(Payments& p) : payments_(p) {}
//     StepResult run(const Args& a, StepContext& ctx) override { ... }
//     StepResult undo(const Value& charged, const Args& a, StepContext& ctx) override { ... }
//   };
//   builder.step<ChargeCard>("charge", std::ref(payments))
#pragma once

#include <memory>
#include <string>

#include "reactor/args.hpp"
#include "reactor/step_context.hpp"
#include "reactor/step_result.hpp"

namespace reactor {

// A fresh instance is made for every action (run, compensate, undo): nothing
// set in run() is visible to undo(), which gets the stored result instead, as
// it would after a restart.
class Step {
 public:
  virtual ~Step() = default;

  virtual StepResult run(const Args& args, StepContext& ctx) = 0;

  // Called once, after the last attempt of run() failed, when the body had
  // started. `error` is the failure's message. The default does nothing.
  virtual StepResult compensate(const std::string& error, const Args& args, StepContext& ctx);

  // Called when a later step fails, to revert this step's completed effect.
  // `result` is the value this step returned. The default does nothing.
  virtual StepResult undo(const Value& result, const Args& args, StepContext& ctx);
};

}  // namespace reactor
