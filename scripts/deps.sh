#!/usr/bin/env bash
# Installs the Debian packages Reactor needs, but only those that are missing.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive

packages=(
  build-essential cmake ninja-build g++ pkg-config
  nlohmann-json3-dev libsimdjson-dev libsqlite3-dev libhiredis-dev libcli11-dev
  libgtest-dev libgmock-dev libbenchmark-dev redis-server
  sqlite3  # the process tests edit stored records behind the engine's back
  lua5.1   # luac5.1: the tests check the Redis backend's Lua scripts (Redis embeds Lua 5.1)
  universal-ctags  # scripts/check_sizes.sh finds functions and classes with it
  libcpp-httplib-dev  # the dashboard, /metrics and the OTLP exporter (src/web/, src/observe/)
  chromium  # the dashboard's browser tests (Playwright drives Debian's Chromium)
  curl  # the metrics process test scrapes a worker's /metrics
  prometheus  # promtool: the metrics process test checks a scrape with `promtool check metrics`
)

missing=()
for pkg in "${packages[@]}"; do
  if ! dpkg -s "$pkg" 2>/dev/null | grep -q '^Status: install ok installed'; then
    missing+=("$pkg")
  fi
done

if [[ ${#missing[@]} -eq 0 ]]; then
  echo "deps.sh: all ${#packages[@]} packages already installed"
  exit 0
fi

sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then
  if command -v sudo >/dev/null 2>&1; then
    sudo_cmd=(sudo --preserve-env=DEBIAN_FRONTEND)
  else
    echo "deps.sh: missing packages (${missing[*]}) and not root, no sudo available" >&2
    exit 1
  fi
fi

echo "deps.sh: installing missing packages: ${missing[*]}"
"${sudo_cmd[@]}" apt-get update
"${sudo_cmd[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
