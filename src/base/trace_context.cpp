// W3C traceparent parsing and the derived span ids (reactor/trace_context.hpp). By hand: the
// format is four dash-separated hex fields, and no Debian package offers it without a whole
// OpenTelemetry SDK.
#include "reactor/trace_context.hpp"

#include <array>

namespace reactor {

namespace {

constexpr std::uint64_t kTpFnvOffset = 1469598103934665603ULL;
constexpr std::uint64_t kTpFnvPrime = 1099511628211ULL;

std::uint64_t tp_fnv1a(std::uint64_t h, std::string_view bytes) {
  for (unsigned char c : bytes) {
    h ^= c;
    h *= kTpFnvPrime;
  }
  return h;
}

std::string tp_hex64(std::uint64_t v) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i, v >>= 4) out[static_cast<std::size_t>(i)] = kDigits[v & 0xf];
  return out;
}

bool tp_lower_hex(std::string_view s) {
  for (char c : s) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

bool tp_all_zero(std::string_view s) { return s.find_first_not_of('0') == std::string_view::npos; }

Status tp_bad(std::string_view text, const std::string& why) {
  return Status::InvalidArgument("invalid traceparent '" + std::string(text.substr(0, 80)) +
                                 "': " + why +
                                 " (expected 00-<32 hex trace id>-<16 hex span id>-<2 hex flags>)");
}

}  // namespace

Result<TraceContext> parse_traceparent(std::string_view text) {
  if (text.size() != 55 || text[2] != '-' || text[35] != '-' || text[52] != '-') {
    return tp_bad(text, "not four dash-separated fields of 2, 32, 16 and 2 digits");
  }
  const std::string_view version = text.substr(0, 2), trace = text.substr(3, 32),
                         span = text.substr(36, 16), flags = text.substr(53, 2);
  if (!tp_lower_hex(version) || !tp_lower_hex(trace) || !tp_lower_hex(span) ||
      !tp_lower_hex(flags)) {
    return tp_bad(text, "not lowercase hex");
  }
  if (version != "00") return tp_bad(text, "version " + std::string(version) + " is not 00");
  if (tp_all_zero(trace)) return tp_bad(text, "the trace id is all zero");
  if (tp_all_zero(span)) return tp_bad(text, "the parent span id is all zero");
  TraceContext out;
  out.trace_id = std::string(trace);
  out.span_id = std::string(span);
  out.flags = static_cast<std::uint8_t>(std::stoi(std::string(flags), nullptr, 16));
  return out;
}

std::string format_traceparent(const TraceContext& c) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string flags{kDigits[c.flags >> 4], kDigits[c.flags & 0xf]};
  return "00-" + c.trace_id + "-" + c.span_id + "-" + flags;
}

std::string derived_span_id(std::string_view origin, std::string_view path, int attempt,
                            std::string_view kind) {
  const std::string attempt_text = std::to_string(attempt);
  std::uint64_t h = kTpFnvOffset;
  for (std::string_view part : std::array<std::string_view, 4>{origin, path, attempt_text, kind}) {
    h = tp_fnv1a(h, part);
    h = tp_fnv1a(h, std::string_view("\0", 1));
  }
  return tp_hex64(h == 0 ? 1 : h);
}

std::string run_span_id(std::string_view origin, std::string_view path) {
  return derived_span_id(origin, path, 0, "run");
}

std::string derived_trace_id(std::string_view origin) {
  const std::uint64_t high = tp_fnv1a(kTpFnvOffset, origin);
  const std::uint64_t low = tp_fnv1a(tp_fnv1a(kTpFnvOffset, "reactor-trace"), origin);
  return tp_hex64(high) + tp_hex64(low == 0 ? 1 : low);
}

std::string trace_id_of(std::string_view trace_parent, std::string_view origin) {
  if (!trace_parent.empty()) {
    if (Result<TraceContext> c = parse_traceparent(trace_parent); c.ok()) return c->trace_id;
  }
  return derived_trace_id(origin);
}

std::string child_trace_parent(std::string_view parent_trace_parent, std::string_view origin,
                               std::string_view parent_path) {
  return format_traceparent(
      TraceContext{trace_id_of(parent_trace_parent, origin), run_span_id(origin, parent_path), 1});
}

}  // namespace reactor
