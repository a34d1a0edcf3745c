#include "reactor/logger.hpp"

#include <unistd.h>

namespace reactor {

namespace {

class StderrLogger final : public Logger {
 public:
  explicit StderrLogger(std::string prefix) : prefix_(std::move(prefix)) {}
  void log(LogLevel, std::string_view message) override {
    std::string line;
    line.reserve(prefix_.size() + message.size() + 3);
    line.append(prefix_).append(": ").append(message).push_back('\n');
    // One write(2): a line of one thread is never cut by another's, as stdio's buffers could.
    for (std::size_t at = 0; at < line.size();) {
      const ssize_t n = ::write(STDERR_FILENO, line.data() + at, line.size() - at);
      if (n <= 0) return;  // nowhere to report it
      at += static_cast<std::size_t>(n);
    }
  }

 private:
  const std::string prefix_;
};

class NullLogger final : public Logger {
 public:
  void log(LogLevel, std::string_view) override {}
};

}  // namespace

const char* to_string(LogLevel level) {
  switch (level) {
    case LogLevel::kInfo:
      return "info";
    case LogLevel::kWarning:
      return "warning";
    case LogLevel::kError:
      return "error";
  }
  return "unknown";
}

std::shared_ptr<Logger> stderr_logger(std::string prefix) {
  return std::make_shared<StderrLogger>(std::move(prefix));
}

std::shared_ptr<Logger> null_logger() { return std::make_shared<NullLogger>(); }

}  // namespace reactor
