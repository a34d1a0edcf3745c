#include "web/dashboard/guard.hpp"

#include <httplib.h>

#include <random>

namespace reactor::web {

namespace {

std::string random_hex(std::size_t bytes) {
  std::random_device device;  // the OS's entropy source on Linux
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < bytes; ++i) {
    const unsigned b = device() & 0xffu;
    out += kHex[b >> 4];
    out += kHex[b & 0xfu];
  }
  return out;
}

bool same(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;
  for (std::size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}

// The token a request carries: "Authorization: Bearer <t>", else the cookie.
std::string token_of(const httplib::Request& req) {
  const std::string auth = req.get_header_value("Authorization");
  if (auth.starts_with("Bearer ")) return auth.substr(7);
  const std::string cookies = req.get_header_value("Cookie");
  const std::string key = std::string(kTokenCookie) + "=";
  for (std::size_t at = 0; at < cookies.size();) {
    std::size_t end = cookies.find(';', at);
    if (end == std::string::npos) end = cookies.size();
    std::string part = cookies.substr(at, end - at);
    part.erase(0, part.find_first_not_of(' '));
    if (part.starts_with(key)) return part.substr(key.size());
    at = end + 1;
  }
  return "";
}

// "localhost:8080" -> "localhost"; "[::1]:80" -> "[::1]".
std::string host_name(const std::string& host) {
  if (host.starts_with("[")) return host.substr(0, host.find(']') + 1);
  return host.substr(0, host.find(':'));
}

}  // namespace

Guard::Guard(const DashboardOptions& options) : token_(options.token), csrf_(random_hex(24)) {}

bool Guard::token_ok(const std::string& token) const {
  return token_.empty() || same(token, token_);
}

std::optional<Refusal> Guard::check_host(const httplib::Request& req) const {
  const std::string host = req.get_header_value("Host");
  if (host.empty()) return Refusal{403, "no Host header"};
  if (!has_token() && !reactor::is_loopback_host(host_name(host))) {
    return Refusal{403, "Host '" + host + "' is not a loopback name"};
  }
  const std::string origin = req.get_header_value("Origin");
  if (!origin.empty() && origin != "http://" + host && origin != "https://" + host) {
    return Refusal{403, "Origin '" + origin + "' is not this dashboard"};
  }
  return std::nullopt;
}

std::optional<Refusal> Guard::check(const httplib::Request& req) const {
  if (auto refused = check_host(req)) return refused;
  // The page's own address with ?token= is how a browser gets its cookie (routes.cpp).
  const bool logs_in = req.method == "GET" && req.path == "/" && req.has_param("token");
  if (has_token() && !logs_in && !token_ok(token_of(req))) {
    return Refusal{401, "a token is required (Authorization: Bearer <token>, or open /?token=...)"};
  }
  if (req.method != "GET" && !same(req.get_header_value(kCsrfHeader), csrf_)) {
    return Refusal{403, "missing or wrong X-CSRF-Token (GET /api/session gives it)"};
  }
  return std::nullopt;
}

}  // namespace reactor::web

namespace reactor {

bool is_loopback_host(const std::string& host) {
  return host == "localhost" || host == "::1" || host == "[::1]" || host.starts_with("127.");
}

}  // namespace reactor
