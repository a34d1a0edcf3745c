// A value nested `depth` levels deep ([[…[0]…]], 2 bytes a level): what the tests of the value
// limits store, return and plant past kMaxValueDepth.
#pragma once

#include <utility>

#include "reactor/value.hpp"

namespace reactor::test_values {

inline Value nested(int depth) {
  Value v = 0;
  for (int i = 1; i < depth; ++i) {
    Value outer = Value::array();
    outer.push_back(std::move(v));
    v = std::move(outer);
  }
  return v;
}

}  // namespace reactor::test_values
