// ForwardingBackend: a Backend that hands every call to another one. Tests
// derive from it and override only the calls they watch or bend (count
// commits, refuse loads), so every other rule stays the real backend's.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "reactor/backend.hpp"

namespace reactor::testing_support {

class ForwardingBackend : public Backend {
 public:
  explicit ForwardingBackend(std::unique_ptr<Backend> inner) : inner_(std::move(inner)) {}

  std::string describe() const override { return inner_->describe(); }
  Status commit(const CommitRequest& c) override { return inner_->commit(c); }
  Status load_run(const std::string& id, StoredRun& out) override {
    return inner_->load_run(id, out);
  }
  Status load_header(const std::string& id, RunHeaderRow& out) override {
    return inner_->load_header(id, out);
  }
  Status list_runs(const RunFilter& f, std::vector<RunHeaderRow>& out) override {
    return inner_->list_runs(f, out);
  }
  Status fetch(const FetchRequest& f, std::optional<Delivery>& out) override {
    return inner_->fetch(f, out);
  }
  Status wait_for_jobs(const std::vector<std::string>& queues, Duration max_wait) override {
    return inner_->wait_for_jobs(queues, max_wait);
  }
  bool wakes_waiters() const override { return inner_->wakes_waiters(); }
  Status release_job(std::int64_t id, const std::string& owner, Duration delay) override {
    return inner_->release_job(id, owner, delay);
  }
  Status has_job(const std::string& run_id, bool& out) override {
    return inner_->has_job(run_id, out);
  }
  Status acquire_lease(const std::string& key, const std::string& owner, Duration ttl,
                       bool& granted, Lease& out) override {
    return inner_->acquire_lease(key, owner, ttl, granted, out);
  }
  Status extend_lease(const std::string& key, const std::string& owner, std::uint64_t token,
                      Duration ttl) override {
    return inner_->extend_lease(key, owner, token, ttl);
  }
  Status release_lease(const std::string& key, const std::string& owner,
                       std::uint64_t token) override {
    return inner_->release_lease(key, owner, token);
  }
  Status find_orphans(std::size_t limit, std::vector<RunHeaderRow>& out) override {
    return inner_->find_orphans(limit, out);
  }
  Status purge_expired(std::size_t limit, std::size_t& purged) override {
    return inner_->purge_expired(limit, purged);
  }
  std::uint64_t round_trips() const override { return inner_->round_trips(); }

 private:
  std::unique_ptr<Backend> inner_;
};

}  // namespace reactor::testing_support
