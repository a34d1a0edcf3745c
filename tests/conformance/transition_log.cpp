// This binary's part of the run machine's transition coverage (support/transition_log.hpp).
#include "support/transition_log.hpp"
