// reactor-bench dashboard (bench/README.md): the runs list and a large map's run page, timed
// from an HTTP client on loopback while nothing else runs.
#include "dashboard.hpp"

#include <httplib.h>

#include <chrono>
#include <cstdio>

#include "reactor/dashboard.hpp"
#include "reactor/reactor.hpp"
#include "saga/bench_fan.hpp"
#include "support.hpp"

namespace reactor_bench {

using namespace reactor;

namespace {

constexpr const char* kListed = "BenchListed";
constexpr int kBatch = 1000;  // runs per start request while seeding

Definition listed() {
  return Builder(kListed)
      .input("i", integer())
      .step("only", [](const Args& a) { return Success(a.get<std::int64_t>("i")); })
      .argument("i", input("i"))
      .build();
}

// `n` runs started in the background (never executed: they stay enqueued).
Status seed_runs(Engine& engine, int n) {
  for (int done = 0; done < n; done += kBatch) {
    std::vector<Value> inputs;
    for (int i = done; i < std::min(n, done + kBatch); ++i) inputs.push_back({{"i", i}});
    BackgroundBatch batch = engine.run_many_in_background(kListed, std::move(inputs));
    if (!batch.ok()) return batch.status;
  }
  return Status::Ok();
}

// One BenchFan run over `elements` elements, executed here to its end.
Result<std::string> seed_map(Engine& engine, int elements) {
  Result<std::string> id =
      engine.run_in_background(kBenchFanName, {{"m", elements}, {"batch", 500}, {"t_enq", 0}});
  if (!id.ok()) return id.status();
  if (Status s = engine.run_due_jobs(kBenchFanName); !s.ok()) return s;
  Result<RunResult> r = engine.find(*id);
  if (!r.ok()) return r.status();
  if (r->status != RunStatus::kCompleted) {
    return Status::Internal("the map run ended " + std::string(to_string(r->status)));
  }
  return id;
}

// Milliseconds of each of `n` GETs of `path`; an answer other than 200 is an error.
Status time_gets(httplib::Client& client, const std::string& path, int n, std::vector<double>& ms) {
  for (int i = 0; i < n; ++i) {
    const auto start = std::chrono::steady_clock::now();
    auto res = client.Get(path);
    const auto end = std::chrono::steady_clock::now();
    if (!res) return Status::Unavailable("GET " + path + ": no answer");
    if (res->status != 200) {
      return Status::Internal("GET " + path + ": " + std::to_string(res->status) + " " +
                              res->body.substr(0, 200));
    }
    ms.push_back(std::chrono::duration<double, std::milli>(end - start).count());
  }
  return Status::Ok();
}

void print_latency(const char* what, const std::vector<double>& ms, double goal_ms) {
  const double p50 = percentile(ms, 50);
  std::printf("  %-44s p50 %7.1f ms  p99 %7.1f ms  (goal %.0f ms: %s)\n", what, p50,
              percentile(ms, 99), goal_ms, p50 < goal_ms ? "met" : "NOT met");
}

Status measure(Engine& engine, const DashboardBenchOptions& o, const std::string& map_id) {
  Dashboard dashboard(engine, DashboardOptions{.port = 0, .token = {}});
  if (Status s = dashboard.start(); !s.ok()) return s;
  httplib::Client client("127.0.0.1", dashboard.port());
  std::vector<double> list_ms, run_ms;
  if (Status s = time_gets(client, "/api/runs?limit=50", o.requests, list_ms); !s.ok()) return s;
  if (Status s = time_gets(client, "/api/runs/" + map_id, o.requests, run_ms); !s.ok()) return s;
  print_latency(("runs list, first page (" + grouped(o.runs + 1.0) + " runs)").c_str(), list_ms,
                100);
  print_latency(("run page of a " + grouped(o.elements) + "-element map").c_str(), run_ms, 200);
  return Status::Ok();
}

}  // namespace

int run_dashboard_bench(const DashboardBenchOptions& o) {
  ScratchDir dir(o.dir);
  if (o.storage.empty() && dir.path().empty()) {
    std::fprintf(stderr, "reactor-bench dashboard: %s\n", dir.error().c_str());
    return 1;
  }
  const std::string storage = o.storage.empty() ? dir.sqlite_url("dashboard.db") : o.storage;
  Result<std::unique_ptr<Backend>> backend = open_backend(storage, SystemClock::instance());
  if (!backend.ok()) {
    std::fprintf(stderr, "reactor-bench dashboard: %s\n", backend.status().to_string().c_str());
    return 1;
  }
  EngineOptions options;
  options.backend = std::move(backend).value();
  Engine engine(std::move(options));
  engine.registry().add(listed());
  register_bench_fan(engine.registry(), BenchFanOptions{});
  std::printf("reactor-bench dashboard: %s; %s\n", storage.c_str(), machine_note().c_str());
  std::printf("  seeding %s runs and a %s-element map...\n", grouped(o.runs).c_str(),
              grouped(o.elements).c_str());
  Status s = seed_runs(engine, o.runs);
  Result<std::string> map_id = s.ok() ? seed_map(engine, o.elements) : Result<std::string>(s);
  if (map_id.ok()) s = measure(engine, o, *map_id);
  if (!map_id.ok() || !s.ok()) {
    const Status& why = map_id.ok() ? s : map_id.status();
    std::fprintf(stderr, "reactor-bench dashboard: FAILED: %s\n", why.to_string().c_str());
    return 1;
  }
  return 0;
}

}  // namespace reactor_bench
