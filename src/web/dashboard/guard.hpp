// The dashboard's checks on every request before it is routed: the token (when one is set), the
// Host (a loopback dashboard without a token answers only to a loopback name, so a page of
// another site that rebinds its DNS name to 127.0.0.1 is refused), the Origin, and on a POST the
// session's CSRF token.
#pragma once

#include <optional>
#include <string>

#include "reactor/dashboard.hpp"

namespace httplib {
struct Request;
}

namespace reactor::web {

// Why a request is refused: 401 (no or a wrong token) or 403 (Host, Origin, CSRF).
struct Refusal {
  int http = 403;
  std::string message;
};

class Guard {
 public:
  explicit Guard(const DashboardOptions& options);

  std::optional<Refusal> check(const httplib::Request& req) const;
  // The CSRF token of this dashboard (random, one per start): GET /api/session hands it out.
  const std::string& csrf() const { return csrf_; }
  // Whether `token` is the dashboard's (a constant-time comparison); true when none is set.
  bool token_ok(const std::string& token) const;
  bool has_token() const { return !token_.empty(); }

 private:
  std::optional<Refusal> check_host(const httplib::Request& req) const;

  std::string token_;
  std::string csrf_;
};

// The cookie carrying the token, as GET /?token=... sets it.
inline constexpr const char* kTokenCookie = "reactor_token";
// The header a POST carries the CSRF token in.
inline constexpr const char* kCsrfHeader = "X-CSRF-Token";

}  // namespace reactor::web
