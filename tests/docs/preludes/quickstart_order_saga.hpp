// For the README's testing snippet: order_saga(), the saga of the README's example, taken from
// examples/quickstart/main.cpp itself (its main() renamed, so that gtest_main's is the program's).
#pragma once

#define main quickstart_main
#include "quickstart/main.cpp"
#undef main
