// Backend URLs in messages: a password never appears in an error or a log.
#pragma once

#include <string>
#include <string_view>

#include "reactor/status.hpp"

namespace reactor::storage {

// The URL with its user-info part ("user:password@") replaced by "***@".
std::string mask_password(const std::string& url);
// `text` (a message, a command line) with every URL in it masked so: the user
// info of each "scheme://user:password@host" becomes "***".
std::string mask_passwords_in(std::string_view text);

// Calls fn(name, value) for each "name=value" of a URL query ("a=1&b=2");
// a bare "name" has an empty value. Stops at, and returns, fn's first
// non-ok Status.
template <typename Fn>
Status for_each_query_option(std::string_view query, Fn&& fn) {
  while (!query.empty()) {
    const auto amp = query.find('&');
    const std::string_view option = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    if (option.empty()) continue;
    const auto eq = option.find('=');
    const std::string_view value =
        eq == std::string_view::npos ? std::string_view() : option.substr(eq + 1);
    if (Status s = fn(option.substr(0, eq), value); !s.ok()) return s;
  }
  return Status::Ok();
}

}  // namespace reactor::storage
