#include "definition/fingerprint.hpp"

#include <cstdint>
#include <cstdio>

namespace reactor {

namespace {

// FNV-1a: stable across processes and compilers, unlike std::hash.
class Fingerprint {
 public:
  void add(const std::string& s) {
    for (unsigned char c : s) mix(c);
    mix(0xff);  // separator, so ("ab","c") differs from ("a","bc")
  }
  std::string hex() const {
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h_));
    return buf;
  }

 private:
  void mix(unsigned char c) {
    h_ ^= c;
    h_ *= 0x100000001b3ULL;
  }
  std::uint64_t h_ = 0xcbf29ce484222325ULL;
};

void add_source(Fingerprint& f, const ArgumentSource& src) {
  f.add(std::to_string(static_cast<int>(src.kind())));
  f.add(src.name());
  f.add(src.path());
}

}  // namespace

std::string fingerprint_of(const DefinitionData& d) {
  Fingerprint f;
  f.add(d.name);
  for (const auto& in : d.inputs) f.add("in:" + in.name);
  for (const auto& s : d.steps) {
    f.add("step:" + s.name);
    f.add(std::to_string(static_cast<int>(s.kind)));
    for (const auto& a : s.arguments) {
      f.add("arg:" + a.name);
      add_source(f, a.source);
    }
    for (const auto& w : s.wait_for) f.add("wait:" + w);
    if (s.map_source) add_source(f, *s.map_source);
    if (s.pages) f.add("pages");
    if (s.fan_out) f.add("fan_out");
    if (s.batch_size_source) add_source(f, *s.batch_size_source);
    if (s.claim_source) add_source(f, *s.claim_source);
    if (s.child) f.add("child:" + s.child->fingerprint);
    if (s.interrupt) {
      for (const InputSpec& p : s.interrupt->payload) f.add("payload:" + p.name);
    }
  }
  return f.hex();
}

}  // namespace reactor
