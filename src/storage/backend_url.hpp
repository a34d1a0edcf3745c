// Backend URLs in messages: a password never appears in an error or a log.
#pragma once

#include <string>

namespace reactor::storage {

// The URL with its user-info part ("user:password@") replaced by "***@".
std::string mask_password(const std::string& url);

}  // namespace reactor::storage
