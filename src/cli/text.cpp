#include "cli/text.hpp"

#include <cctype>
#include <cstdio>
#include <ctime>

#include "storage/backend_url.hpp"

namespace reactor::cli {

std::string format_count(std::size_t n) {
  std::string digits = std::to_string(n);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string format_time(std::int64_t unix_ms) {
  if (unix_ms <= 0) return "-";
  const std::time_t seconds = static_cast<std::time_t>(unix_ms / 1000);
  std::tm utc{};
  if (gmtime_r(&seconds, &utc) == nullptr) return "-";
  char text[32];
  const std::size_t n = std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return n == 0 ? "-" : std::string(text, n);
}

void print_error(std::string_view who, std::string_view message) {
  const std::string line =
      storage::mask_passwords_in(std::string(who) + ": " + std::string(message));
  std::fprintf(stderr, "%s\n", line.c_str());
}

std::optional<Duration> parse_delay(const std::string& text) {
  std::size_t digits = 0;
  while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits]))) ++digits;
  if (digits == 0 || digits > 9) return std::nullopt;
  const long long n = std::stoll(text.substr(0, digits));
  const std::string unit = text.substr(digits);
  if (unit == "ms") return std::chrono::milliseconds(n);
  if (unit == "s") return std::chrono::seconds(n);
  if (unit == "m") return std::chrono::minutes(n);
  if (unit == "h") return std::chrono::hours(n);
  if (unit == "d") return std::chrono::hours(24 * n);
  return std::nullopt;
}

}  // namespace reactor::cli
