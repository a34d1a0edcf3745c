// W3C trace context (https://www.w3.org/TR/trace-context/): the `traceparent` text a run is
// started under, and the span ids of a run's spans. Span ids are derived from what names a span
// (a run's origin id and path, a step, an attempt, a kind) by a hash, so every process that
// touches a run computes the same ids without asking anyone: a worker finishing a step knows the
// id of the run's span another process will close.
//
// Pure functions; thread-safe. Nothing here is durable: Run::trace_parent is (reactor/run.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "reactor/result.hpp"

namespace reactor {

struct TraceContext {
  std::string trace_id;    // 32 lowercase hex digits, not all zero
  std::string span_id;     // 16 lowercase hex digits, not all zero: the parent of what follows
  std::uint8_t flags = 1;  // 01: sampled
};

// "00-<trace id>-<span id>-<flags>". Version 00 only; ids not all zero; anything else is
// InvalidArgument naming what is wrong. Uppercase hex is refused (the spec's own rule).
Result<TraceContext> parse_traceparent(std::string_view text);
std::string format_traceparent(const TraceContext& context);

// A span id (16 hex digits, never all zero) for the span of `kind` ("run", "step", "compensate",
// "undo") of `step` (empty for the run itself) at `attempt`, in the run tree of `origin` (a root
// run's id; a map element's origin): FNV-1a 64 of the four, fields separated by a NUL.
std::string derived_span_id(std::string_view origin, std::string_view path, int attempt,
                            std::string_view kind);
// The span id of the run at `path` ("" for the root) in the tree of `origin`.
std::string run_span_id(std::string_view origin, std::string_view path);
// A trace id (32 hex digits) for a run tree started without a caller's trace: derived from its
// origin, so every process finds the same one.
std::string derived_trace_id(std::string_view origin);

// The trace id a run with `trace_parent` (possibly empty or malformed: derived then) belongs to.
std::string trace_id_of(std::string_view trace_parent, std::string_view origin);
// The traceparent a run started from the run at `parent_path` of `origin` carries: that run's
// trace, with that run's span as parent (fan-out elements, async units, composed children,
// retries).
std::string child_trace_parent(std::string_view parent_trace_parent, std::string_view origin,
                               std::string_view parent_path);

}  // namespace reactor
