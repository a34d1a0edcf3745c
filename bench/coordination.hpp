// reactor-bench coordination: what coordination costs (issue 25), on SQLite or Redis, through an
// in-process Worker.
//  - Store requests per step: the same one-step reactor with no lock, with a step-level
//    with_lock and with a reactor-level with_lock, each run on its own key (no contention),
//    served by one worker thread (goal: a lock costs at most one request more).
//  - A hot key: `hot_runs` runs all on one key (a reactor-level lock), each step sleeping
//    `step_ms`, served by `threads` worker threads that contend for it; runs/s against
//    1 / (step time + one commit), the commit timed in the same invocation (the median of a
//    serial, unlocked phase's commits). Twice: with the engine's default snooze and with a short
//    one (goal: ≥ 0.70 on Redis).
#pragma once

#include <string>

namespace reactor_bench {

struct CoordinationOptions {
  int runs = 200;      // per variant, for the request counts
  int hot_runs = 500;  // 0: no hot-key phases
  int step_ms = 2;     // the hot phases' step body
  int threads = 2;     // worker threads serving the hot key
  int short_snooze_ms = 5;
  int short_jitter_ms = 5;
  std::string storage;  // sqlite:// or redis://; empty: a scratch SQLite file
  std::string dir;
  double timeout_s = 600;  // per phase
};

// 0 when every run of every phase completed.
int run_coordination(const CoordinationOptions& options);

}  // namespace reactor_bench
