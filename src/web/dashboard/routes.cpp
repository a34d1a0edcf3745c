// The dashboard's HTTP routes: the guard before routing, the page's files, the JSON API, and the
// headers every answer carries (no framing, no sniffing, scripts only from the dashboard).
#include "web/dashboard/routes.hpp"

#include <httplib.h>

namespace reactor::web {

namespace {

void send(httplib::Response& res, const Reply& reply) {
  res.status = reply.http;
  res.set_content(reply.body.dump(-1, ' ', false, Value::error_handler_t::replace),
                  "application/json");
}

Params params_of(const httplib::Request& req) {
  Params out;
  for (const auto& [k, v] : req.params) out[k] = v;
  return out;
}

void mount_page(httplib::Server& server, const Guard& guard) {
  server.Get("/", [&guard](const httplib::Request& req, httplib::Response& res) {
    if (req.has_param("token")) {
      if (!guard.token_ok(req.get_param_value("token"))) {
        send(res, error_reply(401, "wrong token"));
        return;
      }
      // The cookie carries it from now on; the address bar forgets it.
      res.set_header("Set-Cookie", std::string(kTokenCookie) + "=" + req.get_param_value("token") +
                                       "; Path=/; HttpOnly; SameSite=Strict");
      res.set_redirect("/");
      return;
    }
    const Asset* page = find_asset("index.html");
    res.set_content(reinterpret_cast<const char*>(page->data), page->size, page->content_type);
  });
  server.Get(R"(/(app\.js|style\.css))", [](const httplib::Request& req, httplib::Response& res) {
    const Asset* a = find_asset(req.matches[1]);
    res.set_content(reinterpret_cast<const char*>(a->data), a->size, a->content_type);
  });
}

void mount_api(httplib::Server& server, Api& api, const Guard& guard) {
  using Req = const httplib::Request&;
  using Res = httplib::Response&;
  server.Get("/api/session", [&guard](Req, Res res) {
    send(res, Reply{200, Value{{"csrf_token", guard.csrf()}}});
  });
  server.Get("/api/runs", [&api](Req req, Res res) { send(res, list_runs(api, params_of(req))); });
  server.Get(R"(/api/runs/(.+))",
             [&api](Req req, Res res) { send(res, show_run(api, req.matches[1])); });
  server.Get("/api/reactors", [&api](Req, Res res) { send(res, list_reactors(api)); });
  server.Get(R"(/api/reactors/(.+))",
             [&api](Req req, Res res) { send(res, reactor_graph(api, req.matches[1])); });
  server.Get("/api/coordination", [&api](Req, Res res) { send(res, coordination(api)); });
  server.Get("/api/changes", [&api](Req, Res res) { send(res, changes(api)); });
  server.Get("/api/workers", [&api](Req, Res res) { send(res, workers(api)); });
  server.Post(R"(/api/runs/(.+)/([a-z-]+))", [&api](Req req, Res res) {
    send(res, run_action(api, req.matches[1], req.matches[2], req.body));
  });
}

}  // namespace

void mount_routes(httplib::Server& server, Api& api, const Guard& guard) {
  server.set_pre_routing_handler([&guard](const httplib::Request& req, httplib::Response& res) {
    res.set_header("X-Content-Type-Options", "nosniff");
    res.set_header("X-Frame-Options", "DENY");
    res.set_header("Content-Security-Policy", "default-src 'self'; frame-ancestors 'none'");
    res.set_header("Cache-Control", "no-store");
    if (std::optional<Refusal> refused = guard.check(req)) {
      send(res, error_reply(refused->http, refused->message));
      return httplib::Server::HandlerResponse::Handled;
    }
    return httplib::Server::HandlerResponse::Unhandled;
  });
  server.set_exception_handler(
      [](const httplib::Request&, httplib::Response& res, std::exception_ptr ep) {
        std::string what = "internal error";
        try {
          std::rethrow_exception(ep);
        } catch (const std::exception& e) {
          what = e.what();
        } catch (...) {
        }
        send(res, error_reply(500, what));
      });
  mount_page(server, guard);
  mount_api(server, api, guard);
}

}  // namespace reactor::web
