// The OTLP/JSON encoding of spans (OpenTelemetry protocol, "JSON Protobuf Encoding"): ids as
// lowercase hex strings, times as unix nanoseconds in strings, 64-bit integers as strings,
// attributes as {key, value: {stringValue | intValue}}.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace reactor {

struct SpanData {
  std::string trace_id;        // 32 hex
  std::string span_id;         // 16 hex
  std::string parent_span_id;  // 16 hex, empty for a root span
  std::string name;
  std::int64_t start_unix_ns = 0;
  std::int64_t end_unix_ns = 0;
  std::vector<std::pair<std::string, std::string>> text_attributes;
  std::vector<std::pair<std::string, std::int64_t>> int_attributes;
  bool error = false;
  std::string message;  // with error: the status message
};

// One span object of scopeSpans[].spans.
nlohmann::json span_to_otlp(const SpanData& span);

// The body of a POST to /v1/traces: one resourceSpans with service.name, one scope "reactor".
std::string otlp_traces_body(const std::string& service_name,
                             const std::vector<nlohmann::json>& spans);

}  // namespace reactor
