// Mounts the dashboard's page, its JSON API and its guard on an httplib server (routes.cpp).
#pragma once

#include "web/dashboard/api.hpp"
#include "web/dashboard/guard.hpp"

namespace httplib {
class Server;
}

namespace reactor::web {

void mount_routes(httplib::Server& server, Api& api, const Guard& guard);

// The page's embedded files (assets.cpp, generated from web/dashboard/ by
// cmake/embed_assets.cmake): its bytes and content type, or nullptr for an unknown name.
struct Asset {
  const char* content_type;
  const unsigned char* data;
  std::size_t size;
};
const Asset* find_asset(const std::string& name);

}  // namespace reactor::web
