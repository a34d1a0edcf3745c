// The SQLite schema and its migrations. The version lives in
// meta('schema_version'); each migration brings the schema from version n-1 to
// n. To change the schema, append a function to the list in sqlite_schema.cpp
// (never edit a released one) and document it in docs/storage.md.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "storage/sqlite/connection.hpp"

namespace reactor::sqlite {

struct Migration {
  int version;  // the version the schema has after `apply`
  const char* summary;
  void (*apply)(Connection& db);
};

// In version order, starting at 1.
const std::vector<Migration>& migrations();
int latest_schema_version();

// The database's schema is newer than this build knows.
class SchemaTooNew : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Brings the schema to latest_schema_version(). Must run inside a write
// transaction (BEGIN IMMEDIATE), which makes concurrent first opens by several
// processes safe: the second one finds the work done. Throws SqliteError or
// SchemaTooNew.
void migrate(Connection& db);

// 0 for a database without the meta table (a new file).
int schema_version(Connection& db);

}  // namespace reactor::sqlite
