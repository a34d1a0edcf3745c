#include "google_benchmark.hpp"

#include <benchmark/benchmark.h>

namespace reactor_bench {

int run_google_benchmarks(const std::string& program, const std::vector<std::string>& flags,
                          void (*register_benchmarks)()) {
  register_benchmarks();
  std::vector<std::string> args = {program};
  args.insert(args.end(), flags.begin(), flags.end());
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  int argc = static_cast<int>(args.size());
  benchmark::Initialize(&argc, argv.data());
  if (benchmark::ReportUnrecognizedArguments(argc, argv.data())) return 2;
  // None selected (a --benchmark_filter matching nothing): Google Benchmark says so on stderr.
  const std::size_t ran = benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return ran > 0 ? 0 : 1;
}

}  // namespace reactor_bench
