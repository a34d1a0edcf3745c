#!/usr/bin/env bash
# Builds the release CLI and runs the saga demo: scripts/demo.sh [demo args...]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/deps.sh
cmake --preset release
cmake --build --preset release --target reactor_cli -j2
exec build/release/reactor demo "$@"
