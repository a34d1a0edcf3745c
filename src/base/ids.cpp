#include "reactor/ids.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace reactor {

namespace {

std::mt19937_64& uuid_generator() {
  // One generator per thread: no lock on the hot path of starting a run, and random_device is
  // read only once per thread, since it may be a slow system call.
  thread_local std::mt19937_64 generator = [] {
    std::random_device device;
    std::seed_seq seed{device(), device(), device(), device()};
    return std::mt19937_64(seed);
  }();
  return generator;
}

// Writes the 2 * count hex digits of `bits`, most significant first.
char* put_hex(char* out, std::uint64_t bits, int count) {
  static constexpr char kDigits[] = "0123456789abcdef";
  for (int i = 2 * count - 1; i >= 0; --i) *out++ = kDigits[(bits >> (4 * i)) & 0xF];
  return out;
}

}  // namespace

std::string new_run_id() {
  std::mt19937_64& generator = uuid_generator();
  const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                      std::chrono::system_clock::now().time_since_epoch())
                      .count();
  const auto ms = static_cast<std::uint64_t>(ns / 1'000'000);
  const auto fraction = static_cast<std::uint64_t>(ns % 1'000'000) * 4096 / 1'000'000;
  // RFC 9562 version 7: 48 bits of Unix milliseconds, the version, 12 bits of the millisecond's
  // fraction (its method 3), then random bits (the variant 10xx in byte 8). Ids made one after
  // another sort in that order, so a store's B-tree keyed by them grows at its right edge
  // rather than splitting a random leaf per run.
  std::uint64_t high = (ms << 16) | 0x7000U | fraction;
  std::uint64_t low = (generator() & 0x3FFF'FFFF'FFFF'FFFFULL) | 0x8000'0000'0000'0000ULL;

  std::string id(36, '-');
  char* p = id.data();
  p = put_hex(p, high >> 32, 4) + 1;
  p = put_hex(p, (high >> 16) & 0xFFFF, 2) + 1;
  p = put_hex(p, high & 0xFFFF, 2) + 1;
  p = put_hex(p, low >> 48, 2) + 1;
  put_hex(p, low & 0xFFFF'FFFF'FFFFULL, 6);
  return id;
}

std::string run_id_error(const std::string& id) {
  // The id as typed, quoted, a byte that would not print (a control character, a byte past
  // ASCII) as \xNN; and each character it may not hold, once.
  const auto as_typed = [](std::string_view text) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string out = "'";
    for (const char c : text) {
      const auto byte = static_cast<unsigned char>(c);
      if (byte >= ' ' && byte < 0x7f) {
        out += c;
      } else {
        out += {'\\', 'x', kDigits[byte >> 4], kDigits[byte & 0xF]};
      }
    }
    return out + "'";
  };
  const char* const kRule =
      "a run id uses letters, digits and - _ . / @ # (no space, : [ ] { } \" \\, no control "
      "character or byte past ASCII)";
  if (id.empty()) return "a run id must not be empty";
  if (id.size() > kMaxRunIdLength) {
    return "run id " + as_typed(std::string_view(id).substr(0, 32)) + "… is longer than " +
           std::to_string(kMaxRunIdLength) + " characters";
  }
  std::vector<std::string> held;
  for (const char c : id) {
    const bool printable = c > ' ' && c < 0x7f;
    if (printable && std::string_view(":[]{}\"\\").find(c) == std::string_view::npos) continue;
    const std::string name = c == ' '    ? "a space"
                             : printable ? "'" + std::string(1, c) + "'"
                             : static_cast<unsigned char>(c) < ' ' || c == 0x7f
                                 ? "a control character"
                                 : "a byte past ASCII";
    if (std::find(held.begin(), held.end(), name) == held.end()) held.push_back(name);
  }
  if (held.empty()) return {};
  std::string what;  // "a space, ':' and '['"
  for (std::size_t i = 0; i < held.size(); ++i) {
    what += (i == 0 ? "" : i + 1 == held.size() ? " and " : ", ") + held[i];
  }
  return "run id " + as_typed(id) + " holds " + what + ": " + kRule;
}

}  // namespace reactor
