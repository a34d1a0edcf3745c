#include "saga/bench_resume.hpp"

#include "saga/unix_time.hpp"

namespace reactor_bench {

using namespace reactor;

Definition bench_resume() {
  return Builder(kBenchResumeName)
      .interrupt("go")
      .step("after", [](const Args&) { return Success(unix_us()); })
      .wait_for("go")
      .build();
}

void register_bench_resume(Registry& registry) { registry.add(bench_resume()); }

}  // namespace reactor_bench
