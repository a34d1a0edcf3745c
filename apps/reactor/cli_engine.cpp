#include "cli_engine.hpp"

#include "reactor/backend.hpp"

namespace reactor_cli {

using namespace reactor;

bool CliEngine::open(const std::string& url, const DurabilityOptions& durability) {
  std::unique_ptr<Backend> backend;
  Status s = open_backend(url, SystemClock::instance(), backend);
  if (!s.ok()) {
    std::cerr << "reactor: cannot open storage: " << s.to_string() << "\n";
    return false;
  }
  EngineOptions options;
  options.backend = std::move(backend);
  options.durability = durability;
  engine_ = std::make_unique<Engine>(std::move(options));
  services_.configure_from_env();
  examples::register_examples(engine_->registry(), services_);
  return true;
}

Status CliEngine::sweep_once(std::size_t& requeued, std::size_t& purged) {
  return engine_->sweep_once(requeued, purged);
}

}  // namespace reactor_cli
