#include "metered_backend.hpp"

#include <chrono>
#include <utility>

#include "support.hpp"

namespace reactor_bench {

using namespace reactor;

std::size_t payload_bytes(const CommitRequest& c) {
  constexpr std::size_t kInteger = 8;
  std::size_t n = c.root_id.size() + kInteger + c.lease_owner.size() + c.ack_owner.size();
  if (c.ack_job) n += kInteger;
  for (const auto& h : c.headers) {
    n += h.id.size() + h.root_id.size() + h.parent_id.size() + h.reactor.size() +
         std::string(to_string(h.status)).size() + h.fingerprint.size() + h.body.size() +
         3 * kInteger;
  }
  for (const auto& i : c.inputs) n += i.run_id.size() + i.inputs.size();
  for (const auto& s : c.steps) n += s.run_id.size() + kInteger + s.body.size();
  for (const auto& t : c.trace) n += t.root_id.size() + kInteger + t.body.size();
  for (const auto& j : c.enqueue) {
    n += j.queue.size() + std::string(to_string(j.kind)).size() + j.run_id.size() +
         j.reactor.size() + 2 * kInteger;
  }
  return n;
}

std::vector<MeteredCommit> MeteredBackend::take_commits() {
  std::lock_guard lock(mu_);
  return std::exchange(commits_, {});
}

Status MeteredBackend::commit(const CommitRequest& c) {
  MeteredCommit m;
  m.payload = payload_bytes(c);
  for (const auto& s : c.steps) m.steps.emplace_back(s.index, s.body);
  // Only the inner commit is timed; reading /proc stays outside the interval.
  const std::int64_t written_before = written_bytes();
  const auto start = std::chrono::steady_clock::now();
  Status s = BackendWrapper::commit(c);
  const auto end = std::chrono::steady_clock::now();
  const std::int64_t written_after = written_bytes();
  m.ms = std::chrono::duration<double, std::milli>(end - start).count();
  m.written = written_before < 0 || written_after < 0 ? -1 : written_after - written_before;
  m.ok = s.ok();
  m.request = c;
  std::lock_guard lock(mu_);
  commits_.push_back(std::move(m));
  return s;
}

}  // namespace reactor_bench
