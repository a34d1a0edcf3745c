// OtlpExporter (reactor/otlp_exporter.hpp): each hook turns an event into a span and queues it on
// the SpanSender; the only state kept is when the spans this process saw start began.
#include "reactor/otlp_exporter.hpp"

#include <chrono>
#include <cstdlib>
#include <stdexcept>
#include <unordered_map>

#include "observe/otlp_json.hpp"
#include "observe/span_sender.hpp"
#include "reactor/trace_context.hpp"

namespace reactor {

namespace {

// Spans started here whose end this process never saw (a run handed to a worker, a crash) are
// forgotten past this many.
constexpr std::size_t kMaxOpenSpans = 100000;

std::int64_t now_unix_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// The path of the run a step belongs to: "tickets[3]/email" -> "tickets[3]", "charge" -> "".
std::string run_path_of(std::string_view step) {
  const std::size_t slash = step.rfind('/');
  return slash == std::string_view::npos ? "" : std::string(step.substr(0, slash));
}

std::string parent_of_run(std::string_view trace_parent) {
  if (trace_parent.empty()) return "";
  Result<TraceContext> c = parse_traceparent(trace_parent);
  return c.ok() ? c->span_id : "";
}

}  // namespace

struct OtlpExporter::Impl {
  explicit Impl(OtlpOptions o) : sender(std::move(o)) {}

  SpanSender sender;
  std::mutex mutex;
  std::unordered_map<std::string, std::int64_t> starts;  // span id -> start, unix ns

  void started(const std::string& span_id) {
    std::lock_guard lock(mutex);
    if (starts.size() >= kMaxOpenSpans) starts.clear();
    starts[span_id] = now_unix_ns();
  }
  std::int64_t start_of(const std::string& span_id, std::int64_t otherwise) {
    std::lock_guard lock(mutex);
    auto it = starts.find(span_id);
    if (it == starts.end()) return otherwise;
    const std::int64_t at = it->second;
    starts.erase(it);
    return at;
  }

  // A span of one step of the run (kind "step", "compensate", "undo").
  void step_span(const EventContext& ctx, const char* kind, const std::string& outcome,
                 const std::string* error) {
    const std::string id = derived_span_id(ctx.run_id, ctx.step, ctx.attempt, kind);
    const std::int64_t end = now_unix_ns();
    SpanData s = base(ctx, id, std::string(kind) + " " + ctx.step, start_of(id, end), end);
    s.parent_span_id = run_span_id(ctx.run_id, run_path_of(ctx.step));
    s.text_attributes.emplace_back("reactor.step", ctx.step);
    s.int_attributes.emplace_back("reactor.attempt", ctx.attempt);
    finish(s, outcome, error);
  }

  void run_span(const EventContext& ctx, const std::string& outcome, const std::string* error) {
    const std::string id = run_span_id(ctx.run_id, ctx.step);
    const std::int64_t end = now_unix_ns();
    const std::int64_t start = ctx.run_created_at_ms > 0 ? ctx.run_created_at_ms * 1000000 : end;
    SpanData s = base(ctx, id, "run " + ctx.reactor, start, end);
    s.parent_span_id = parent_of_run(ctx.trace_parent);
    if (!ctx.step.empty()) s.text_attributes.emplace_back("reactor.run_path", ctx.step);
    finish(s, outcome, error);
  }

  SpanData base(const EventContext& ctx, const std::string& id, std::string name,
                std::int64_t start, std::int64_t end) const {
    SpanData s;
    s.trace_id = trace_id_of(ctx.trace_parent, ctx.run_id);
    s.span_id = id;
    s.name = std::move(name);
    s.start_unix_ns = start;
    s.end_unix_ns = end;
    s.text_attributes = {{"reactor.run_id", ctx.run_id}, {"reactor.name", ctx.reactor}};
    if (!ctx.worker.empty()) s.text_attributes.emplace_back("reactor.worker", ctx.worker);
    s.int_attributes.emplace_back("reactor.fencing_token",
                                  static_cast<std::int64_t>(ctx.fencing_token));
    return s;
  }

  void finish(SpanData& s, const std::string& outcome, const std::string* error) {
    s.text_attributes.emplace_back("reactor.outcome", outcome);
    if (error) {
      s.error = true;
      s.message = *error;
    }
    sender.enqueue(span_to_otlp(s));
  }
};

OtlpOptions otlp_options_from_env() {
  OtlpOptions o;
  if (const char* e = std::getenv("OTEL_EXPORTER_OTLP_ENDPOINT"); e != nullptr) o.endpoint = e;
  if (const char* n = std::getenv("OTEL_SERVICE_NAME"); n != nullptr && *n != '\0') {
    o.service_name = n;
  }
  return o;
}

OtlpExporter::OtlpExporter(OtlpOptions options)
    : impl_(std::make_unique<Impl>(std::move(options))) {}
OtlpExporter::~OtlpExporter() = default;

bool OtlpExporter::flush(std::chrono::milliseconds timeout) { return impl_->sender.flush(timeout); }
std::uint64_t OtlpExporter::exported() const { return impl_->sender.exported(); }
std::uint64_t OtlpExporter::dropped() const { return impl_->sender.dropped(); }

void OtlpExporter::on_run_complete(const EventContext& ctx, RunStatus status) {
  impl_->run_span(ctx, to_string(status), nullptr);
}
void OtlpExporter::on_run_fail(const EventContext& ctx, const RunError& error) {
  impl_->run_span(ctx, "failed", &error.message);
}

void OtlpExporter::on_step_start(const EventContext& ctx) {
  impl_->started(derived_span_id(ctx.run_id, ctx.step, ctx.attempt, "step"));
}
void OtlpExporter::on_step_complete(const EventContext& ctx, Outcome outcome) {
  impl_->step_span(ctx, "step", to_string(outcome), nullptr);
}
void OtlpExporter::on_step_fail(const EventContext& ctx, const std::string& message) {
  impl_->step_span(ctx, "step", "failure", &message);
}
void OtlpExporter::on_step_retry(const EventContext& ctx, Duration, const std::string& message) {
  impl_->step_span(ctx, "step", "retry", &message);
}

void OtlpExporter::on_compensate_start(const EventContext& ctx) {
  impl_->started(derived_span_id(ctx.run_id, ctx.step, ctx.attempt, "compensate"));
}
void OtlpExporter::on_compensate_complete(const EventContext& ctx) {
  impl_->step_span(ctx, "compensate", "success", nullptr);
}
void OtlpExporter::on_compensate_fail(const EventContext& ctx, const std::string& message) {
  impl_->step_span(ctx, "compensate", "failure", &message);
}

void OtlpExporter::on_undo_start(const EventContext& ctx) {
  impl_->started(derived_span_id(ctx.run_id, ctx.step, ctx.attempt, "undo"));
}
void OtlpExporter::on_undo_complete(const EventContext& ctx) {
  impl_->step_span(ctx, "undo", "success", nullptr);
}
void OtlpExporter::on_undo_fail(const EventContext& ctx, const std::string& message) {
  impl_->step_span(ctx, "undo", "failure", &message);
}

}  // namespace reactor
