#include "cli/json_argument.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "cli/text.hpp"
#include "records/codec.hpp"

namespace reactor::cli {

namespace {

// Appends everything `f` holds to `out`, however large; false on a read error.
bool read_whole(std::FILE* f, std::string& out) {
  char buffer[1 << 16];
  std::size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, f)) > 0) out.append(buffer, n);
  return std::ferror(f) == 0;
}

// The text and where it came from (the option, "stdin", "file PATH"); false, the reason in
// `error`, when it cannot be read.
bool read_text(const std::string& inline_text, const std::string& file, const std::string& option,
               const std::string& noun, std::string& text, std::string& source,
               std::string& error) {
  std::string path = file;
  if (path.empty() && inline_text.size() > 1 && inline_text[0] == '@') path = inline_text.substr(1);
  if (path.empty() && inline_text == "-") {
    source = "stdin";
    if (read_whole(stdin, text)) return true;
    error = "cannot read the " + noun + " from stdin: " + std::strerror(errno);
    return false;
  }
  if (path.empty()) {
    source = option;
    text = inline_text;
    return true;
  }
  source = "file " + path;
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) {
    error = "cannot read " + noun + " file " + path + ": " + std::strerror(errno);
    return false;
  }
  const bool read = read_whole(f, text);
  const int read_errno = errno;
  std::fclose(f);
  if (!read) error = "cannot read " + noun + " file " + path + ": " + std::strerror(read_errno);
  return read;
}

}  // namespace

std::optional<Value> read_json_argument(const std::string& text, const std::string& file,
                                        const std::string& option, const std::string& noun,
                                        const std::string& who) {
  std::string json, source, error;
  if (!read_text(text, file, option, noun, json, source, error)) {
    print_error(who, error);
    return std::nullopt;
  }
  try {
    return records::decode_value(json);
  } catch (const records::TooDeep& e) {
    print_error(who, "the " + noun + " (" + source + "): " + e.what());
  } catch (const std::exception& e) {
    print_error(who, "the " + noun + " (" + source + ") is not valid JSON: " + e.what());
  }
  return std::nullopt;
}

}  // namespace reactor::cli
