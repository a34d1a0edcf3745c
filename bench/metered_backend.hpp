// MeteredBackend: a Backend that forwards every call and, for each commit,
// records how long the inner backend took, how big the request was and how
// many bytes this process wrote meanwhile. `reactor-bench checkpoint` puts it
// under an Engine to time real checkpoints at the store boundary.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "reactor/backend.hpp"

namespace reactor_bench {

// The bytes a CommitRequest carries: its ids, JSON bodies, queue and status
// names, plus 8 per integer field. What a store has to receive, before its
// own overhead (row headers, index entries, pages).
std::size_t payload_bytes(const reactor::CommitRequest& c);

struct MeteredCommit {
  double ms = 0;             // wall time of the inner commit()
  std::size_t payload = 0;   // payload_bytes(request)
  std::int64_t written = 0;  // write(2) bytes of this process during it
  std::vector<std::pair<std::uint32_t, std::string>> steps;  // (index, body) of its step rows
  bool ok = false;
  reactor::CommitRequest request;  // the request itself (copied after the timed call)
};

class MeteredBackend final : public reactor::Backend {
 public:
  explicit MeteredBackend(std::unique_ptr<reactor::Backend> inner) : inner_(std::move(inner)) {}

  // The commits recorded since the last call, oldest first.
  std::vector<MeteredCommit> take_commits();

  std::string describe() const override { return inner_->describe(); }
  reactor::Status commit(const reactor::CommitRequest& c) override;
  reactor::Status load_run(const std::string& id, reactor::StoredRun& out) override {
    return inner_->load_run(id, out);
  }
  reactor::Status load_header(const std::string& id, reactor::RunHeaderRow& out) override {
    return inner_->load_header(id, out);
  }
  reactor::Status list_runs(const reactor::RunFilter& f,
                            std::vector<reactor::RunHeaderRow>& out) override {
    return inner_->list_runs(f, out);
  }
  reactor::Status fetch(const reactor::FetchRequest& f,
                        std::optional<reactor::Delivery>& out) override {
    return inner_->fetch(f, out);
  }
  reactor::Status release_job(std::int64_t id, const std::string& owner,
                              reactor::Duration delay) override {
    return inner_->release_job(id, owner, delay);
  }
  reactor::Status has_job(const std::string& run_id, bool& out) override {
    return inner_->has_job(run_id, out);
  }
  reactor::Status acquire_lease(const std::string& key, const std::string& owner,
                                reactor::Duration ttl, bool& granted,
                                reactor::Lease& out) override {
    return inner_->acquire_lease(key, owner, ttl, granted, out);
  }
  reactor::Status extend_lease(const std::string& key, const std::string& owner,
                               std::uint64_t token, reactor::Duration ttl) override {
    return inner_->extend_lease(key, owner, token, ttl);
  }
  reactor::Status release_lease(const std::string& key, const std::string& owner,
                                std::uint64_t token) override {
    return inner_->release_lease(key, owner, token);
  }
  reactor::Status find_orphans(std::size_t limit,
                               std::vector<reactor::RunHeaderRow>& out) override {
    return inner_->find_orphans(limit, out);
  }
  reactor::Status purge_expired(std::size_t limit, std::size_t& purged) override {
    return inner_->purge_expired(limit, purged);
  }

 private:
  std::unique_ptr<reactor::Backend> inner_;
  std::mutex mu_;
  std::vector<MeteredCommit> commits_;
};

}  // namespace reactor_bench
