// MeteredBackend: a BackendWrapper that, for each commit,
// records how long the inner backend took, how big the request was and how
// many bytes this process wrote meanwhile. `reactor-bench checkpoint` puts it
// under an Engine to time real checkpoints at the store boundary.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "reactor/backend_wrapper.hpp"

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

class MeteredBackend final : public reactor::BackendWrapper {
 public:
  using BackendWrapper::BackendWrapper;

  // The commits recorded since the last call, oldest first.
  std::vector<MeteredCommit> take_commits();

  reactor::Status commit(const reactor::CommitRequest& c) override;
  // A commit and a fetch, so the commit is metered like any other.
  reactor::Result<std::optional<reactor::Delivery>> commit_then_fetch(
      const reactor::CommitRequest& c, const reactor::FetchRequest& f) override {
    return Backend::commit_then_fetch(c, f);
  }

 private:
  std::mutex mu_;
  std::vector<MeteredCommit> commits_;
};

}  // namespace reactor_bench
