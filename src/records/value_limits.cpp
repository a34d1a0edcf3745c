#include "records/value_limits.hpp"

#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

#include "reactor/limits.hpp"

namespace reactor::records {

namespace {

std::size_t decimal_digits(std::uint64_t n) {
  std::size_t digits = 1;
  while (n >= 10) n /= 10, ++digits;
  return digits;
}

// Whether any of the 8 bytes in `w` needs an escape: a control character, '"' or '\\'. Bit
// tricks over a word (Hacker's Delight's "has less than" and "has zero byte"), since this
// runs over every string a step returns and most have nothing to escape.
bool word_needs_escape(std::uint64_t w) {
  constexpr std::uint64_t kOnes = ~std::uint64_t{0} / 255;  // 0x0101…01
  constexpr std::uint64_t kHigh = kOnes * 0x80;
  const auto has_zero = [](std::uint64_t x) { return ((x - kOnes) & ~x & kHigh) != 0; };
  const bool control = ((w - kOnes * 0x20) & ~w & kHigh) != 0;  // a byte below 0x20
  return control || has_zero(w ^ (kOnes * '"')) || has_zero(w ^ (kOnes * '\\'));
}

bool needs_escape(const std::string& text) {
  std::size_t k = 0;
  for (; k + 8 <= text.size(); k += 8) {
    std::uint64_t w;
    std::memcpy(&w, text.data() + k, 8);
    if (word_needs_escape(w)) return true;
  }
  for (; k < text.size(); ++k) {
    const auto c = static_cast<unsigned char>(text[k]);
    if (c < 0x20 || c == '"' || c == '\\') return true;
  }
  return false;
}

// The length of `text` as append_string writes it, quotes included (text that is not UTF-8
// is counted as it stands: its replacement is about as long).
std::size_t string_bytes(const std::string& text) {
  std::size_t n = text.size() + 2;
  if (!needs_escape(text)) return n;
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\' || c == '\b' || c == '\f' || c == '\n' || c == '\r' || c == '\t') {
      n += 1;
    } else if (c < 0x20) {
      n += 5;
    }
  }
  return n;
}

std::size_t scalar_bytes(const Value& v) {
  switch (v.type()) {
    case Value::value_t::null:
      return 4;
    case Value::value_t::boolean:
      return v.get<bool>() ? 4 : 5;
    case Value::value_t::number_integer: {
      const auto i = v.get<std::int64_t>();
      return i < 0 ? 1 + decimal_digits(0 - static_cast<std::uint64_t>(i))
                   : decimal_digits(static_cast<std::uint64_t>(i));
    }
    case Value::value_t::number_unsigned:
      return decimal_digits(v.get<std::uint64_t>());
    case Value::value_t::string:
      return string_bytes(v.get_ref<const std::string&>());
    default:  // floating point, binary: as dump() writes them
      return v.dump(-1, ' ', false, Value::error_handler_t::replace).size();
  }
}

// The containers being walked, the innermost last. A step's value nests a few levels: those are
// walked with no heap allocation (this runs once per step), deeper ones spill into a vector.
class OpenContainers {
 public:
  struct Open {
    const Value* container = nullptr;
    Value::const_iterator next;
  };

  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  Open& back() { return size_ <= kInline ? inline_[size_ - 1] : spill_.back(); }
  void push_back(const Open& o) {
    if (size_ < kInline) {
      inline_[size_] = o;
    } else {
      spill_.push_back(o);
    }
    ++size_;
  }
  void pop_back() {
    if (size_ > kInline) spill_.pop_back();
    --size_;
  }

 private:
  static constexpr std::size_t kInline = 8;
  std::array<Open, kInline> inline_;
  std::vector<Open> spill_;
  std::size_t size_ = 0;
};

}  // namespace

ValueSize measure_value(const Value& value, std::size_t max_bytes, int max_depth) {
  ValueSize size;
  using Open = OpenContainers::Open;
  OpenContainers open;
  const auto visit = [&](const Value& v) {
    const int depth = static_cast<int>(open.size()) + 1;
    if (depth > size.depth) size.depth = depth;
    if (depth > max_depth) {
      size.too_deep = true;
      return;
    }
    if (v.is_array() || v.is_object()) {
      size.bytes += 2;  // [] or {}
      if (!v.empty()) open.push_back(Open{&v, v.cbegin()});
    } else {
      size.bytes += scalar_bytes(v);
    }
    if (size.bytes > max_bytes) size.too_large = true;
  };
  visit(value);
  while (!open.empty() && !size.too_deep && !size.too_large) {
    Open& top = open.back();
    if (top.next == top.container->cend()) {
      open.pop_back();
      continue;
    }
    if (top.next != top.container->cbegin()) size.bytes += 1;                        // ,
    if (top.container->is_object()) size.bytes += string_bytes(top.next.key()) + 1;  // "k":
    const Value& element = *top.next;
    ++top.next;
    visit(element);  // may move `top`: not used after
  }
  return size;
}

std::string limit_error(const ValueSize& size, std::size_t max_bytes, std::string_view what) {
  if (size.too_deep) {
    return std::string(what) + ": nested deeper than " + std::to_string(kMaxValueDepth) + " levels";
  }
  return std::string(what) + ": over " + std::to_string(max_bytes) +
         " bytes as JSON (max_value_bytes)";
}

std::optional<std::string> value_limit_error(const Value& value, std::size_t max_bytes,
                                             std::string_view what) {
  const ValueSize size = measure_value(value, max_bytes);
  if (size.within_limits()) return std::nullopt;
  return limit_error(size, max_bytes, what);
}

}  // namespace reactor::records
