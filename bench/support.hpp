// The plumbing the benchmarks of reactor-bench share: a scratch directory,
// nearest-rank statistics, and what /proc says about a process.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

namespace reactor_bench {

// A fresh directory for one benchmark's database files, removed with
// everything in it when this goes away.
class ScratchDir {
 public:
  // Under `parent` (empty: the system's temporary directory). path() is empty
  // when it could not be created; error() says why.
  explicit ScratchDir(const std::string& parent);
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  const std::string& path() const { return path_; }
  const std::string& error() const { return error_; }
  // "sqlite:///<dir>/<file>" with `query` appended ("?synchronous=off").
  std::string sqlite_url(const std::string& file, const std::string& query = "") const;

 private:
  std::string path_;
  std::string error_;
};

// The file system a path lives on ("ext4", "tmpfs", ...; "unknown" otherwise):
// on tmpfs an fsync costs nothing, which the reader of a figure must know.
std::string file_system_of(const std::string& path);
// "2 CPUs, load average 1.93" for the header of every report.
std::string machine_note();

// Nearest-rank percentile (p in 0..100) of `values`; 0 for none.
double percentile(std::vector<double> values, double p);
double median(std::vector<double> values);

// write(2)/pwrite(2) bytes of a process so far (/proc/<pid>/io wchar); -1
// when unreadable. pid 0: this process.
std::int64_t written_bytes(pid_t pid = 0);
// User + system CPU seconds of a process so far (/proc/<pid>/stat); -1 when unreadable.
double cpu_seconds(pid_t pid);

// The page size of an SQLite database file, read from its header; 0 when unreadable.
int sqlite_page_size(const std::string& path);

// "1,234" for counts in tables.
std::string grouped(double value);

}  // namespace reactor_bench
