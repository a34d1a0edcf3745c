// Several processes on one SQLite file: no SQLITE_BUSY escapes as an error,
// fencing holds across processes, and every job is delivered once.
#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "reactor/backend.hpp"
#include "support/result_testing.hpp"

namespace reactor {
namespace {

using namespace std::chrono_literals;

constexpr int kChildren = 2;
constexpr int kIterations = 300;
constexpr const char* kQueue = "mp";
constexpr auto kDeadline = 120s;

RunHeaderRow run_header(const std::string& id, RunStatus status) {
  RunHeaderRow h;
  h.id = h.root_id = id;
  h.reactor = "OrderSaga";
  h.status = status;
  h.body = "{}";
  return h;
}

// One worker process. Each iteration creates a run with its job, fetches whatever job is due
// (its own or the other process's), completes that run with a fenced commit that acks the job
// and releases the lease, and contends for a lease on a run both processes write to.
// Writes "job <id> <run>" and "token <n>" lines to `log`; any unexpected status ends it with 1.
int child_main(int index, const std::string& url, const std::string& log) {
  std::ofstream out(log);
  auto fail = [&](const std::string& what, const Status& s) {
    out << "error " << what << ": " << s.to_string() << "\n";
    out.flush();
    return 1;
  };
  std::unique_ptr<Backend> db;
  if (Status s = assign_or_status(db, open_backend(url, SystemClock::instance())); !s.ok())
    return fail("open", s);

  for (int k = 0; k < kIterations; ++k) {
    const std::string suffix = std::to_string(index) + "-" + std::to_string(k);
    CommitRequest create;
    create.headers = {run_header("run-" + suffix, RunStatus::kEnqueued)};
    create.inputs = {{"run-" + suffix, "{}"}};
    JobSpec spec;
    spec.queue = kQueue;
    spec.kind = JobKind::kStart;
    spec.run_id = "run-" + suffix;
    spec.reactor = "OrderSaga";
    create.enqueue = {spec};
    if (Status s = db->commit(create); !s.ok()) return fail("create " + suffix, s);

    const std::string owner = "worker-" + suffix;
    std::optional<Delivery> d;
    if (Status s = assign_or_status(d, db->fetch({{kQueue}, owner, 60s, 60s})); !s.ok())
      return fail("fetch", s);
    if (d) {
      if (!d->run_leased || d->job.deliveries != 1) {
        return fail("delivery of job " + std::to_string(d->job.id),
                    Status::Internal("run lease busy or job redelivered"));
      }
      CommitRequest done;
      done.root_id = d->job.spec.run_id;
      done.fencing_token = d->run_lease.token;
      done.headers = {run_header(d->job.spec.run_id, RunStatus::kCompleted)};
      done.steps = {{d->job.spec.run_id, 0, "done"}};
      done.trace = {{d->job.spec.run_id, 0, "completed"}};
      done.ack_job = d->job.id;
      done.ack_owner = owner;
      done.release_lease = true;
      done.lease_owner = owner;
      if (Status s = db->commit(done); !s.ok()) return fail("complete " + suffix, s);
      out << "job " << d->job.id << " " << d->job.spec.run_id << "\n";
      out << "token " << d->run_lease.token << "\n";
    }

    // Both processes fence writes to one shared run; a short TTL makes takeovers possible.
    bool granted = false;
    Lease lease;
    const std::string key = run_lease_key("shared");
    if (Status s = assign_or_status(granted, lease, db->acquire_lease(key, owner, 50ms)); !s.ok()) {
      return fail("acquire shared", s);
    }
    if (granted) {
      out << "token " << lease.token << "\n";
      CommitRequest step;
      step.root_id = "shared";
      step.fencing_token = lease.token;
      step.steps = {{"shared", static_cast<std::uint32_t>(index * 1000 + k), suffix}};
      step.release_lease = true;
      step.lease_owner = owner;
      Status s = db->commit(step);
      if (!s.ok() && s.code() != StatusCode::kLeaseLost) return fail("shared commit", s);
    }
  }
  out.flush();
  return out ? 0 : 1;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(SqliteMultiProcess, TwoProcessesCommitAndFetchConcurrently) {
  char tmpl[] = "/tmp/reactor-multi-process-XXXXXX";
  ASSERT_NE(::mkdtemp(tmpl), nullptr);
  const std::string dir = tmpl;
  struct Cleanup {
    std::string dir;
    ~Cleanup() {
      std::error_code ec;
      std::filesystem::remove_all(dir, ec);
    }
  } cleanup{dir};
  const std::string url = "sqlite://" + dir + "/shared.db";

  {  // Schema and the shared run exist before the children start (no connection crosses fork).
    std::unique_ptr<Backend> db;
    ASSERT_OK_AND_ASSIGN(db, open_backend(url, SystemClock::instance()));
    CommitRequest c;
    c.headers = {run_header("shared", RunStatus::kRunning)};
    ASSERT_TRUE(db->commit(c).ok());
  }

  int gate[2];
  ASSERT_EQ(::pipe(gate), 0);
  std::vector<pid_t> pids;
  for (int i = 0; i < kChildren; ++i) {
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      ::close(gate[1]);
      char byte;
      while (::read(gate[0], &byte, 1) < 0 && errno == EINTR) {
      }  // EOF: the parent opened the gate
      ::_exit(child_main(i, url, dir + "/child-" + std::to_string(i) + ".log"));
    }
    pids.push_back(pid);
  }
  ::close(gate[0]);
  ::close(gate[1]);  // both children start together

  const auto deadline = std::chrono::steady_clock::now() + kDeadline;
  std::map<pid_t, int> exit_status;
  while (exit_status.size() < pids.size() && std::chrono::steady_clock::now() < deadline) {
    for (pid_t pid : pids) {
      if (exit_status.count(pid)) continue;
      int status = 0;
      if (::waitpid(pid, &status, WNOHANG) == pid) exit_status[pid] = status;
    }
    std::this_thread::sleep_for(10ms);
  }
  for (pid_t pid : pids) {
    if (exit_status.count(pid)) continue;
    ::kill(pid, SIGKILL);
    int status = 0;
    ::waitpid(pid, &status, 0);
    ADD_FAILURE() << "child " << pid << " did not finish within the deadline";
  }

  std::set<std::int64_t> delivered;
  std::set<std::uint64_t> tokens;
  std::size_t token_lines = 0;
  for (int i = 0; i < kChildren; ++i) {
    const std::string log = read_file(dir + "/child-" + std::to_string(i) + ".log");
    const int status = exit_status.count(pids[i]) ? exit_status[pids[i]] : -1;
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
        << "child " << i << " status " << status << "\n"
        << log.substr(log.rfind("error") == std::string::npos ? log.size() : log.rfind("error"));
    std::istringstream lines(log);
    std::string word;
    while (lines >> word) {
      if (word == "job") {
        std::int64_t id = 0;
        std::string run;
        lines >> id >> run;
        EXPECT_TRUE(delivered.insert(id).second) << "job " << id << " delivered twice";
      } else if (word == "token") {
        std::uint64_t t = 0;
        lines >> t;
        ++token_lines;
        EXPECT_TRUE(tokens.insert(t).second) << "token " << t << " granted twice";
      } else {
        std::string rest;
        std::getline(lines, rest);
      }
    }
  }
  EXPECT_EQ(tokens.size(), token_lines);

  // Whatever the children left queued is drained here; then every run is done, once.
  std::unique_ptr<Backend> db;
  ASSERT_OK_AND_ASSIGN(db, open_backend(url, SystemClock::instance()));
  for (;;) {
    std::optional<Delivery> d;
    ASSERT_OK_AND_ASSIGN(d, db->fetch({{kQueue}, "parent", 60s, 60s}));
    if (!d) break;
    EXPECT_TRUE(delivered.insert(d->job.id).second) << "job " << d->job.id << " delivered twice";
    CommitRequest ack;
    ack.root_id = d->job.spec.run_id;
    ack.fencing_token = d->run_lease.token;
    ack.headers = {run_header(d->job.spec.run_id, RunStatus::kCompleted)};
    ack.ack_job = d->job.id;
    ack.ack_owner = "parent";
    ASSERT_TRUE(db->commit(ack).ok());
  }
  EXPECT_EQ(delivered.size(), static_cast<std::size_t>(kChildren * kIterations));
  RunFilter completed;
  completed.status = RunStatus::kCompleted;
  completed.limit = 10'000;
  std::vector<RunHeaderRow> rows;
  ASSERT_OK_AND_ASSIGN(rows, db->list_runs(completed));
  EXPECT_EQ(rows.size(), static_cast<std::size_t>(kChildren * kIterations));
  for (int i = 0; i < kChildren; ++i) {
    bool queued = true;
    ASSERT_OK_AND_ASSIGN(queued, db->has_job("run-" + std::to_string(i) + "-0"));
    EXPECT_FALSE(queued);
  }
}

}  // namespace
}  // namespace reactor
