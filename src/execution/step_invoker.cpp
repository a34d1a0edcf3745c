#include "execution/step_invoker.hpp"

#include <cxxabi.h>

#include <atomic>
#include <cstdlib>
#include <memory>
#include <thread>
#include <typeinfo>

#include "reactor/args.hpp"

namespace reactor {

std::string demangled_type_name(const std::type_info& type) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> name(
      abi::__cxa_demangle(type.name(), nullptr, nullptr, &status), std::free);
  return status == 0 && name ? std::string(name.get()) : std::string(type.name());
}

Invocation invoke_user_code(const std::function<StepResult(std::stop_token)>& body,
                            std::optional<Duration> timeout, Clock& clock,
                            const std::function<void()>& on_hung, Duration hung_grace) {
  if (!timeout) return Invocation{call_user_code(body), false};

  std::stop_source cancel;
  std::atomic<bool> fired{false};
  const TimePoint deadline = clock.now() + *timeout;
  std::jthread watchdog([&](std::stop_token finished) {
    if (!clock.wait_until(deadline, finished)) return;
    fired.store(true);
    cancel.request_stop();
    if (on_hung && clock.wait_until(deadline + hung_grace, finished)) on_hung();
  });
  StepResult result = call_user_code(body, cancel.get_token());
  watchdog.request_stop();
  watchdog.join();
  if (!fired.load()) return Invocation{std::move(result), false};
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(*timeout).count();
  return Invocation{Failure("timed out after " + std::to_string(ms) + " ms", true), true};
}

}  // namespace reactor
