#include "observe/span_sender.hpp"

#include <httplib.h>

#include <stdexcept>

#include "observe/otlp_json.hpp"

namespace reactor {

namespace {

// "http://host:4318/base" -> {"http://host:4318", "/base/v1/traces"}.
std::pair<std::string, std::string> split_endpoint(const std::string& endpoint) {
  const std::size_t scheme = endpoint.find("://");
  if (scheme == std::string::npos || endpoint.compare(0, scheme, "http") != 0 ||
      endpoint.size() == scheme + 3) {
    throw std::invalid_argument("OTLP endpoint '" + endpoint +
                                "' is not an http://host[:port][/path] URL");
  }
  const std::size_t slash = endpoint.find('/', scheme + 3);
  std::string origin = endpoint.substr(0, slash);
  std::string base = slash == std::string::npos ? "" : endpoint.substr(slash);
  while (!base.empty() && base.back() == '/') base.pop_back();
  return {std::move(origin), base + "/v1/traces"};
}

}  // namespace

SpanSender::SpanSender(OtlpOptions options) : options_(std::move(options)) {
  std::tie(origin_, path_) = split_endpoint(options_.endpoint);
  thread_ = std::thread([this] { loop(); });
}

SpanSender::~SpanSender() {
  (void)flush(options_.shutdown_flush);
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void SpanSender::enqueue(nlohmann::json span) {
  {
    std::lock_guard lock(mutex_);
    if (stopping_ || queue_.size() >= options_.max_queue) {
      dropped_.fetch_add(1);
      return;
    }
    queue_.push_back(std::move(span));
  }
  wake_.notify_one();
}

bool SpanSender::flush(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  return settled_.wait_for(lock, timeout, [&] { return queue_.empty() && in_flight_ == 0; });
}

void SpanSender::loop() {
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
    if (queue_.empty()) return;  // stopping, nothing left
    std::vector<nlohmann::json> batch;
    while (!queue_.empty() && batch.size() < options_.max_batch) {
      batch.push_back(std::move(queue_.front()));
      queue_.pop_front();
    }
    in_flight_ = batch.size();
    lock.unlock();
    const bool sent = post(batch);
    (sent ? exported_ : dropped_).fetch_add(batch.size());
    lock.lock();
    in_flight_ = 0;
    if (queue_.empty()) settled_.notify_all();
  }
}

bool SpanSender::post(const std::vector<nlohmann::json>& batch) {
  try {
    httplib::Client client(origin_);
    const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(options_.timeout);
    const auto micros =
        std::chrono::duration_cast<std::chrono::microseconds>(options_.timeout - seconds);
    client.set_connection_timeout(seconds.count(), micros.count());
    client.set_read_timeout(seconds.count(), micros.count());
    client.set_write_timeout(seconds.count(), micros.count());
    auto res =
        client.Post(path_, otlp_traces_body(options_.service_name, batch), "application/json");
    return res && res->status >= 200 && res->status < 300;
  } catch (const std::exception&) {
    return false;
  }
}

}  // namespace reactor
