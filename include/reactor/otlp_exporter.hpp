// OtlpExporter: OpenTelemetry traces of runs, as an observer (reactor/observer.hpp), sent as
// OTLP/HTTP with JSON encoding to `<endpoint>/v1/traces` (docs/observability.md, "Tracing").
//
// A span per run (from its creation to its end, closed by the process that ends it), per step
// execution (one per attempt), per compensate and per undo, with the attributes reactor.run_id,
// reactor.name, reactor.step, reactor.attempt, reactor.fencing_token, reactor.worker and
// reactor.outcome, and status error with the message on a failure. Span ids are derived from the
// run (reactor/trace_context.hpp), so spans that processes send apart form one tree; the trace is
// the one the run was started under (RunOptions::traceparent), else one derived from its id.
//
// Spans are queued and sent by a thread of the exporter, in batches: a hook only formats a span
// and queues it, and never blocks or fails the step. A full queue or an endpoint that cannot be
// reached drops spans, counted by dropped(). Nothing is durable: spans queued when the process
// dies are lost. Thread-safe.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "reactor/observer.hpp"

namespace reactor {

struct OtlpOptions {
  // Base URL of an OTLP/HTTP receiver, "http://host:4318"; spans go to <endpoint>/v1/traces.
  std::string endpoint{};
  std::string service_name{"reactor"};             // the resource's service.name
  std::size_t max_queue = 4096;                    // spans waiting to be sent; more are dropped
  std::size_t max_batch = 256;                     // spans per request
  std::chrono::milliseconds timeout{2000};         // to connect, and to send one request
  std::chrono::milliseconds shutdown_flush{3000};  // the destructor's flush, at most
};

// OTEL_EXPORTER_OTLP_ENDPOINT and OTEL_SERVICE_NAME (the OpenTelemetry variables) over the
// defaults; endpoint empty when the variable is not set.
OtlpOptions otlp_options_from_env();

class OtlpExporter final : public Observer {
 public:
  // Starts the sending thread. An empty or unusable endpoint is InvalidArgument (thrown as
  // std::invalid_argument): a typo must not silently drop every span.
  explicit OtlpExporter(OtlpOptions options);
  // Flushes for at most options.shutdown_flush, then stops the thread.
  ~OtlpExporter() override;
  OtlpExporter(const OtlpExporter&) = delete;
  OtlpExporter& operator=(const OtlpExporter&) = delete;

  // Waits until every span queued so far was sent or dropped, for at most `timeout`; false
  // when time ran out.
  bool flush(std::chrono::milliseconds timeout);
  std::uint64_t exported() const;  // spans the receiver accepted
  std::uint64_t dropped() const;   // spans lost: a full queue, an unreachable endpoint, a refusal

  void on_run_complete(const EventContext&, RunStatus status) override;
  void on_run_fail(const EventContext&, const RunError& error) override;
  void on_step_start(const EventContext&) override;
  void on_step_complete(const EventContext&, Outcome outcome) override;
  void on_step_fail(const EventContext&, const std::string& message) override;
  void on_step_retry(const EventContext&, Duration delay, const std::string& message) override;
  void on_compensate_start(const EventContext&) override;
  void on_compensate_complete(const EventContext&) override;
  void on_compensate_fail(const EventContext&, const std::string& message) override;
  void on_undo_start(const EventContext&) override;
  void on_undo_complete(const EventContext&) override;
  void on_undo_fail(const EventContext&, const std::string& message) override;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace reactor
