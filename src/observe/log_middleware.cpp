#include "reactor/log_middleware.hpp"

#include <chrono>
#include <cstdio>
#include <ctime>

namespace reactor {

namespace {

// ISO-8601 UTC with milliseconds ("2026-11-30T10:00:00.123Z"): sortable as text and what log
// shippers parse without configuration.
std::string utc_timestamp() {
  using namespace std::chrono;
  const auto now = time_point_cast<milliseconds>(system_clock::now());
  const std::time_t seconds = system_clock::to_time_t(
      time_point_cast<system_clock::duration>(time_point_cast<std::chrono::seconds>(now)));
  const auto ms = (now.time_since_epoch() % std::chrono::seconds(1)).count();
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char buf[96];  // sized for any int fields, to keep -Wformat-truncation quiet
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900,
                tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                static_cast<int>(ms < 0 ? ms + 1000 : ms));
  return buf;
}

bool is_control(unsigned char c) { return c < 0x20 || c == 0x7f; }

bool needs_quotes(const std::string& v) {
  if (v.empty()) return true;
  for (unsigned char c : v) {
    if (c == ' ' || c == '"' || c == '=' || is_control(c)) return true;
  }
  return false;
}

void append_pair(std::string& out, const char* key, const std::string& value) {
  out += ' ';
  out += key;
  out += '=';
  out += logfmt_value(value);
}

}  // namespace

// Control characters are escaped as well as quotes and backslashes: a message with a newline
// must not split one event over two lines.
std::string logfmt_value(const std::string& v) {
  if (!needs_quotes(v)) return v;
  std::string out;
  out.reserve(v.size() + 2);
  out += '"';
  for (unsigned char c : v) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (is_control(c)) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  out += '"';
  return out;
}

LogMiddleware::LogMiddleware(std::ostream& out) : out_(out) {}

// The line is assembled before taking the lock, which then covers only the write, so threads
// never interleave within a line and never wait on each other's formatting.
void LogMiddleware::line(const char* event, const EventContext& ctx, const std::string& extra) {
  std::string text = "ts=" + utc_timestamp();
  text += " event=";
  text += event;
  append_pair(text, "run", ctx.run_id);
  append_pair(text, "reactor", ctx.reactor);
  // Run events carry no step; every other event belongs to one attempt of a step.
  if (!ctx.step.empty()) {
    append_pair(text, "step", ctx.step);
    append_pair(text, "attempt", std::to_string(ctx.attempt));
  }
  text += extra;
  text += '\n';
  std::lock_guard lock(mu_);
  out_ << text;
  out_.flush();
}

void LogMiddleware::on_run_start(const EventContext& ctx, const Value& redacted_inputs) {
  std::string extra;
  append_pair(extra, "inputs", redacted_inputs.dump());
  line("run_start", ctx, extra);
}

void LogMiddleware::on_run_complete(const EventContext& ctx, RunStatus status) {
  std::string extra;
  append_pair(extra, "status", to_string(status));
  line("run_complete", ctx, extra);
}

void LogMiddleware::on_run_fail(const EventContext& ctx, const RunError& error) {
  std::string extra;
  append_pair(extra, "error_kind", to_string(error.kind));
  append_pair(extra, "error_step", error.step);
  append_pair(extra, "message", error.message);
  line("run_fail", ctx, extra);
}

void LogMiddleware::on_step_start(const EventContext& ctx) { line("step_start", ctx, ""); }

void LogMiddleware::on_step_complete(const EventContext& ctx, Outcome outcome) {
  std::string extra;
  append_pair(extra, "outcome", to_string(outcome));
  line("step_complete", ctx, extra);
}

void LogMiddleware::on_step_fail(const EventContext& ctx, const std::string& message) {
  std::string extra;
  append_pair(extra, "message", message);
  line("step_fail", ctx, extra);
}

void LogMiddleware::on_step_retry(const EventContext& ctx, Duration delay,
                                  const std::string& message) {
  std::string extra;
  append_pair(extra, "delay_ms",
              std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(delay).count()));
  append_pair(extra, "message", message);
  line("step_retry", ctx, extra);
}

void LogMiddleware::on_compensate_start(const EventContext& ctx) {
  line("compensate_start", ctx, "");
}

void LogMiddleware::on_compensate_complete(const EventContext& ctx) {
  line("compensate_complete", ctx, "");
}

void LogMiddleware::on_compensate_fail(const EventContext& ctx, const std::string& message) {
  std::string extra;
  append_pair(extra, "message", message);
  line("compensate_fail", ctx, extra);
}

void LogMiddleware::on_undo_start(const EventContext& ctx) { line("undo_start", ctx, ""); }

void LogMiddleware::on_undo_complete(const EventContext& ctx) { line("undo_complete", ctx, ""); }

void LogMiddleware::on_undo_fail(const EventContext& ctx, const std::string& message) {
  std::string extra;
  append_pair(extra, "message", message);
  line("undo_fail", ctx, extra);
}

// event=hand_off run=… reactor=… step=charge attempt=0 where=after
void LogMiddleware::on_hand_off(const EventContext& ctx, const std::string& where) {
  std::string extra;
  append_pair(extra, "where", where);
  line("hand_off", ctx, extra);
}

// event=async_dispatch run=… reactor=… step=notify attempt=1 unit_run=…:notify[0]
void LogMiddleware::on_async_dispatch(const EventContext& ctx, const std::string& unit_run) {
  std::string extra;
  append_pair(extra, "unit_run", unit_run);
  line("async_dispatch", ctx, extra);
}

}  // namespace reactor
