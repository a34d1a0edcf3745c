#include "storage/redis/url.hpp"

#include <charconv>
#include <optional>
#include <string>
#include <string_view>

#include "storage/backend_url.hpp"

namespace reactor::redis {

namespace {

bool parse_int(std::string_view text, long long min, long long max, long long& out) {
  if (text.empty()) return false;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, out);
  return ec == std::errc() && ptr == end && out >= min && out <= max;
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Percent-decoding, so a password may contain ':', '@' or '/'.
bool percent_decode(std::string_view in, std::string& out) {
  out.clear();
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (in[i] != '%') {
      out += in[i];
      continue;
    }
    if (i + 2 >= in.size()) return false;  // needs two hex digits
    const int hi = hex_digit(in[i + 1]);
    const int lo = hex_digit(in[i + 2]);
    if (hi < 0 || lo < 0) return false;
    out += static_cast<char>(hi * 16 + lo);
    i += 2;
  }
  return true;
}

// Each part below says what is wrong with it, or nothing: parse_redis_url names the URL.
using Why = std::optional<std::string>;

// "user:password" or "password" (a lone user-info part is the password, as redis-cli reads it).
Why parse_user_info(std::string_view user_info, RedisOptions& out) {
  std::string_view user = user_info;
  std::string_view password;
  if (auto colon = user_info.find(':'); colon != std::string_view::npos) {
    user = user_info.substr(0, colon);
    password = user_info.substr(colon + 1);
  } else {
    password = user_info;
    user = {};
  }
  if (!percent_decode(user, out.username) || !percent_decode(password, out.password)) {
    return "bad percent-encoding in the user or password";
  }
  return std::nullopt;
}

// "host", "host:port", "[IPv6]:port", or nothing (the defaults).
Why parse_host_port(std::string_view rest, RedisOptions& out) {
  std::string_view port;
  if (!rest.empty() && rest.front() == '[') {  // [IPv6]:port
    const auto close = rest.find(']');
    if (close == std::string_view::npos) return "unterminated '[' in the host";
    out.host = std::string(rest.substr(1, close - 1));
    rest.remove_prefix(close + 1);
    if (!rest.empty()) {
      if (rest.front() != ':') return "expected ':' after ']'";
      port = rest.substr(1);
    }
  } else {
    const auto colon = rest.rfind(':');
    if (colon != std::string_view::npos) {
      port = rest.substr(colon + 1);
      rest = rest.substr(0, colon);
    }
    if (!rest.empty()) out.host = std::string(rest);
  }
  long long number = 0;
  if (!port.empty()) {
    if (!parse_int(port, 1, 65535, number)) return "port must be 1..65535";
    out.port = static_cast<int>(number);
  }
  return std::nullopt;
}

// One `?name=value` option.
// A prefix holds no '{' or '}', or starts with one hash tag: '{', a non-empty tag, '}', and no
// other brace. With a tag, it is the first '{...}' of every key (the per-run tags come after the
// prefix), so Redis hashes every key of the store to one slot: a store on a Redis Cluster.
// Without one, the first is the per-run tag, and the keys of one root share a slot.
bool valid_prefix(std::string_view prefix) {
  if (!prefix.starts_with('{')) return prefix.find_first_of("{}") == std::string_view::npos;
  const auto close = prefix.find_first_of("{}", 1);
  return close != std::string_view::npos && close > 1 && prefix[close] == '}' &&
         prefix.find_first_of("{}", close + 1) == std::string_view::npos;
}

Why apply_option(std::string_view name, std::string_view value, RedisOptions& out) {
  long long number = 0;
  auto milliseconds = [&](std::chrono::milliseconds& field) {
    if (!parse_int(value, 1, 24LL * 3600 * 1000, number)) return false;
    field = std::chrono::milliseconds(number);
    return true;
  };
  if (name == "prefix") {
    if (!percent_decode(value, out.prefix)) return "bad percent-encoding in prefix";
    if (!valid_prefix(out.prefix)) {
      return "prefix may start with one hash tag '{<tag>}' (non-empty), and hold no other '{' or "
             "'}'";
    }
  } else if (name == "connect_timeout_ms") {
    if (!milliseconds(out.connect_timeout)) return "connect_timeout_ms must be > 0";
  } else if (name == "timeout_ms") {
    if (!milliseconds(out.command_timeout)) return "timeout_ms must be > 0";
  } else if (name == "reconnect_ms") {
    if (!parse_int(value, 0, 24LL * 3600 * 1000, number)) return "reconnect_ms must be >= 0";
    out.reconnect_budget = std::chrono::milliseconds(number);
  } else if (name == "pool") {
    if (!parse_int(value, 1, 1024, number)) return "pool must be 1..1024";
    out.max_idle_connections = static_cast<std::size_t>(number);
  } else {
    return "unknown option '" + std::string(name) +
           "' (known: prefix, connect_timeout_ms, timeout_ms, reconnect_ms, pool)";
  }
  return std::nullopt;
}

}  // namespace

Status parse_redis_url(const std::string& url, RedisOptions& out) {
  out = RedisOptions{};
  out.masked_url = storage::mask_password(url);
  auto invalid = [&](const std::string& why) {
    return Status::InvalidArgument("backend URL " + out.masked_url + ": " + why);
  };
  std::string_view rest(url);
  if (rest.substr(0, 9) == "rediss://") {
    return invalid("TLS (rediss://) is not supported; use redis://");
  }
  if (rest.substr(0, 8) != "redis://") return invalid("expected redis://");
  rest.remove_prefix(8);
  std::string_view query;
  if (auto q = rest.find('?'); q != std::string_view::npos) {
    query = rest.substr(q + 1);
    rest = rest.substr(0, q);
  }
  std::string_view path;
  if (auto slash = rest.find('/'); slash != std::string_view::npos) {
    path = rest.substr(slash + 1);
    rest = rest.substr(0, slash);
  }
  if (auto at = rest.rfind('@'); at != std::string_view::npos) {
    if (Why why = parse_user_info(rest.substr(0, at), out)) return invalid(*why);
    rest = rest.substr(at + 1);
  }
  if (Why why = parse_host_port(rest, out)) return invalid(*why);
  long long number = 0;
  if (!path.empty()) {
    if (!parse_int(path, 0, 1 << 20, number)) return invalid("the database must be a number");
    out.db = static_cast<int>(number);
  }
  return storage::for_each_query_option(query, [&](std::string_view name, std::string_view value) {
    Why why = apply_option(name, value, out);
    return why ? invalid(*why) : Status::Ok();
  });
}

}  // namespace reactor::redis
