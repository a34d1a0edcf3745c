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

}  // namespace reactor::storage
