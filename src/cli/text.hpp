// How the command line writes numbers, times and messages.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "reactor/clock.hpp"

namespace reactor::cli {

// 5000 -> "5,000".
std::string format_count(std::size_t n);

// Unix milliseconds as UTC, to the second: "2025-01-31T12:00:00Z"; 0 -> "-" (unknown).
std::string format_time(std::int64_t unix_ms);

// "90s", "10m", "2h", "1d" (and "500ms"): a delay; nullopt for anything else.
std::optional<Duration> parse_delay(const std::string& text);

// Prints "<who>: <message>" on stderr, every password in it masked.
void print_error(std::string_view who, std::string_view message);

}  // namespace reactor::cli
