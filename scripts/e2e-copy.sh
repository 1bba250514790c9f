#!/usr/bin/env bash
# Builds once (serialised with other developers' builds by a lock) and copies the build to
# apps/api/dist-$1 (API, migrations) and apps/api/dist-$1/web (web app), then runs Playwright on that
# copy with the remaining arguments: `scripts/e2e-copy.sh NAME PORT [playwright args]`.
set -euo pipefail
cd "$(dirname "$0")/.."
name=$1; port=$2; shift 2
out=apps/api/dist-$name
mkdir -p node_modules/.cache
flock node_modules/.cache/fleet-build.lock bash -c "npm run build >/dev/null && rm -rf $out && cp -r apps/api/dist $out && cp -r apps/web/dist $out/web"
E2E_API_MAIN=$out/main.js E2E_WEB_DIST=$PWD/$out/web E2E_PORT=$port OSMAND_PORT=$((port + 1)) TELTONIKA_PORT=$((port + 2)) \
  E2E_DATA_DIR=$(mktemp -d -t "fleet-e2e-$name.XXXX") CHROMIUM_PATH=${CHROMIUM_PATH:-/usr/bin/chromium} \
  npx playwright test -c apps/web/playwright.config.ts --output "$(mktemp -d -t "fleet-e2e-results-$name.XXXX")" "$@"
