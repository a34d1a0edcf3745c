// Type traits the record visitors share.
#pragma once

#include <optional>

namespace reactor::records {

template <typename T>
inline constexpr bool is_optional_v = false;
template <typename T>
inline constexpr bool is_optional_v<std::optional<T>> = true;

}  // namespace reactor::records
