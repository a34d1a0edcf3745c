// Heap counting for reactor-bench engine's bytes and allocation counters.
//
// heap_counter.cpp replaces the global operator new and delete (all forms) of
// the whole reactor-bench binary with malloc/free plus, while counting is on,
// a count of each block at its malloc_usable_size. Counting is off except
// around the engine benchmarks' untimed measuring runs: every other
// subcommand, and the timed loops, get malloc and free behind one relaxed
// load and a branch.
#pragma once

#include <cstdint>

namespace reactor_bench::heap {

struct Snapshot {
  std::int64_t live;
  std::int64_t allocs;
};

// Starts counting from zero. Frees of blocks allocated before start() would be
// miscounted; the measured window only frees what it allocated itself.
void start();
Snapshot snapshot();
// The highest live total since start(), and the live total now.
std::int64_t peak();
std::int64_t live();
void stop();

}  // namespace reactor_bench::heap
