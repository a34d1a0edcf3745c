// httplib's servers bind with SO_REUSEPORT by default: a second server on a port in use binds
// too, and the kernel splits the connections between them. Reactor's servers (a worker's
// /metrics, the dashboard) own their port alone: SO_REUSEADDR only, so a port in use is refused
// and a restart still binds at once past the old socket's TIME_WAIT.
#pragma once

#include <httplib.h>
#include <sys/socket.h>

namespace reactor {

inline void listen_exclusively(httplib::Server& server) {
  server.set_socket_options([](socket_t sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });
}

}  // namespace reactor
