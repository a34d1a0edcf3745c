// reactor-bench engine and reactor-bench records: the Google Benchmark
// programs, each a subcommand that registers its own benchmarks and runs them
// with the flags given after it (--benchmark_filter=..., --benchmark_min_time=...).
#pragma once

#include <string>
#include <vector>

namespace reactor_bench {

// engine.cpp: engine overhead per step, no persistence.
void register_engine_benchmarks();
// records.cpp: decoding the rows of a fetched run.
void register_records_benchmarks();

// Registers with `register_benchmarks`, then runs what `flags` select; 2 when a
// flag is not Google Benchmark's, 1 when they select no benchmark. `program`
// names the command in its output.
int run_google_benchmarks(const std::string& program, const std::vector<std::string>& flags,
                          void (*register_benchmarks)());

}  // namespace reactor_bench
