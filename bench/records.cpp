// reactor-bench records: reading the rows a worker gets with a fetched run (see
// bench/README.md).
//
//   ./build/release/reactor-bench records [Google Benchmark flags]
//
// BM_DecodeFetchedRun decodes the rows of one W1 saga as its fetch brings them (the header,
// the inputs, five pending step rows) into the Run the engine starts from: the decoder the
// engine uses. BM_ParseFetchedRowsAsValues is the baseline measured in the same run: the same
// rows each parsed whole into a Value, what reading them through nlohmann costs before any
// field is taken out. The Mid variants hold a saga with two steps done (their results, ~200
// bytes each, are parsed into Values either way).
#include <benchmark/benchmark.h>

#include <string>

#include "records/run_rows.hpp"
#include "google_benchmark.hpp"
#include "reactor/backend.hpp"
#include "reactor/run.hpp"

namespace {

using reactor::Value;

reactor::StoredRun w1_rows(int steps_done) {
  reactor::Run run;
  run.id = run.root_id = "0f8c3a52-9d4e-4b7a-8c1f-2e6d5a4b3c21";
  run.reactor = "BenchSaga";
  run.fingerprint = "eb8d00580e5c3252";
  run.status = reactor::RunStatus::kRunning;
  run.created_at_ms = run.updated_at_ms = 1'796'046'584'460;
  run.inputs = Value{{"counter", 0},
                     {"pad", std::string(140, 'x')},
                     {"saga", "s000042"},
                     {"t_enq", 1796046584460.1687}};
  for (int k = 1; k <= 5; ++k) {
    reactor::StepRecord s;
    s.name = "s" + std::to_string(k);
    if (k <= steps_done) {
      s.status = reactor::StepStatus::kCompleted;
      s.result = run.inputs;
      s.result["counter"] = k;
      s.attempts = 1;
      s.completion_seq = static_cast<std::uint64_t>(k);
      s.started_at_ms = s.finished_at_ms = run.created_at_ms;
      s.body_started = true;
    }
    run.steps.push_back(s);
  }
  run.next_completion_seq = static_cast<std::uint64_t>(steps_done) + 1;
  reactor::CommitRequest c;
  reactor::records::encode_whole_run(run, 0, c);
  reactor::StoredRun stored;
  static_cast<reactor::RunRows&>(stored) = c;
  stored.fencing_token = 1;
  return stored;
}

void decode_rows(benchmark::State& state, int steps_done) {
  const reactor::StoredRun rows = w1_rows(steps_done);
  for (auto _ : state) {
    reactor::Run run;
    if (!reactor::records::decode_run(rows, run).ok()) {
      state.SkipWithError("the rows did not decode");
      return;
    }
    benchmark::DoNotOptimize(run);
  }
}

void parse_rows_as_values(benchmark::State& state, int steps_done) {
  const reactor::StoredRun rows = w1_rows(steps_done);
  for (auto _ : state) {
    Value header = Value::parse(rows.headers.front().body);
    Value inputs = Value::parse(rows.inputs.front().inputs);
    benchmark::DoNotOptimize(header);
    benchmark::DoNotOptimize(inputs);
    for (const auto& row : rows.steps) {
      Value step = Value::parse(row.body);
      benchmark::DoNotOptimize(step);
    }
  }
}

void BM_DecodeFetchedRun(benchmark::State& state) { decode_rows(state, 0); }
void BM_ParseFetchedRowsAsValues(benchmark::State& state) { parse_rows_as_values(state, 0); }
void BM_DecodeFetchedRunMid(benchmark::State& state) { decode_rows(state, 2); }
void BM_ParseFetchedRowsAsValuesMid(benchmark::State& state) { parse_rows_as_values(state, 2); }

}  // namespace

namespace reactor_bench {

void register_records_benchmarks() {
  benchmark::RegisterBenchmark("BM_DecodeFetchedRun", BM_DecodeFetchedRun)
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("BM_ParseFetchedRowsAsValues", BM_ParseFetchedRowsAsValues)
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("BM_DecodeFetchedRunMid", BM_DecodeFetchedRunMid)
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("BM_ParseFetchedRowsAsValuesMid", BM_ParseFetchedRowsAsValuesMid)
      ->Unit(benchmark::kMicrosecond);
}

}  // namespace reactor_bench
