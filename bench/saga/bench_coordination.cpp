#include "saga/bench_coordination.hpp"

#include <chrono>
#include <mutex>
#include <thread>
#include <utility>

namespace reactor_bench {

using namespace reactor;

namespace {

enum class Lock { kNone, kStep, kRun };

std::mutex coord_bodies_mu;
std::vector<BodyTime> coord_bodies;

std::int64_t steady_us() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

StepResult work(const Args& a) {
  BodyTime t;
  t.start_us = steady_us();
  const int ms = a.get<int>("ms");
  if (ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(ms));
  t.end_us = steady_us();
  std::lock_guard lock(coord_bodies_mu);
  coord_bodies.push_back(t);
  return Success(1);
}

KeyFn key_of(const char* field) {
  return [field](const Args& a) { return a[field].get<std::string>(); };
}

Definition bench_coordination(const char* name, Lock lock) {
  Builder b(name);
  b.input("key", string()).input("step_ms", integer().min(0).default_value(0));
  if (lock == Lock::kRun) b.with_lock(key_of("key"));
  b.step("work", work).argument("ms", input("step_ms")).argument("key", input("key"));
  if (lock == Lock::kStep) b.with_lock(key_of("key"));
  return b.build();
}

}  // namespace

std::vector<BodyTime> take_body_times() {
  std::lock_guard lock(coord_bodies_mu);
  return std::exchange(coord_bodies, {});
}

void register_bench_coordination(Registry& registry) {
  registry.add(bench_coordination(kBenchCoordNoneName, Lock::kNone));
  registry.add(bench_coordination(kBenchCoordStepName, Lock::kStep));
  registry.add(bench_coordination(kBenchCoordRunName, Lock::kRun));
}

}  // namespace reactor_bench
