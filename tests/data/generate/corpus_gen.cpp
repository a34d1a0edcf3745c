// Writes the stored-record corpus of tests/data (see tests/data/README.md) with whatever build of
// Reactor it is compiled against: generate.sh compiles it against the library of an old commit to
// capture how that commit's storage wrote its records.
//
//   corpus_gen store URL OUT      runs the corpus's runs on the (fresh, empty) store at URL and
//                                 writes OUT/manifest.json, OUT/expected/<run id>.json,
//                                 OUT/expected/list_runs.json, and for Redis OUT/keys.jsonl
//                                 (every key under the URL's prefix). SQLite's store.sql is
//                                 dumped by generate.sh once this program has closed the file.
//   corpus_gen snapshots OUT      in-process runs on a ManualClock, snapshotted with
//                                 RunOptions::on_checkpoint: OUT/<name>.snapshot.json
//                                 (run_to_json), <name>.result.json (to_json(make_run_result))
//                                 and <name>.resumed.json (to_json of the resumed RunResult).
//
// Only Reactor's public headers are used (the API is the same at every commit captured). hiredis
// and sqlite3 are used directly only to read the store's version and dump the Redis keys.
#include <hiredis/hiredis.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <optional>
#include <reactor/backend.hpp>
#include <reactor/reactor.hpp>
#include <reactor/worker.hpp>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "corpus_reactors.hpp"

using namespace reactor;
namespace fs = std::filesystem;
using std::chrono::milliseconds;

namespace {

// Builds whose run headers name the execution that wrote them (exec_token) let the sweeper see
// that the dead process's attempt at a step was lost, and a run's trace then says so.
constexpr bool kHeadersNameTheirExecution = requires(RunHeaderRow h) { h.exec_token; };

// What became of a delivery, by name: builds before DeliveryOutcome passed the name itself.
[[maybe_unused]] std::string outcome_name(const char* name) { return name; }
template <typename Outcome>
std::string outcome_name(Outcome outcome) {
  return to_string(outcome);
}

[[noreturn]] void die(const std::string& what) {
  std::cerr << "corpus_gen: " << what << "\n";
  std::exit(1);
}

void check(const Status& s, const std::string& what) {
  if (!s.ok()) die(what + ": " + s.to_string());
}

void write_json(const fs::path& path, const Value& v) {
  fs::create_directories(path.parent_path());
  std::ofstream out(path);
  out << v.dump(2) << "\n";
  if (!out) die("cannot write " + path.string());
}

// ~20 years: nothing of the corpus expires before it is read.
constexpr Duration kRetention = std::chrono::hours(24 * 365 * 20);

DurabilityOptions durability() {
  DurabilityOptions d;
  d.context_ttl = kRetention;
  return d;
}

// ---------------------------------------------------------------------------------------------
// The runs
// ---------------------------------------------------------------------------------------------

Value customer() {
  return {{"name", "Zoë Ångström"},
          {"address", {{"city", "Köln"}, {"lines", {"Hauptstraße 1", "3. OG"}}, {"zip", "50667"}}},
          {"tags", {"vip", 7, nullptr, true, 2.5, -0.125}},
          {"limits", {{"daily", 9007199254740993ULL}, {"negative", -9007199254740993LL}}}};
}

Value order_inputs(int order_id, bool fail_ship) {
  Value in = {{"order_id", order_id},
              {"customer", customer()},
              {"note", "naïve – ✓"},
              {"remark", "tab\there \"quoted\" back\\slash\nnew line \u0001 🚚"},
              {"amount", 9007199254740993ULL},
              {"card", "4242-4242"}};
  if (fail_ship) in["fail_ship"] = true;
  return in;
}

struct RunEntry {
  std::string id;
  std::string name;
  std::string reactor;
  std::string exercises;
  // How the test carries the run on ("" = it is terminal and only read back).
  std::string carry_on;
  Value end;  // what the run must end as, once carried on
};

// One synchronous durable run under a fixed id.
void run_sync(Engine& engine, std::vector<RunEntry>& runs, RunEntry e, const Value& inputs) {
  RunOptions o;
  o.run_id = e.id;
  RunResult r = engine.run(e.reactor, inputs, o);
  std::cerr << "  " << e.id << ": " << to_string(r.status) << " | " << r.trace_summary() << "\n";
  // Later builds refuse invalid inputs before storing anything: such a run is no record of theirs.
  if (r.status == RunStatus::kFailed &&
      engine.find(e.id).status().code() == StatusCode::kNotFound) {
    std::cerr << "  " << e.id << ": failed before it was stored (left out)\n";
    return;
  }
  runs.push_back(std::move(e));
}

// The child process of the interrupted run: a fresh engine on the same store, lease ttl 1 s,
// whose CorpusCrash step "second" ends the process inside its body.
[[noreturn]] void crash_child(const std::string& url, const std::string& id) {
  Result<std::unique_ptr<Backend>> backend = open_backend(url, SystemClock::instance());
  if (!backend.ok()) ::_exit(2);
  EngineOptions eo;
  eo.backend = std::move(backend).value();
  eo.durability = durability();
  eo.durability.lease_ttl = std::chrono::seconds(1);
  Engine engine(std::move(eo));
  corpus::register_all(engine.registry());
  corpus::crash_inside_second_step() = true;
  RunOptions o;
  o.run_id = id;
  engine.run("CorpusCrash", {{"batch", "b-7"}}, o);
  ::_exit(3);  // the step did not end the process
}

// ---------------------------------------------------------------------------------------------
// Redis: a raw connection to dump the keys and read the layout version
// ---------------------------------------------------------------------------------------------

struct RedisUrl {
  std::string host = "127.0.0.1";
  int port = 6379;
  std::string user, password, db = "0", prefix = "reactor:";
};

std::string percent_decode(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size()) {
      out += static_cast<char>(std::stoi(s.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

RedisUrl parse_redis_url(const std::string& url) {
  RedisUrl u;
  std::string rest = url.substr(url.find("://") + 3);
  std::string query;
  if (auto q = rest.find('?'); q != std::string::npos) {
    query = rest.substr(q + 1);
    rest = rest.substr(0, q);
  }
  if (auto slash = rest.find('/'); slash != std::string::npos) {
    if (slash + 1 < rest.size()) u.db = rest.substr(slash + 1);
    rest = rest.substr(0, slash);
  }
  if (auto at = rest.rfind('@'); at != std::string::npos) {
    const std::string info = rest.substr(0, at);
    rest = rest.substr(at + 1);
    const auto colon = info.find(':');
    u.user = colon == std::string::npos ? "" : percent_decode(info.substr(0, colon));
    u.password = percent_decode(colon == std::string::npos ? info : info.substr(colon + 1));
  }
  if (auto colon = rest.rfind(':'); colon != std::string::npos) {
    u.port = std::atoi(rest.c_str() + colon + 1);
    rest = rest.substr(0, colon);
  }
  if (!rest.empty()) u.host = rest;
  std::size_t start = 0;
  while (start <= query.size() && !query.empty()) {
    std::size_t end = query.find('&', start);
    if (end == std::string::npos) end = query.size();
    const std::string kv = query.substr(start, end - start);
    if (kv.rfind("prefix=", 0) == 0) u.prefix = percent_decode(kv.substr(7));
    start = end + 1;
  }
  return u;
}

class Raw {
 public:
  explicit Raw(const RedisUrl& u) {
    timeval tv{5, 0};
    ctx_ = redisConnectWithTimeout(u.host.c_str(), u.port, tv);
    if (!ctx_ || ctx_->err) die("cannot connect to redis");
    // cmd() ends the program on an error reply.
    if (!u.password.empty()) {
      if (u.user.empty()) {
        cmd({"AUTH", u.password});
      } else {
        cmd({"AUTH", u.user, u.password});
      }
    }
    cmd({"SELECT", u.db});
  }
  ~Raw() { redisFree(ctx_); }

  using Reply = std::unique_ptr<redisReply, void (*)(void*)>;
  Reply cmd(const std::vector<std::string>& args) {
    std::vector<const char*> argv;
    std::vector<std::size_t> len;
    for (const auto& a : args) {
      argv.push_back(a.data());
      len.push_back(a.size());
    }
    auto* r = static_cast<redisReply*>(
        redisCommandArgv(ctx_, static_cast<int>(argv.size()), argv.data(), len.data()));
    if (!r) die("redis connection lost");
    if (r->type == REDIS_REPLY_ERROR) die("redis error on " + args[0] + ": " + r->str);
    return Reply(r, freeReplyObject);
  }

 private:
  redisContext* ctx_ = nullptr;
};

std::string str(const redisReply* r) { return r->str ? std::string(r->str, r->len) : ""; }

// A zset score as Redis prints it: an integer (every score here is a time in ms) or a double.
Value score_value(const std::string& s) {
  const double d = std::stod(s);
  if (d == static_cast<double>(static_cast<long long>(d))) return static_cast<long long>(d);
  return d;
}

// Every key under the prefix, prefix stripped, one JSON object a line, sorted by key. Returns
// the keys whose value (a string, a hash field or value, a member) contains the prefix.
std::vector<std::string> dump_redis(Raw& raw, const std::string& prefix, const fs::path& out_path) {
  std::string pattern;
  for (char c : prefix) {
    if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\') pattern += '\\';
    pattern += c;
  }
  pattern += '*';
  std::set<std::string> keys;
  std::string cursor = "0";
  do {
    auto r = raw.cmd({"SCAN", cursor, "MATCH", pattern, "COUNT", "1000"});
    cursor = str(r->element[0]);
    for (std::size_t i = 0; i < r->element[1]->elements; ++i)
      keys.insert(str(r->element[1]->element[i]));
  } while (cursor != "0");

  std::vector<std::string> embedding;
  std::ofstream out(out_path);
  for (const std::string& key : keys) {
    const std::string type = str(raw.cmd({"TYPE", key}).get());
    Value line = {{"key", key.substr(prefix.size())}, {"type", type}};
    bool embeds = false;
    auto note = [&](const std::string& s) {
      if (s.find(prefix) != std::string::npos) embeds = true;
    };
    if (type == "string") {
      std::string v = str(raw.cmd({"GET", key}).get());
      note(v);
      line["value"] = v;
    } else if (type == "hash") {
      auto r = raw.cmd({"HGETALL", key});
      Value v = Value::object();
      for (std::size_t i = 0; i + 1 < r->elements; i += 2) {
        note(str(r->element[i]));
        note(str(r->element[i + 1]));
        v[str(r->element[i])] = str(r->element[i + 1]);
      }
      line["value"] = v;
    } else if (type == "zset") {
      auto r = raw.cmd({"ZRANGE", key, "0", "-1", "WITHSCORES"});
      Value v = Value::array();
      for (std::size_t i = 0; i + 1 < r->elements; i += 2) {
        note(str(r->element[i]));
        v.push_back({str(r->element[i]), score_value(str(r->element[i + 1]))});
      }
      line["value"] = v;
    } else if (type == "set") {
      auto r = raw.cmd({"SMEMBERS", key});
      std::set<std::string> members;
      for (std::size_t i = 0; i < r->elements; ++i) members.insert(str(r->element[i]));
      Value v = Value::array();
      for (const auto& m : members) {
        note(m);
        v.push_back(m);
      }
      line["value"] = v;
    } else if (type == "list") {
      auto r = raw.cmd({"LRANGE", key, "0", "-1"});
      Value v = Value::array();
      for (std::size_t i = 0; i < r->elements; ++i) {
        note(str(r->element[i]));
        v.push_back(str(r->element[i]));
      }
      line["value"] = v;
    } else {
      die("key " + key + " has an unexpected type " + type);
    }
    line["ttl_ms"] = raw.cmd({"PTTL", key})->integer;
    if (line["ttl_ms"].get<long long>() < 0) line["ttl_ms"] = -1;
    if (embeds) embedding.push_back(key.substr(prefix.size()));
    out << line.dump() << "\n";
  }
  if (!out) die("cannot write " + out_path.string());
  return embedding;
}

int sqlite_schema_version(const std::string& file) {
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(file.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
    die("cannot open " + file);
  }
  sqlite3_stmt* st = nullptr;
  int version = 0;
  if (sqlite3_prepare_v2(db, "SELECT value FROM meta WHERE key = 'schema_version'", -1, &st,
                         nullptr) == SQLITE_OK &&
      sqlite3_step(st) == SQLITE_ROW) {
    version = std::atoi(reinterpret_cast<const char*>(sqlite3_column_text(st, 0)));
  }
  sqlite3_finalize(st);
  sqlite3_close(db);
  return version;
}

std::set<int> sqlite_header_versions(const std::string& file) {
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(file.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
    die("cannot open " + file);
  }
  sqlite3_stmt* st = nullptr;
  std::set<int> versions;
  if (sqlite3_prepare_v2(db, "SELECT DISTINCT schema_version FROM runs", -1, &st, nullptr) ==
      SQLITE_OK) {
    while (sqlite3_step(st) == SQLITE_ROW) versions.insert(sqlite3_column_int(st, 0));
  }
  sqlite3_finalize(st);
  sqlite3_close(db);
  return versions;
}

std::string sqlite_file_of(const std::string& url) {
  std::string rest = url.substr(std::string("sqlite:").size());
  if (rest.rfind("//", 0) == 0) rest = rest.substr(2);
  return rest.substr(0, rest.find('?'));
}

std::string env_or(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return v && *v ? v : fallback;
}

// ---------------------------------------------------------------------------------------------
// corpus_gen store URL OUT
// ---------------------------------------------------------------------------------------------

int generate_store(const std::string& url, const fs::path& out) {
  const bool redis = url.rfind("redis://", 0) == 0;
  const std::string crash_id = "corpus-crash-interrupted";
  const std::int64_t started_ms = to_unix_ms(SystemClock::instance()->now());

  // The interrupted run first, in a child forked before this process has any thread.
  std::cerr << "corpus_gen: writing the corpus to " << (redis ? "redis" : url) << "\n";
  const pid_t child = ::fork();
  if (child < 0) die("fork failed");
  if (child == 0) crash_child(url, crash_id);
  int wstatus = 0;
  ::waitpid(child, &wstatus, 0);
  if (!WIFEXITED(wstatus) || WEXITSTATUS(wstatus) != corpus::kCrashExitCode) {
    die("the crash child did not end inside its step (status " + std::to_string(wstatus) + ")");
  }
  std::cerr << "  " << crash_id << ": its process ended inside step second\n";

  Result<std::unique_ptr<Backend>> opened = open_backend(url, SystemClock::instance());
  check(opened.status(), "open_backend");
  std::shared_ptr<Backend> backend(std::move(opened).value());
  EngineOptions eo;
  eo.backend = backend;
  eo.durability = durability();
  eo.random_seed = 20261201;
  Engine engine(std::move(eo));
  corpus::register_all(engine.registry());

  std::vector<RunEntry> runs;
  runs.push_back(
      {crash_id,
       "interrupted",
       "CorpusCrash",
       "synchronous run whose process ended (_exit) inside step second's body: "
       "status running, first completed, second and third as created (the attempt "
       "that died was never recorded); its lease (ttl 1 s) lapsed before the dump; "
       "no job",
       "sweep_then_drain",
       {{"status", "completed"},
        {"trace_summary", kHeadersNameTheirExecution ? "ran first; lost second; ran second, third"
                                                     : "ran first, second, third"},
        {"value", {{"first", 1}, {"second", 2}, {"third", 3}}}}});

  run_sync(engine, runs,
           {"corpus-order-completed", "order_completed", "CorpusOrder",
            "a completed 3-step saga (reserve, charge, ship); inputs with a nested object, "
            "unicode text, escapes, 9007199254740993 (2^53+1) and a redacted card",
            "", nullptr},
           order_inputs(1001, false));
  run_sync(engine, runs,
           {"corpus-order-failed", "order_failed", "CorpusOrder",
            "ship fails for good (non-retryable, with details): ship compensated, charge undone, "
            "reserve's undo fails (rollback_failures has it)",
            "", nullptr},
           order_inputs(1003, true));
  run_sync(engine, runs,
           {"corpus-order-invalid", "order_input_invalid", "CorpusOrder",
            "inputs rejected: failed with input_invalid, four validation_errors, the redacted "
            "card masked in error.inputs; no step ran",
            "", nullptr},
           Value{{"order_id", 0},
                 {"customer", "nobody"},
                 {"note", "naïve – ✓"},
                 {"amount", -5},
                 {"card", "not-a-card"}});
  run_sync(engine, runs,
           {"corpus-review-halted", "halted", "CorpusReview",
            "screen completes, review returns Halt with a reason object: status halted, value "
            "the reason, settle never ran (no step row of its own in header version 2)",
            "", nullptr},
           Value{{"applicant", "Łukasz"}});
  run_sync(engine, runs,
           {"corpus-shipment-completed", "compose_completed", "CorpusShipment",
            "a composed child (CorpusShipping as step ship: child header, steps ship/pack, "
            "ship/label), completed",
            "", nullptr},
           Value{{"order_id", 2001}});
  run_sync(engine, runs,
           {"corpus-shipment-child-failed", "compose_child_failed", "CorpusShipment",
            "the composed child's label fails for good: compensated and ship/pack undone inside "
            "the child, the child failed, then prepare undone",
            "", nullptr},
           Value{{"order_id", 2002}, {"fail_label", true}});
  run_sync(engine, runs,
           {"corpus-batch-completed", "map_completed", "CorpusBatch",
            "an atomic inline map over 3 elements (element headers at items[0..2], step rows "
            "items[k]/charge), completed",
            "", nullptr},
           Value{{"lines", {1, 2, 3}}});
  run_sync(engine, runs,
           {"corpus-batch-atomic-failed", "map_atomic_failed", "CorpusBatch",
            "an atomic map over 4 elements failing at items[2]: items[2] compensated, items[1] "
            "and items[0] undone, items[3] never started, open undone",
            "", nullptr},
           Value{{"lines", {1, 2, 3, 4}}, {"fail_item", 3}});
  run_sync(engine, runs,
           {"corpus-gift-skipped", "skipped", "CorpusGift",
            "step wrap returns Skipped with a value, confirm uses it; completed", "", nullptr},
           Value{{"gift", false}});

  // The retry-waiting run: a worker runs it until call_partner's first attempt fails with
  // attempts left and a long backoff, and yields it.
  {
    std::atomic<int> yielded{0};
    WorkerOptions wo;
    wo.threads = 1;
    wo.sweeper = false;
    wo.reactors = {"CorpusRetry"};
    wo.poll_interval = milliseconds(10);
    wo.on_delivery = [&](const Job&, auto outcome) {
      const std::string name = outcome_name(outcome);
      // Handed back to wait for its retry ("yielded" in builds before DeliveryOutcome).
      if (name == "suspended" || name == "yielded") yielded.fetch_add(1);
    };
    Worker worker(engine, wo);
    worker.start();
    Result<std::string> started =
        engine.run_in_background("CorpusRetry", {{"partner", "Ωmega Freight"}});
    check(started.status(), "run_in_background CorpusRetry");
    const std::string id = *started;
    for (int i = 0; i < 3000 && yielded.load() == 0; ++i)
      std::this_thread::sleep_for(milliseconds(10));
    worker.stop();
    worker.wait();
    if (yielded.load() != 1) die("the retry run was not yielded");
    std::cerr << "  " << id << ": yielded, waiting for its retry\n";
    runs.push_back({id,
                    "retry_waiting",
                    "CorpusRetry",
                    "background run; prepare completed, call_partner's first attempt failed "
                    "(retryable, details) with 2 attempts left and a 3650-day backoff: status "
                    "running, call_partner retry_scheduled, lease released, one resume job due "
                    "at its retry_at_ms",
                    "retry_due_then_drain",
                    {{"status", "completed"},
                     {"trace_summary", "ran prepare, call_partner, call_partner"},
                     {"value", {{"confirmed", "Ωmega Freight"}, {"attempt", 2}}}}});
  }

  // The enqueued run: started in the background with nobody to execute it.
  {
    Result<std::string> started =
        engine.run_in_background("CorpusOrder", order_inputs(1002, false));
    check(started.status(), "run_in_background CorpusOrder");
    const std::string id = *started;
    std::cerr << "  " << id << ": enqueued\n";
    runs.push_back({id,
                    "enqueued",
                    "CorpusOrder",
                    "background run never started: status enqueued, no step rows in header "
                    "version 2 (a pending row per step in version 1), its start job queued",
                    "drain",
                    {{"status", "completed"},
                     {"trace_summary", "ran reserve, charge, ship"},
                     {"value",
                      {{"tracking", "TRK-R-1002"},
                       {"note", "naïve – ✓"},
                       {"remark", order_inputs(1002, false)["remark"]}}}}});
  }

  // The interrupted run's lease must have lapsed: it is an orphan then.
  for (int i = 0;; ++i) {
    Result<std::vector<RunHeaderRow>> found_orphans = backend->find_orphans(100);
    check(found_orphans.status(), "find_orphans");
    const std::vector<RunHeaderRow>& orphans = *found_orphans;
    bool found = false;
    for (const auto& h : orphans) found = found || h.id == crash_id;
    if (found) break;
    if (i == 100) die("the interrupted run's lease did not lapse");
    std::this_thread::sleep_for(milliseconds(100));
  }

  // What this build reads back.
  Value manifest_runs = Value::array();
  for (const RunEntry& e : runs) {
    Result<RunResult> found = engine.find(e.id);
    check(found.status(), "find " + e.id);
    const RunResult& r = *found;
    write_json(out / "expected" / (e.id + ".json"), to_json(r));
    Value m = {{"id", e.id},
               {"name", e.name},
               {"reactor", e.reactor},
               {"status", to_string(r.status)},
               {"trace_summary", r.trace_summary()},
               {"exercises", e.exercises},
               {"expected", "expected/" + e.id + ".json"}};
    if (!e.carry_on.empty()) {
      m["carry_on"] = e.carry_on;
      m["end"] = e.end;
    }
    manifest_runs.push_back(m);
  }
  RunFilter all;
  all.limit = 1000;
  Result<std::vector<RunHeaderRow>> listing = backend->list_runs(all);
  check(listing.status(), "list_runs");
  const std::vector<RunHeaderRow>& listed = *listing;
  Value list = Value::array();
  for (const auto& h : listed) {
    list.push_back({{"id", h.id}, {"status", to_string(h.status)}, {"reactor", h.reactor}});
  }
  write_json(out / "expected" / "list_runs.json", list);

  Value manifest = {
      {"format", 1},
      {"written_by",
       {{"commit", env_or("CORPUS_COMMIT", "unknown")},
        {"subject", env_or("CORPUS_COMMIT_SUBJECT", "")},
        {"command", env_or("CORPUS_COMMAND", "")}}},
      {"store", redis ? "redis" : "sqlite"},
      {"generated_at_ms", started_ms},
      {"clock", redis ? "the Redis server's clock for leases, jobs and purging; the real clock "
                        "(SystemClock) for the times the engine writes"
                      : "the real clock (SystemClock)"},
      {"context_ttl_ms", std::chrono::duration_cast<milliseconds>(kRetention).count()},
      {"list_runs", "expected/list_runs.json"},
      {"runs", manifest_runs}};

  if (redis) {
    const RedisUrl u = parse_redis_url(url);
    Raw raw(u);
    manifest["store_version"] = std::stoi(str(raw.cmd({"GET", u.prefix + "layout_version"}).get()));
    manifest["store_version_name"] = "Redis key layout version (layout_version)";
    manifest["redis_prefix"] = u.prefix;
    const std::vector<std::string> embedding = dump_redis(raw, u.prefix, out / "keys.jsonl");
    manifest["keys_whose_values_name_the_prefix"] = embedding;
    std::set<int> versions;
    std::ifstream keys(out / "keys.jsonl");
    for (std::string text; std::getline(keys, text);) {
      const Value line = Value::parse(text);
      if (line["type"] != "hash" ||
          line["key"].get<std::string>().find(":rows") == std::string::npos) {
        continue;
      }
      for (const auto& [field, value] : line["value"].items()) {
        if (field.rfind("h:", 0) == 0) {
          versions.insert(Value::parse(value.get<std::string>())["schema_version"].get<int>());
        }
      }
    }
    manifest["run_header_versions"] = versions;
  } else {
    manifest["store_version"] = sqlite_schema_version(sqlite_file_of(url));
    manifest["run_header_versions"] = sqlite_header_versions(sqlite_file_of(url));
    manifest["store_version_name"] = "SQLite schema version (meta.schema_version)";
  }
  write_json(out / "manifest.json", manifest);
  std::cerr << "corpus_gen: " << runs.size() << " runs written, " << listed.size()
            << " listed; store version " << manifest["store_version"] << "\n";
  return 0;
}

// ---------------------------------------------------------------------------------------------
// corpus_gen snapshots OUT
// ---------------------------------------------------------------------------------------------

// The clock every snapshot run starts at (ManualClock's default).
constexpr std::int64_t kSnapshotClockMs = 1'700'000'000'000;
constexpr std::uint64_t kSnapshotSeed = 7;

struct Scenario {
  std::string name;
  std::string reactor;
  Value inputs;
  std::string exercises;
  // The first checkpoint at which this holds is the snapshot.
  std::function<bool(const Run&)> at;
};

const StepRecord* step_of(const Run& run, const std::string& name) {
  for (const auto& s : run.steps) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

int generate_snapshots(const fs::path& out) {
  std::vector<Scenario> scenarios = {
      {"order-after-reserve", "CorpusOrder", order_inputs(1001, false),
       "CorpusOrder with reserve completed, charge and ship pending; resumed it completes",
       [](const Run& r) {
         return step_of(r, "reserve")->status == StepStatus::kCompleted &&
                step_of(r, "charge")->status == StepStatus::kPending;
       }},
      {"order-rolling-back", "CorpusOrder", order_inputs(1003, true),
       "CorpusOrder whose ship failed for good, status rolling_back before any rollback action; "
       "resumed it compensates ship, undoes charge, fails to undo reserve and ends failed",
       [](const Run& r) { return r.status == RunStatus::kRollingBack; }},
      {"shipment-inside-child", "CorpusShipment", Value{{"order_id", 2001}},
       "CorpusShipment inside its composed child: ship/pack completed, ship/label pending; "
       "resumed it completes",
       [](const Run& r) {
         const StepRecord* ship = step_of(r, "ship");
         if (ship->children.empty()) return false;
         const Run& child = ship->children.front();
         return step_of(child, "pack")->status == StepStatus::kCompleted &&
                step_of(child, "label")->status == StepStatus::kPending;
       }},
      {"batch-after-first-element", "CorpusBatch", Value{{"lines", {1, 2, 3}}},
       "CorpusBatch with items[0] completed, items[1] and items[2] not started; resumed it "
       "completes",
       [](const Run& r) {
         const StepRecord* items = step_of(r, "items");
         return items->children.size() == 1 &&
                items->children.front().status == RunStatus::kCompleted;
       }},
      {"retry-scheduled", "CorpusRetry", Value{{"partner", "Ωmega Freight"}},
       "CorpusRetry with call_partner retry_scheduled 3650 days after its failed attempt 1 "
       "(in process the run's checkpoint comes once the clock has reached the retry, just "
       "before attempt 2 starts); resumed it completes on attempt 2",
       [](const Run& r) {
         return step_of(r, "call_partner")->status == StepStatus::kRetryScheduled;
       }},
  };

  Value manifest_snapshots = Value::array();
  for (const Scenario& sc : scenarios) {
    // The uninterrupted run, snapshotted at its first checkpoint where sc.at holds.
    auto clock = std::make_shared<ManualClock>(from_unix_ms(kSnapshotClockMs));
    EngineOptions eo;
    eo.clock = clock;
    eo.random_seed = kSnapshotSeed;
    Engine engine(std::move(eo));
    corpus::register_all(engine.registry());
    std::optional<Value> snapshot;
    std::int64_t snapshot_clock_ms = 0;
    RunOptions o;
    o.run_id = "snapshot-" + sc.name;
    o.on_checkpoint = [&](const Run& root) {
      if (!snapshot && sc.at(root)) {
        snapshot = run_to_json(root);
        snapshot_clock_ms = to_unix_ms(clock->now());
      }
      return Status::Ok();
    };
    RunResult whole = engine.run(sc.reactor, sc.inputs, o);
    if (!snapshot) die("scenario " + sc.name + " never reached its snapshot");

    // Resumed from the snapshot alone, in a fresh engine whose clock starts where it was.
    auto resume_clock = std::make_shared<ManualClock>(from_unix_ms(snapshot_clock_ms));
    EngineOptions ro;
    ro.clock = resume_clock;
    ro.random_seed = kSnapshotSeed;
    Engine resumer(std::move(ro));
    corpus::register_all(resumer.registry());
    Run run = run_from_json(*snapshot);
    RunResult at_snapshot = make_run_result(run);
    RunResult resumed = resumer.resume(std::move(run));
    if (to_json(resumed) != to_json(whole)) {
      die("scenario " + sc.name + ": the resumed run differs from the uninterrupted one");
    }
    write_json(out / (sc.name + ".snapshot.json"), *snapshot);
    write_json(out / (sc.name + ".result.json"), to_json(at_snapshot));
    write_json(out / (sc.name + ".resumed.json"), to_json(resumed));
    std::cerr << "  " << sc.name << ": " << to_string(at_snapshot.status) << " -> "
              << to_string(resumed.status) << " | " << resumed.trace_summary() << "\n";
    manifest_snapshots.push_back({{"name", sc.name},
                                  {"reactor", sc.reactor},
                                  {"exercises", sc.exercises},
                                  {"resume_clock_ms", snapshot_clock_ms},
                                  {"resumed_status", to_string(resumed.status)},
                                  {"resumed_trace_summary", resumed.trace_summary()}});
  }
  write_json(out / "manifest.json",
             {{"format", 1},
              {"written_by",
               {{"commit", env_or("CORPUS_COMMIT", "unknown")},
                {"subject", env_or("CORPUS_COMMIT_SUBJECT", "")},
                {"command", env_or("CORPUS_COMMAND", "")}}},
              {"run_schema_version", Run::kSchemaVersion},
              {"run_result_schema_version", RunResult::kSchemaVersion},
              {"clock",
               "ManualClock starting at 1700000000000 ms; resumed on a ManualClock at "
               "resume_clock_ms"},
              {"random_seed", kSnapshotSeed},
              {"files",
               "<name>.snapshot.json: run_to_json(Run) at the first checkpoint the "
               "scenario names (RunOptions::on_checkpoint); <name>.result.json: "
               "to_json(make_run_result(that Run)); <name>.resumed.json: to_json of "
               "Engine::resume(run_from_json(snapshot)), equal to the uninterrupted run's"},
              {"snapshots", manifest_snapshots}});
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  try {
    if (args.size() == 3 && args[0] == "store") return generate_store(args[1], args[2]);
    if (args.size() == 2 && args[0] == "snapshots") return generate_snapshots(args[1]);
  } catch (const std::exception& e) {
    die(std::string("unexpected exception: ") + e.what());
  }
  std::cerr << "usage: corpus_gen store URL OUT | corpus_gen snapshots OUT\n";
  return 2;
}
