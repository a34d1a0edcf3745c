// expect-error: collect must be callable as Value(const MapResults&), and return the map's value
// A map's collect that returns nothing.
#include <reactor/reactor.hpp>

using namespace reactor;

Definition d(const Definition& each_item) {
  return Builder("R")
      .input("items", array())
      .map("each", each_item)
      .source(input("items"))
      .argument("item", element("each"))
      .collect([](const MapResults&) {})
      .build();
}
