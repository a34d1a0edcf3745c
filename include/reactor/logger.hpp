// Logger: where the library tells what no caller is waiting to hear — a worker's fetch that
// failed, a sweep that failed, an observer that threw, a run it could not hand back. What a call
// returns (a Status, a RunResult) is never logged instead. As LevelDB's info_log, the engine's
// logger is replaceable (EngineOptions::logger); the default writes to stderr.
//
// Thread safety: log() is called from any thread of the engine and its workers, concurrently.
#pragma once

#include <memory>
#include <string>
#include <string_view>

namespace reactor {

enum class LogLevel { kInfo, kWarning, kError };

const char* to_string(LogLevel level);

class Logger {
 public:
  virtual ~Logger() = default;
  // One whole message, without a trailing newline. Must not throw; must not block for long (it
  // may be called by a worker's thread between two deliveries).
  virtual void log(LogLevel level, std::string_view message) = 0;
};

// Writes "<prefix>: <message>\n" to stderr, one write per message, so that messages of several
// threads never interleave.
std::shared_ptr<Logger> stderr_logger(std::string prefix = "reactor");
// Drops every message.
std::shared_ptr<Logger> null_logger();

}  // namespace reactor
