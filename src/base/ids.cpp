#include "reactor/ids.hpp"

#include <cstdint>
#include <random>
#include <string>
#include <string_view>

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
  std::uint64_t high = generator();
  std::uint64_t low = generator();
  // RFC 4122: version 4 in the high nibble of byte 6, variant 10xx in byte 8.
  high = (high & 0xFFFF'FFFF'FFFF'0FFFULL) | 0x0000'0000'0000'4000ULL;
  low = (low & 0x3FFF'FFFF'FFFF'FFFFULL) | 0x8000'0000'0000'0000ULL;

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
  if (id.empty()) return "a run id must not be empty";
  if (id.size() > kMaxRunIdLength) {
    return "run id '" + id.substr(0, 32) + "…' is longer than " + std::to_string(kMaxRunIdLength) +
           " characters";
  }
  for (const char c : id) {
    const bool printable = c > ' ' && c < 0x7f;
    if (!printable || std::string_view(":[]{}\"\\").find(c) != std::string_view::npos) {
      std::string shown =
          printable ? std::string(1, c) : "a space, a control character or a byte past ASCII";
      return "run id '" + (printable ? id : std::string("…")) + "' holds " +
             (printable ? "'" + shown + "'" : shown) +
             ": use letters, digits and - _ . / @ # (no space, : [ ] { } \" \\)";
    }
  }
  return {};
}

}  // namespace reactor
