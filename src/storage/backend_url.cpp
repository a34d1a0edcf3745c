#include "storage/backend_url.hpp"

namespace reactor::storage {

std::string mask_password(const std::string& url) {
  const auto scheme_end = url.find("://");
  if (scheme_end == std::string::npos) return url;
  const auto authority = scheme_end + 3;
  const auto at = url.find('@', authority);
  const auto slash = url.find('/', authority);
  if (at == std::string::npos || (slash != std::string::npos && slash < at)) return url;
  return url.substr(0, authority) + "***" + url.substr(at);
}

std::string mask_passwords_in(std::string_view text) {
  std::string out;
  std::size_t done = 0;
  for (auto scheme_end = text.find("://"); scheme_end != std::string_view::npos;
       scheme_end = text.find("://", scheme_end + 3)) {
    const std::size_t authority = scheme_end + 3;
    // The authority ends where the path, the query or the word does.
    std::size_t end = text.find_first_of("/?# \t\r\n'\"", authority);
    if (end == std::string_view::npos) end = text.size();
    const std::size_t at = text.rfind('@', end == 0 ? 0 : end - 1);
    if (at == std::string_view::npos || at < authority || at >= end) continue;
    out.append(text.substr(done, authority - done)).append("***");
    done = at;
  }
  return out.append(text.substr(done));
}

}  // namespace reactor::storage
