// For docs/schedules.md: the names its snippets use without defining them — an engine and the
// inputs of a start.
#pragma once

#include <reactor/reactor.hpp>
#include <reactor/schedule.hpp>

using namespace reactor;

inline Engine engine;
inline const Value inputs = Value::object();
