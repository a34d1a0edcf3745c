// The typed fixture and the record builders shared by the conformance tests.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "conformance/backends.hpp"
#include "reactor/backend.hpp"
#include "reactor/engine.hpp"
#include "support/result_testing.hpp"

namespace reactor::conformance {

using namespace std::chrono_literals;

// An engine over a fresh backend of `factory`, on the factory's clock, with runs' leases of
// `lease_ttl`: where the end-to-end suites (interrupts, operator control) start.
template <typename Factory>
Status open_durable_engine(Factory& factory, Duration lease_ttl, std::unique_ptr<Engine>& out) {
  std::unique_ptr<Backend> raw;
  if (Status s = factory.open(raw); !s.ok()) return s;
  EngineOptions options;
  options.clock = factory.clock();
  options.backend = std::move(raw);
  options.durability.lease_ttl = lease_ttl;
  out = std::make_unique<Engine>(std::move(options));
  return Status::Ok();
}

inline RunHeaderRow header(const std::string& id, RunStatus status,
                           const std::string& parent_id = "", const std::string& root_id = "",
                           std::int64_t updated_at_ms = 1, std::int64_t expires_at_ms = 0) {
  RunHeaderRow h;
  h.id = id;
  h.root_id = root_id.empty() ? (parent_id.empty() ? id : parent_id) : root_id;
  h.parent_id = parent_id;
  h.reactor = "OrderSaga";
  h.status = status;
  h.fingerprint = "fp-1";
  h.schema_version = 1;
  h.body = R"({"id":")" + id + R"("})";
  h.updated_at_ms = updated_at_ms;
  h.expires_at_ms = expires_at_ms;
  return h;
}

// Map "r1:sum" of owner r1 (OrderSaga), its element jobs on queue "q" for reactor "Element".
inline MapRow sum_map_row(std::uint32_t total, std::uint32_t batch, bool atomic) {
  MapRow m;
  m.map_id = "r1:sum";
  m.owner_id = "r1";
  m.owner_reactor = "OrderSaga";
  m.queue = "q";
  m.element_reactor = "Element";
  m.total = total;
  m.batch_size = batch;
  m.atomic = atomic;
  return m;
}

inline JobSpec job(const std::string& queue, const std::string& run_id, std::int64_t run_at_ms = 0,
                   JobKind kind = JobKind::kResume) {
  JobSpec j;
  j.queue = queue;
  j.kind = kind;
  j.run_id = run_id;
  j.reactor = "OrderSaga";
  j.run_at_ms = run_at_ms;
  return j;
}

// Everything in a StoredRun as text, so EXPECT_EQ shows a readable difference.
inline std::string dump(const RunHeaderRow& h) {
  std::ostringstream os;
  os << "header " << h.id << " root=" << h.root_id << " parent=" << h.parent_id
     << " reactor=" << h.reactor << " status=" << to_string(h.status) << " fp=" << h.fingerprint
     << " v=" << h.schema_version << " body=" << h.body << " updated=" << h.updated_at_ms
     << " expires=" << h.expires_at_ms << " wake=" << h.wake_at_ms;
  return os.str();
}

inline std::string dump(const StoredRun& r) {
  std::ostringstream os;
  for (const auto& h : r.headers) os << dump(h) << "\n";
  for (const auto& i : r.inputs) os << "inputs " << i.run_id << " " << i.inputs << "\n";
  for (const auto& s : r.steps)
    os << "step " << s.run_id << "#" << s.index << " " << s.body << "\n";
  for (const auto& t : r.trace)
    os << "trace " << t.root_id << "@" << t.seq << " " << t.body << "\n";
  os << "token " << r.fencing_token << "\n";
  return os.str();
}

template <typename Factory>
class BackendConformance : public ::testing::Test {
 protected:
  // Long enough never to lapse during a test: no case waits for them.
  static constexpr Duration kVisibility = 30s;
  static constexpr Duration kLeaseTtl = 10s;
  // For the cases that wait for an expiry. Short, because a store that judges
  // expiry by its own clock (Redis) is waited for in real time.
  static constexpr Duration kShortTtl = 1s;
  // How far before an expiry a "not yet" check is made: with a real clock,
  // the time a check takes to reach the store must stay under it.
  static constexpr Duration kMargin = 300ms;

  static std::int64_t ms(Duration d) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(d).count();
  }

  void SetUp() override {
    Status s = factory_.open(backend_);
    ASSERT_TRUE(s.ok()) << s.to_string();
  }

  Backend& db() { return *backend_; }
  std::int64_t now_ms() const { return factory_.now_ms(); }
  void advance(Duration d) { factory_.advance(d); }
  // Moves the store's time to `t_ms` (exactly, for a clock the test drives;
  // to at least `t_ms` for a real one), so "free from t on" is checked at t.
  void advance_to(std::int64_t t_ms) {
    const std::int64_t now = now_ms();
    if (t_ms > now) advance(std::chrono::milliseconds(t_ms - now));
  }

  void commit_ok(const CommitRequest& c) {
    Status s = backend_->commit(c);
    ASSERT_TRUE(s.ok()) << s.to_string();
  }

  // Creates runs (unfenced) with optional jobs.
  void create(std::vector<RunHeaderRow> headers, std::vector<JobSpec> jobs = {}) {
    CommitRequest c;
    c.headers = std::move(headers);
    c.enqueue = std::move(jobs);
    commit_ok(c);
  }

  void enqueue(std::vector<JobSpec> jobs) { create({}, std::move(jobs)); }

  std::optional<Delivery> fetch(const std::vector<std::string>& queues, const std::string& owner,
                                Duration visibility = kVisibility, Duration ttl = kLeaseTtl) {
    std::optional<Delivery> d;
    Status s = assign_or_status(d, backend_->fetch({queues, owner, visibility, ttl}));
    EXPECT_TRUE(s.ok()) << s.to_string();
    return d;
  }

  // Every due job of `queue` (at most 100), fetched by worker "w", acknowledged and its run's
  // lease released: the jobs' specs in fetch order.
  std::vector<JobSpec> drain_queue(const std::string& queue) {
    std::vector<JobSpec> out;
    for (int k = 0; k < 100; ++k) {
      std::optional<Delivery> d = fetch({queue}, "w");
      if (!d) break;
      out.push_back(d->job.spec);
      CommitRequest ack;
      ack.ack_job = d->job.id;
      ack.ack_owner = "w";
      commit_ok(ack);
      if (d->run_leased) {
        EXPECT_TRUE(
            backend_->release_lease(d->run_lease.key, d->run_lease.owner, d->run_lease.token).ok());
      }
    }
    return out;
  }

  Lease acquire(const std::string& key, const std::string& owner, bool expect_granted,
                Duration ttl = kLeaseTtl) {
    bool granted = !expect_granted;
    Lease lease;
    Status s = assign_or_status(granted, lease, backend_->acquire_lease(key, owner, ttl));
    EXPECT_TRUE(s.ok()) << s.to_string();
    EXPECT_EQ(granted, expect_granted) << key << " for " << owner << "; held by " << lease.owner;
    return lease;
  }

  StoredRun load(const std::string& root_id) {
    StoredRun run;
    Status s = assign_or_status(run, backend_->load_run(root_id));
    EXPECT_TRUE(s.ok()) << s.to_string();
    return run;
  }

  bool has_job(const std::string& run_id) {
    bool out = false;
    Status s = assign_or_status(out, backend_->has_job(run_id));
    EXPECT_TRUE(s.ok()) << s.to_string();
    return out;
  }

  std::vector<std::string> ids(const std::vector<RunHeaderRow>& rows) {
    std::vector<std::string> out;
    for (const auto& h : rows) out.push_back(h.id);
    return out;
  }

  Factory factory_;  // outlives backend_ (declared first)
  std::unique_ptr<Backend> backend_;
};

}  // namespace reactor::conformance
