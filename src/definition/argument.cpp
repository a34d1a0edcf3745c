#include "reactor/argument.hpp"

namespace reactor {

ArgumentSource input(std::string name, std::string path) {
  return ArgumentSource(ArgumentSource::Kind::kInput, std::move(name), std::move(path), nullptr);
}

ArgumentSource result(std::string step, std::string path) {
  return ArgumentSource(ArgumentSource::Kind::kResult, std::move(step), std::move(path), nullptr);
}

ArgumentSource value(Value v) {
  return ArgumentSource(ArgumentSource::Kind::kValue, "", "", std::move(v));
}

ArgumentSource element(std::string map) {
  return ArgumentSource(ArgumentSource::Kind::kElement, std::move(map), "", nullptr);
}

}  // namespace reactor
