// reactor-bench sqlite: commit, checkpoint and w1 in one run, then one table
// of every figure against its baseline and goal.
#pragma once

#include "checkpoint.hpp"
#include "commit.hpp"
#include "w1.hpp"

namespace reactor_bench {

struct SqliteOptions {
  CommitRateOptions commit;
  CheckpointOptions checkpoint;
  W1Options w1;
};

// The raw commit rate before and after the others, so that drift is seen; 0
// when all of them ran and every run ended as it must.
int run_sqlite(const SqliteOptions& options);

}  // namespace reactor_bench
