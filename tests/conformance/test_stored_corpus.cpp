// The stored-record corpus (tests/data, README.md there): stores written by earlier builds of
// Reactor — SQLite schema 1 and Redis layout 3 with run headers of version 1 (af05d79^), SQLite
// schema 2 and Redis layout 4 with headers of version 2 (2afbf3b), and a Redis layout 2 store
// (cc5f0e5^) — must be read by this build as their writers read them, and their unfinished runs
// carried to their end. Each case restores a corpus directory into a fresh store (a new SQLite
// file from store.sql; a fresh key prefix on the test Redis from keys.jsonl), opens it with
// open_backend and holds it to manifest.json and expected/.
//
// snapshots-v1 holds run_to_json snapshots and to_json(RunResult) files: they must read back
// unchanged and resume to the recorded outcome.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <stdlib.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "conformance/backends.hpp"
#include "data/corpus_reactors.hpp"
#include "reactor/reactor.hpp"
#include "reactor/worker.hpp"
#include "support/result_testing.hpp"

#ifndef REACTOR_CORPUS_DIR
#error "REACTOR_CORPUS_DIR (the tests/data directory) must be defined by the build"
#endif

namespace reactor::conformance {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

const fs::path kCorpus = REACTOR_CORPUS_DIR;

Value read_json(const fs::path& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  return Value::parse(in);
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

// Equal JSON, or a failure that shows the JSON patch from what was expected to what was read.
::testing::AssertionResult same_json(const Value& expected, const Value& actual) {
  if (expected == actual) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "differs from the expected JSON; patch expected -> "
                                          "actual: "
                                       << Value::diff(expected, actual).dump(1);
}

DurabilityOptions durability() {
  DurabilityOptions d;
  d.context_ttl = std::chrono::hours(24 * 365 * 20);
  return d;
}

// ---------------------------------------------------------------------------------------------
// Restoring a corpus directory into a fresh store
// ---------------------------------------------------------------------------------------------

class Store {
 public:
  virtual ~Store() = default;
  // Writes the directory's records into the (empty) store.
  virtual void restore(const fs::path& dir) = 0;
  virtual std::string url() const = 0;
  // Makes every job of `root_id` due now on a store that judges time by its own clock (Redis);
  // a store that judges it by the engine's clock (SQLite) needs nothing: move that clock.
  virtual void make_jobs_due(const std::string& root_id) = 0;
};

class SqliteStore final : public Store {
 public:
  SqliteStore() {
    char tmpl[] = "/tmp/reactor-corpus-XXXXXX";
    if (const char* d = ::mkdtemp(tmpl)) dir_ = d;
    if (dir_.empty()) throw std::runtime_error("mkdtemp failed");
    file_ = dir_ + "/store.db";
  }
  ~SqliteStore() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  void restore(const fs::path& dir) override { exec(read_text(dir / "store.sql")); }
  std::string url() const override { return "sqlite://" + file_; }
  // Jobs are due by the engine's clock here: nothing to move.
  void make_jobs_due(const std::string&) override {}

  void exec(const std::string& sql) {
    sqlite3* db = nullptr;
    if (sqlite3_open(file_.c_str(), &db) != SQLITE_OK) {
      throw std::runtime_error("cannot open " + file_);
    }
    char* error = nullptr;
    const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error);
    const std::string message = error ? error : "";
    sqlite3_free(error);
    sqlite3_close(db);
    if (rc != SQLITE_OK) throw std::runtime_error("sqlite: " + message);
  }

 private:
  std::string dir_;
  std::string file_;
};

// A fresh key prefix on the test Redis (RedisBackendFactory), deleted at teardown.
class RedisStore final : public Store {
 public:
  RedisStore() {
    if (test_redis_url().empty()) throw std::runtime_error(no_test_redis_message());
    if (!factory_.raw().error().empty()) throw std::runtime_error(factory_.raw().error());
  }

  // keys.jsonl: {"key", "type", "value", "ttl_ms"} a key, its prefix stripped. The keys whose
  // values name the writer's prefix (manifest keys_whose_values_name_the_prefix; none in the
  // layouts captured so far) get it rewritten too.
  void restore(const fs::path& dir) override {
    const Value manifest = read_json(dir / "manifest.json");
    const std::string old_prefix = manifest.at("redis_prefix").get<std::string>();
    std::set<std::string> rewrite;
    for (const auto& k : manifest.at("keys_whose_values_name_the_prefix")) {
      rewrite.insert(k.get<std::string>());
    }
    std::ifstream in(dir / "keys.jsonl");
    std::string text;
    int written = 0;
    while (std::getline(in, text)) {
      if (text.empty()) continue;
      const Value line = Value::parse(text);
      const std::string name = line.at("key").get<std::string>();
      const std::string key = prefix() + name;
      const std::string type = line.at("type").get<std::string>();
      const Value& v = line.at("value");
      auto fix = [&](std::string s) {
        if (!rewrite.count(name)) return s;
        for (std::size_t at = s.find(old_prefix); at != std::string::npos;
             at = s.find(old_prefix, at + prefix().size())) {
          s.replace(at, old_prefix.size(), prefix());
        }
        return s;
      };
      std::vector<std::string> cmd;
      if (type == "string") {
        cmd = {"SET", key, fix(v.get<std::string>())};
      } else if (type == "hash") {
        cmd = {"HSET", key};
        for (const auto& [field, value] : v.items()) {
          cmd.push_back(fix(field));
          cmd.push_back(fix(value.get<std::string>()));
        }
      } else if (type == "zset") {
        cmd = {"ZADD", key};
        for (const auto& pair : v) {
          cmd.push_back(pair.at(1).dump());
          cmd.push_back(fix(pair.at(0).get<std::string>()));
        }
      } else if (type == "set") {
        cmd = {"SADD", key};
        for (const auto& m : v) cmd.push_back(fix(m.get<std::string>()));
      } else if (type == "list") {
        cmd = {"RPUSH", key};
        for (const auto& m : v) cmd.push_back(fix(m.get<std::string>()));
      } else {
        throw std::runtime_error("keys.jsonl: key " + name + " of unknown type " + type);
      }
      command(cmd);
      if (const auto ttl = line.at("ttl_ms").get<std::int64_t>(); ttl > 0) {
        command({"PEXPIRE", key, std::to_string(ttl)});
      }
      ++written;
    }
    if (written == 0) throw std::runtime_error("no keys in " + (dir / "keys.jsonl").string());
  }

  std::string url() const override { return factory_.url(); }

  // A job is due when its member's score in ready:<queue> (and its run_at) is past; judged by
  // the server's clock.
  void make_jobs_due(const std::string& root_id) override {
    const std::string now = std::to_string(factory_.raw().time_ms());
    RawReply ids = command({"SMEMBERS", prefix() + "{" + root_id + "}:jobs"});
    for (std::size_t i = 0; i < ids->elements; ++i) {
      const std::string id(ids->element[i]->str, ids->element[i]->len);
      const std::string queue = reply_text(command({"HGET", prefix() + "job:" + id, "queue"}));
      char member[32];
      std::snprintf(member, sizeof member, "%020lld", std::stoll(id));
      command({"ZADD", prefix() + "ready:" + queue, "XX", now, member});
      command({"HSET", prefix() + "job:" + id, "run_at", now});
    }
  }

  std::string get(const std::string& name) { return reply_text(command({"GET", prefix() + name})); }

 private:
  const std::string& prefix() const { return factory_.prefix(); }
  RawReply command(const std::vector<std::string>& args) {
    RawReply r = factory_.raw().command(args);
    if (!r || r->type == REDIS_REPLY_ERROR) {
      throw std::runtime_error("redis " + args[0] + ": " + reply_text(r));
    }
    return r;
  }

  RedisBackendFactory factory_;
};

std::unique_ptr<Store> store_for(const std::string& dir_name) {
  if (dir_name.rfind("sqlite-", 0) == 0) return std::make_unique<SqliteStore>();
  return std::make_unique<RedisStore>();
}

// ---------------------------------------------------------------------------------------------
// The stored corpora
// ---------------------------------------------------------------------------------------------

class StoredCorpus : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    dir_ = kCorpus / GetParam();
    ASSERT_TRUE(fs::exists(dir_ / "manifest.json")) << dir_ << " has no manifest.json";
    manifest_ = read_json(dir_ / "manifest.json");
    store_ = store_for(GetParam());
    store_->restore(dir_);
  }

  // An engine on the restored store, judging time by `clock`.
  void open(std::shared_ptr<Clock> clock) {
    engine_.reset();
    std::unique_ptr<Backend> backend;
    Status s = assign_or_status(backend, open_backend(store_->url(), clock));
    ASSERT_TRUE(s.ok()) << s.to_string();
    EngineOptions o;
    o.clock = std::move(clock);
    o.backend = std::move(backend);
    o.durability = durability();
    engine_ = std::make_unique<Engine>(std::move(o));
    corpus::register_all(engine_->registry());
  }

  const Value& run_named(const std::string& name) const {
    for (const auto& r : manifest_.at("runs")) {
      if (r.at("name") == name) return r;
    }
    throw std::runtime_error("the manifest has no run named " + name);
  }

  Value expected(const Value& run) const {
    return read_json(dir_ / run.at("expected").get<std::string>());
  }

  Value found(const std::string& id) {
    Result<RunResult> r = engine_->find(id);
    EXPECT_TRUE(r.ok()) << id << ": " << r.status().to_string();
    return to_json(r.value_or(RunResult{}));
  }

  // A worker serving `reactor` until the run is terminal (30 s at most).
  RunResult carry_to_end(const std::string& reactor, const std::string& id) {
    WorkerOptions wo;
    wo.threads = 1;
    wo.sweeper = false;
    wo.reactors = {reactor};
    wo.poll_interval = 10ms;
    wo.idle_wait = 100ms;
    Worker worker(*engine_, wo);
    worker.start();
    RunResult r;
    for (int i = 0; i < 3000; ++i) {
      if (assign_if_ok(r, engine_->find(id)) && is_terminal(r.status)) break;
      std::this_thread::sleep_for(10ms);
    }
    worker.stop();
    worker.wait();
    return r;
  }

  void expect_end(const Value& run, const RunResult& r) {
    const Value& end = run.at("end");
    EXPECT_EQ(to_string(r.status), end.at("status").get<std::string>()) << run.at("id");
    EXPECT_EQ(r.trace_summary(), end.at("trace_summary").get<std::string>()) << run.at("id");
    EXPECT_TRUE(same_json(end.at("value"), r.value)) << run.at("id");
    EXPECT_FALSE(r.error.has_value()) << run.at("id");
  }

  fs::path dir_;
  Value manifest_;
  std::unique_ptr<Store> store_;
  std::unique_ptr<Engine> engine_;
};

TEST_P(StoredCorpus, EveryRunReadsBackAsItsWriterReadIt) {
  open(SystemClock::instance());
  // corpus_gen's runs, each once; `order_input_invalid` only from builds that stored invalid
  // inputs (later ones refuse them before storing anything).
  std::multiset<std::string> names;
  for (const auto& run : manifest_.at("runs")) names.insert(run.at("name").get<std::string>());
  names.erase("order_input_invalid");
  ASSERT_EQ(names, (std::multiset<std::string>{
                       "interrupted", "order_completed", "order_failed", "halted",
                       "compose_completed", "compose_child_failed", "map_completed",
                       "map_atomic_failed", "skipped", "retry_waiting", "enqueued"}));
  for (const auto& run : manifest_.at("runs")) {
    const std::string id = run.at("id").get<std::string>();
    EXPECT_TRUE(same_json(expected(run), found(id)))
        << "run " << id << " (" << run.at("name") << ")";
  }
  RunFilter all;
  all.limit = 1000;
  std::vector<RunHeaderRow> listed;
  Status s = assign_or_status(listed, engine_->backend()->list_runs(all));
  ASSERT_TRUE(s.ok()) << s.to_string();
  Value list = Value::array();
  for (const auto& h : listed) {
    list.push_back({{"id", h.id}, {"status", to_string(h.status)}, {"reactor", h.reactor}});
  }
  EXPECT_TRUE(same_json(read_json(dir_ / manifest_.at("list_runs").get<std::string>()), list));
}

TEST_P(StoredCorpus, TheEnqueuedRunRunsToItsEnd) {
  open(SystemClock::instance());
  const Value& run = run_named("enqueued");
  const std::string id = run.at("id").get<std::string>();
  ASSERT_EQ(found(id).at("status"), "enqueued");
  RunResult r = carry_to_end(run.at("reactor").get<std::string>(), id);
  expect_end(run, r);
}

TEST_P(StoredCorpus, TheInterruptedRunIsSweptAndRunsToItsEnd) {
  open(SystemClock::instance());
  const Value& run = run_named("interrupted");
  const std::string id = run.at("id").get<std::string>();
  ASSERT_TRUE(same_json(expected(run), found(id)));
  ASSERT_EQ(found(id).at("status"), "running");
  bool has_job = true;
  ASSERT_OK_AND_ASSIGN(has_job, engine_->backend()->has_job(id));
  EXPECT_FALSE(has_job);
  // Its lease lapsed long ago: the sweep hands it back to the queue; nothing is purged (the
  // corpus's retention is 20 years).
  Result<SweepResult> swept = engine_->sweep_once();
  ASSERT_TRUE(swept.ok()) << swept.status().to_string();
  EXPECT_GE(swept->requeued, 1u);
  EXPECT_EQ(swept->purged, 0u);
  ASSERT_OK_AND_ASSIGN(has_job, engine_->backend()->has_job(id));
  EXPECT_TRUE(has_job);
  RunResult r = carry_to_end(run.at("reactor").get<std::string>(), id);
  expect_end(run, r);
  const StepOutcome* first = r.step("first");
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(first->attempts, 1) << "first completed before the crash: it must not run again";
}

TEST_P(StoredCorpus, TheRetryWaitingRunWaitsThenRunsToItsEnd) {
  const Value& run = run_named("retry_waiting");
  const std::string id = run.at("id").get<std::string>();
  const std::string reactor = run.at("reactor").get<std::string>();
  {
    // By the real clock its retry is years away: a worker leaves it as it is.
    open(SystemClock::instance());
    ASSERT_TRUE(same_json(expected(run), found(id)));
    bool has_job = false;
    ASSERT_OK_AND_ASSIGN(has_job, engine_->backend()->has_job(id));
    EXPECT_TRUE(has_job);
    WorkerOptions wo;
    wo.threads = 1;
    wo.sweeper = false;
    wo.reactors = {reactor};
    wo.poll_interval = 10ms;
    wo.idle_wait = 100ms;
    {
      Worker worker(*engine_, wo);
      worker.start();
      std::this_thread::sleep_for(300ms);
      worker.stop();
      worker.wait();
      EXPECT_EQ(worker.stats().jobs, 0u) << "a job due years from now was delivered";
    }
    EXPECT_TRUE(same_json(expected(run), found(id)));
  }
  // Past the retry: the engine's clock (and SQLite's) a day past the backoff from now; the job's
  // due time moved to now on a store with its own clock (Redis).
  const TimePoint later = SystemClock::instance()->now() + corpus::kRetryBackoff + 24h;
  open(std::make_shared<ManualClock>(later));
  store_->make_jobs_due(id);
  RunResult r = carry_to_end(reactor, id);
  expect_end(run, r);
  const StepOutcome* call = r.step("call_partner");
  ASSERT_NE(call, nullptr);
  EXPECT_EQ(call->attempts, 2);
}

std::vector<std::string> stored_corpora() {
  return {"sqlite-schema1",  "sqlite-schema2", "sqlite-schema11",
          "sqlite-schema12", "redis-layout3",  "redis-layout4"};
}

INSTANTIATE_TEST_SUITE_P(Corpus, StoredCorpus, ::testing::ValuesIn(stored_corpora()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           for (char& c : name) {
                             if (c == '-') c = '_';
                           }
                           return name;
                         });

// Redis layout 2 (58ef1d5 .. cc5f0e5^) has no migration: this build refuses it, naming the
// version, and leaves it as it was.
TEST(StoredCorpusRedisLayout2, IsRefusedAsUnavailableNamingItsVersion) {
  RedisStore store;
  store.restore(kCorpus / "redis-layout2");
  std::unique_ptr<Backend> backend;
  Status s = assign_or_status(backend, open_backend(store.url(), nullptr));
  EXPECT_EQ(s.code(), StatusCode::kUnavailable) << s.to_string();
  EXPECT_NE(s.message().find("layout version 2"), std::string::npos) << s.message();
  EXPECT_EQ(backend, nullptr);
  EXPECT_EQ(store.get("layout_version"), "2");
}

// ---------------------------------------------------------------------------------------------
// Snapshots (run_to_json) and results (to_json(RunResult)) as the current code writes them
// ---------------------------------------------------------------------------------------------

TEST(StoredCorpusSnapshots, ReadBackUnchangedAndResumeToTheRecordedOutcome) {
  const fs::path dir = kCorpus / "snapshots-v1";
  const Value manifest = read_json(dir / "manifest.json");
  ASSERT_GE(manifest.at("snapshots").size(), 4u);
  for (const auto& sc : manifest.at("snapshots")) {
    const std::string name = sc.at("name").get<std::string>();
    SCOPED_TRACE(name);
    const Value snapshot = read_json(dir / (name + ".snapshot.json"));
    const Value result = read_json(dir / (name + ".result.json"));
    const Value resumed_expected = read_json(dir / (name + ".resumed.json"));

    // Written again by this build, a snapshot holds what it held, at this build's version (the
    // members later versions added are left out while they hold their defaults).
    reactor::Run run = run_from_json(snapshot);
    Value rewritten = run_to_json(run);
    EXPECT_EQ(rewritten.at("schema_version"), reactor::Run::kSchemaVersion);
    rewritten["schema_version"] = snapshot.at("schema_version");
    EXPECT_TRUE(same_json(snapshot, rewritten));
    EXPECT_TRUE(same_json(result, to_json(make_run_result(run))));
    EXPECT_TRUE(same_json(result, to_json(run_result_from_json(result))));
    EXPECT_TRUE(same_json(resumed_expected, to_json(run_result_from_json(resumed_expected))));

    EngineOptions o;
    o.clock =
        std::make_shared<ManualClock>(from_unix_ms(sc.at("resume_clock_ms").get<std::int64_t>()));
    o.random_seed = manifest.at("random_seed").get<std::uint64_t>();
    Engine engine(std::move(o));
    corpus::register_all(engine.registry());
    RunResult resumed = engine.resume(std::move(run));
    EXPECT_TRUE(same_json(resumed_expected, to_json(resumed)));
  }
}

}  // namespace
}  // namespace reactor::conformance
