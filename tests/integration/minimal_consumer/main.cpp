// Against a Reactor built with REACTOR_WITH_REDIS=OFF: a durable run on the memory backend works,
// and open_backend("redis://…") says this build has no Redis, without the URL's password.
#include <iostream>
#include <memory>
#include <reactor/reactor.hpp>
#include <string>

using namespace reactor;

int main() {
  Result<std::unique_ptr<Backend>> redis =
      open_backend("redis://:hunter2@127.0.0.1:6379/0", nullptr);
  const Status& s = redis.status();
  std::cout << "open_backend(redis://...): " << s.to_string() << "\n";
  if (s.code() != StatusCode::kInvalidArgument ||
      s.message().find("built without Redis") == std::string::npos ||
      s.message().find("hunter2") != std::string::npos || redis.ok()) {
    std::cerr << "no_redis: expected InvalidArgument saying the build has no Redis\n";
    return 1;
  }

  Result<std::unique_ptr<Backend>> memory = open_backend("memory:", nullptr);
  if (!memory.ok()) return 1;
  EngineOptions options;
  options.backend = std::move(memory).value();
  Engine engine(std::move(options));
  engine.registry().add(
      Builder("Hello").step("greet", [](const Args&) { return Success("hello"); }).build());
  RunResult r = engine.run("Hello", {});
  std::cout << "Hello: " << to_string(r.status) << " | " << r.trace_summary() << "\n";
  return r.ok() && r.value["greet"] == "hello" ? 0 : 1;
}
