// Validation every backend applies to a CommitRequest before writing anything,
// so a malformed request is refused the same way by all of them.
#pragma once

#include "reactor/backend.hpp"

namespace reactor::storage {

// InvalidArgument naming the first row without the ids a backend keys it by.
Status check_commit(const CommitRequest& c);

}  // namespace reactor::storage
