#!/usr/bin/env bash
# ctest dashboard_browser: installs playwright-core from package-lock.json (npm ci, once; offline
# when it is already there) and runs dashboard_test.mjs against Debian's chromium.
# Usage: run_browser_test.sh <dashboard_fixture> <artifacts dir>
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if ! command -v node >/dev/null || { [[ ! -x /usr/lib/chromium/chromium ]] && [[ ! -x /usr/bin/chromium ]]; }; then
  echo "skipped: node or chromium not installed (scripts/deps.sh)"
  exit 0
fi
if [[ ! -d $here/node_modules/playwright-core ]]; then
  (cd "$here" && npm ci --no-audit --no-fund --prefer-offline >/dev/null)
fi
exec node "$here/dashboard_test.mjs" "$1" "$2"
