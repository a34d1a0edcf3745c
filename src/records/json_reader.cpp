#include "records/json_reader.hpp"

#include <memory>
#include <string>

namespace reactor::records {

namespace detail {

struct ParseBuffer::Slot {
  simdjson::ondemand::parser parser;
  std::string text;
  simdjson::ondemand::document doc;
  bool busy = false;
};

namespace {
// One per thread, made on its first read and freed when the thread ends.
thread_local std::unique_ptr<ParseBuffer::Slot> t_slot;
}  // namespace

ParseBuffer::ParseBuffer() {
  if (!t_slot) t_slot = std::make_unique<Slot>();
  owned_ = t_slot->busy;
  slot_ = owned_ ? new Slot : t_slot.get();
  slot_->busy = true;
}

ParseBuffer::~ParseBuffer() {
  if (owned_) {
    delete slot_;
  } else {
    slot_->busy = false;
  }
}

simdjson::ondemand::document& ParseBuffer::parse(std::string_view text, const char* what) {
  slot_->text.assign(text);
  slot_->text.append(simdjson::SIMDJSON_PADDING, '\0');
  const simdjson::padded_string_view padded(slot_->text.data(), text.size(), slot_->text.size());
  if (auto e = slot_->parser.iterate(padded).get(slot_->doc); e) {
    throw RecordError(std::string(what) + " is not JSON: " + simdjson::error_message(e));
  }
  return slot_->doc;
}

}  // namespace detail

namespace {

[[noreturn]] void bad(simdjson::error_code e) {
  throw RecordError(std::string("malformed JSON: ") + simdjson::error_message(e));
}

template <typename T>
T get(simdjson::simdjson_result<T> r) {
  T out{};
  if (auto e = std::move(r).get(out); e) bad(e);
  return out;
}

// A number as nlohmann would hold it: an integer that fits int64 or uint64
// as one, anything else (a fraction, an exponent, an integer past uint64) as
// a double.
template <typename Source>
Value number(Source& v) {
  simdjson::ondemand::number_type type;
  if (v.get_number_type().get(type) == simdjson::SUCCESS) {
    std::int64_t i = 0;
    std::uint64_t u = 0;
    if (type == simdjson::ondemand::number_type::signed_integer &&
        v.get_int64().get(i) == simdjson::SUCCESS) {
      return i;
    }
    if (type == simdjson::ondemand::number_type::unsigned_integer &&
        v.get_uint64().get(u) == simdjson::SUCCESS) {
      return u;
    }
  }
  return get(v.get_double());
}

}  // namespace

namespace {

Value to_value_at(simdjson::ondemand::value v, int depth);

Value to_value_at(simdjson::ondemand::value v, int depth) {
  using simdjson::ondemand::json_type;
  if (depth > kMaxValueDepth) {
    throw TooDeep("a value is nested deeper than " + std::to_string(kMaxValueDepth) + " levels");
  }
  switch (get(v.type())) {
    case json_type::null:
      return nullptr;
    case json_type::boolean:
      return get(v.get_bool());
    case json_type::string:
      return std::string(get(v.get_string()));
    case json_type::number:
      return number(v);
    case json_type::array: {
      Value out = Value::array();
      for (auto element : get(v.get_array())) {
        out.push_back(to_value_at(get(std::move(element)), depth + 1));
      }
      return out;
    }
    case json_type::object: {
      Value out = Value::object();
      for (auto field : get(v.get_object())) {
        auto f = get(std::move(field));
        std::string key(get(f.unescaped_key()));
        // A repeated key keeps its last value, as nlohmann's parser does.
        out[std::move(key)] = to_value_at(f.value(), depth + 1);
      }
      return out;
    }
  }
  bad(simdjson::INCORRECT_TYPE);
}

}  // namespace

Value to_value(simdjson::ondemand::value v) { return to_value_at(v, 1); }

Value parse_value(std::string_view text) {
  detail::ParseBuffer buffer;
  simdjson::ondemand::document& doc = buffer.parse(text, "value");
  using simdjson::ondemand::json_type;
  Value out;
  switch (get(doc.type())) {
    case json_type::null:
      if (!get(doc.is_null())) bad(simdjson::INCORRECT_TYPE);
      out = nullptr;
      break;
    case json_type::boolean:
      out = get(doc.get_bool());
      break;
    case json_type::string:
      out = std::string(get(doc.get_string()));
      break;
    case json_type::number:
      out = number(doc);
      break;
    default:
      out = to_value(get(doc.get_value()));
  }
  return out;
}

simdjson::ondemand::value FieldReader::member(std::string_view key) {
  simdjson::ondemand::value v;
  if (auto e = object_.find_field_unordered(key).get(v); e) wrong(key, e);
  return v;
}

void FieldReader::wrong(std::string_view key, simdjson::error_code e) {
  if (e == simdjson::NO_SUCH_FIELD) throw RecordError("no member '" + std::string(key) + "'");
  throw RecordError("member '" + std::string(key) + "': " + simdjson::error_message(e));
}

// A member kept as text must be one whole JSON object: the enclosing record's On-Demand parse
// never saw its structure, whether it was unescaped from a string or sliced out inline (On-Demand
// slices `{1}` as `{1`), and a copy kept unchecked would be written back as a record that is not
// JSON. The DOM parser reads every value of it (one reused parser a thread, depth-limited).
void FieldReader::check_object(std::string_view key, std::string_view text) {
  thread_local simdjson::dom::parser parser;
  simdjson::dom::element element;
  if (auto e = parser.parse(text.data(), text.size(), true).get(element); e) wrong(key, e);
  if (!element.is_object()) wrong(key, simdjson::INCORRECT_TYPE);
}

void FieldReader::raw_json(std::string_view key, std::string& out) {
  simdjson::ondemand::value v = member(key);
  simdjson::ondemand::json_type type;
  if (auto e = v.type().get(type); e) wrong(key, e);
  if (type == simdjson::ondemand::json_type::string) {
    // Escaped as a string (the layouts before Redis layout 5): one JSON object and nothing else,
    // whitespace around it aside.
    std::string escaped;
    read(v, key, escaped);
    check_object(key, escaped);
    const auto first = escaped.find_first_not_of(" \t\n\r");
    const auto last = escaped.find_last_not_of(" \t\n\r");
    out.assign(escaped, first, last - first + 1);
    return;
  }
  simdjson::ondemand::object object;
  std::string_view text;
  if (auto e = v.get_object().get(object); e) wrong(key, e);
  if (auto e = object.raw_json().get(text); e) wrong(key, e);
  check_object(key, text);
  out.assign(text);
}

}  // namespace reactor::records
