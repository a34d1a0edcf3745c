#include "observe/otlp_json.hpp"

namespace reactor {

namespace {

nlohmann::json text_attribute(const std::string& key, const std::string& value) {
  return {{"key", key}, {"value", {{"stringValue", value}}}};
}

}  // namespace

nlohmann::json span_to_otlp(const SpanData& span) {
  nlohmann::json attributes = nlohmann::json::array();
  for (const auto& [key, value] : span.text_attributes) {
    attributes.push_back(text_attribute(key, value));
  }
  for (const auto& [key, value] : span.int_attributes) {
    // int64 is a string in proto3's JSON mapping.
    attributes.push_back({{"key", key}, {"value", {{"intValue", std::to_string(value)}}}});
  }
  nlohmann::json status = {{"code", span.error ? 2 : 1}};  // STATUS_CODE_ERROR / _OK
  if (span.error) status["message"] = span.message;
  nlohmann::json out = {{"traceId", span.trace_id},
                        {"spanId", span.span_id},
                        {"name", span.name},
                        {"kind", 1},  // SPAN_KIND_INTERNAL
                        {"startTimeUnixNano", std::to_string(span.start_unix_ns)},
                        {"endTimeUnixNano", std::to_string(span.end_unix_ns)},
                        {"attributes", std::move(attributes)},
                        {"status", std::move(status)}};
  if (!span.parent_span_id.empty()) out["parentSpanId"] = span.parent_span_id;
  return out;
}

std::string otlp_traces_body(const std::string& service_name,
                             const std::vector<nlohmann::json>& spans) {
  nlohmann::json resource = {
      {"attributes", nlohmann::json::array({text_attribute("service.name", service_name)})}};
  nlohmann::json scope = {{"scope", {{"name", "reactor"}}}, {"spans", spans}};
  nlohmann::json body = {
      {"resourceSpans", nlohmann::json::array({{{"resource", std::move(resource)},
                                                {"scopeSpans", nlohmann::json::array({scope})}}})}};
  return body.dump();
}

}  // namespace reactor
