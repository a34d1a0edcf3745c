#include "support.hpp"

#include <sys/statfs.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

namespace reactor_bench {

namespace fs = std::filesystem;

ScratchDir::ScratchDir(const std::string& parent) {
  std::error_code ec;
  fs::path base = parent.empty() ? fs::temp_directory_path(ec) : fs::path(parent);
  if (ec) {
    error_ = "no temporary directory: " + ec.message();
    return;
  }
  base = fs::absolute(base, ec);
  std::string pattern = (base / "reactor-bench-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    error_ = "cannot create a directory under " + base.string();
    return;
  }
  path_ = pattern;
}

ScratchDir::~ScratchDir() {
  if (path_.empty()) return;
  std::error_code ec;
  fs::remove_all(path_, ec);
}

std::string ScratchDir::sqlite_url(const std::string& file, const std::string& query) const {
  return "sqlite://" + (fs::path(path_) / file).string() + query;
}

std::string file_system_of(const std::string& path) {
  struct statfs st {};
  if (::statfs(path.c_str(), &st) != 0) return "unknown";
  switch (static_cast<unsigned long>(st.f_type)) {
    case 0xEF53:
      return "ext4";
    case 0x01021994:
      return "tmpfs";
    case 0x58465342:
      return "xfs";
    case 0x9123683E:
      return "btrfs";
    case 0x794C7630:
      return "overlayfs";
    case 0x2FC12FC1:
      return "zfs";
    default:
      return "unknown";
  }
}

std::string machine_note() {
  std::ifstream load("/proc/loadavg");
  double one_minute = -1;
  load >> one_minute;
  std::ostringstream out;
  out << std::thread::hardware_concurrency() << " CPUs";
  if (one_minute >= 0) out << ", load average " << one_minute << " at start";
  return out.str();
}

double percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  // Nearest rank: the smallest value with at least p % of the values at or below it.
  auto rank = static_cast<std::size_t>(std::ceil(p / 100.0 * static_cast<double>(values.size())));
  rank = std::clamp<std::size_t>(rank, 1, values.size());
  return values[rank - 1];
}

double median(std::vector<double> values) { return percentile(std::move(values), 50); }

std::int64_t written_bytes(pid_t pid) {
  const std::string path = pid == 0 ? "/proc/self/io" : "/proc/" + std::to_string(pid) + "/io";
  std::ifstream in(path);
  std::string key;
  std::int64_t value = 0;
  while (in >> key >> value) {
    if (key == "wchar:") return value;
  }
  return -1;
}

double cpu_seconds(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // Fields after the command name (which may hold spaces) start at its closing parenthesis;
  // utime and stime are fields 14 and 15, i.e. the 12th and 13th after it.
  const auto close = stat.rfind(')');
  if (close == std::string::npos) return -1;
  std::istringstream rest(stat.substr(close + 2));
  std::string field;
  double utime = 0, stime = 0;
  for (int i = 3; i <= 15 && rest >> field; ++i) {
    if (i == 14) utime = std::atof(field.c_str());
    if (i == 15) stime = std::atof(field.c_str());
  }
  const long ticks = ::sysconf(_SC_CLK_TCK);
  return ticks > 0 ? (utime + stime) / static_cast<double>(ticks) : -1;
}

int sqlite_page_size(const std::string& path) {
  // Bytes 16-17 of the header, big-endian; 1 stands for 65,536.
  std::ifstream in(path, std::ios::binary);
  unsigned char header[18] = {};
  if (!in.read(reinterpret_cast<char*>(header), sizeof header)) return 0;
  const int size = header[16] << 8 | header[17];
  return size == 1 ? 65536 : size;
}

std::string grouped(double value) {
  std::string digits = std::to_string(static_cast<long long>(std::llround(value)));
  std::string out;
  const std::size_t start = digits[0] == '-' ? 1 : 0;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > start && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

}  // namespace reactor_bench
