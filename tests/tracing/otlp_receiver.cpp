// otlp-receiver: a stand-in OTLP/HTTP collector for tests/tracing/tracing.sh. It listens on a
// free loopback port (written to PORT_FILE once it listens), answers POST /v1/traces with 200
// and appends each body, on one line, to OUT_FILE. It runs until killed.
#include <httplib.h>

#include <fstream>
#include <iostream>
#include <mutex>
#include <string>

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: otlp-receiver PORT_FILE OUT_FILE\n";
    return 2;
  }
  const std::string out_file = argv[2];
  std::mutex mu;
  httplib::Server server;
  server.Post("/v1/traces", [&](const httplib::Request& req, httplib::Response& res) {
    {
      std::lock_guard lock(mu);
      std::ofstream out(out_file, std::ios::app);
      std::string line = req.body;
      for (char& c : line) {
        if (c == '\n') c = ' ';
      }
      out << line << "\n";
    }
    res.set_content("{}", "application/json");
  });
  const int port = server.bind_to_any_port("127.0.0.1");
  if (port <= 0) {
    std::cerr << "otlp-receiver: cannot bind a loopback port\n";
    return 1;
  }
  std::ofstream(argv[1]) << port << "\n";
  return server.listen_after_bind() ? 0 : 1;
}
