// How the command line writes counts, times and the URLs in its messages.
#include <gtest/gtest.h>

#include "cli/text.hpp"
#include "storage/backend_url.hpp"

namespace {

using reactor::cli::format_count;
using reactor::cli::format_time;
using reactor::storage::mask_passwords_in;

TEST(CliText, CountsHaveThousandsSeparators) {
  EXPECT_EQ(format_count(0), "0");
  EXPECT_EQ(format_count(50), "50");
  EXPECT_EQ(format_count(999), "999");
  EXPECT_EQ(format_count(5000), "5,000");
  EXPECT_EQ(format_count(123456), "123,456");
  EXPECT_EQ(format_count(1234567), "1,234,567");
}

TEST(CliText, TimesAreUtcToTheSecondAndZeroIsUnknown) {
  EXPECT_EQ(format_time(1'700'000'000'999), "2023-11-14T22:13:20Z");
  EXPECT_EQ(format_time(0), "-");
}

TEST(CliText, EveryPasswordInAMessageIsMasked) {
  EXPECT_EQ(mask_passwords_in("The following argument was not expected: redis://:pw@h:6379/0"),
            "The following argument was not expected: redis://***@h:6379/0");
  EXPECT_EQ(mask_passwords_in("a redis://u:p@h/1 and rediss://:q@[::1]:1?prefix=x b"),
            "a redis://***@h/1 and rediss://***@[::1]:1?prefix=x b");
  EXPECT_EQ(mask_passwords_in("Could not convert: --limit = redis://:p@ss@h"),
            "Could not convert: --limit = redis://***@h");
  EXPECT_EQ(mask_passwords_in("'redis://:x@h'"), "'redis://***@h'");
  // Nothing to mask: no user info, or an @ past the authority.
  EXPECT_EQ(mask_passwords_in("sqlite:///tmp/a@b.db and redis://h/0 mail@example.org"),
            "sqlite:///tmp/a@b.db and redis://h/0 mail@example.org");
  EXPECT_EQ(mask_passwords_in("://@"), "://***@");
}

}  // namespace
