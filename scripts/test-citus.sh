#!/usr/bin/env bash
# The API test files that reach a database, on a Citus cluster (issue 34, decision 0171):
#
#   scripts/test-citus.sh [vitest args…]      e.g. scripts/test-citus.sh apps/api/src/modules/hos
#
# Uses the cluster scripts/citus-cluster.sh runs (CITUS_CACHE as there), starting it (and building
# Citus, once) when it is not running; it is left running. TEST_CITUS_URL names the coordinator
# (default: the one citus-cluster.sh prints). The tests lease databases from a pool kept on the
# cluster between runs (apps/api/src/test/citus-pool.ts; TEST_CITUS_PREFIX, default fleet_test_):
# the first run distributes them, later runs only empty them. Prints the time and the cost of
# emptying the databases at the end. Without file arguments it runs every database file.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$SECONDS

if [ -z "${TEST_CITUS_URL:-}" ]; then
  if ! TEST_CITUS_URL=$(scripts/citus-cluster.sh status 2> /dev/null | tail -1); then
    TEST_CITUS_URL=$(scripts/citus-cluster.sh start | tail -1)
  fi
fi
export TEST_CITUS_URL
echo "test-citus: coordinator $TEST_CITUS_URL (cluster ready after $((SECONDS - started)) s)"

timings=$(mktemp -t fleet-citus-timings.XXXXXX)
trap 'rm -f "$timings"' EXIT
export TEST_CITUS_TIMINGS=$timings

files=("$@")
if [ ${#files[@]} -eq 0 ]; then
  # As scripts/test.mjs picks the PostgreSQL pass's files: those that reach a database.
  mapfile -t files < <(grep -rlE '\b(createTestApp|openDatabase|startServer|serverDatabase|TEST_DATABASE_URL|TEST_CITUS_URL)\b' apps/api/src --include='*.test.ts' | sort)
fi

status=0
TEST_DATABASE_URL='' npx vitest run --project api "${files[@]}" || status=$?

resets=$(awk '$1 == "reset" { n++; ms += $4 } END { printf "%d resets, %.1f s in all, %.0f ms each", n, ms / 1000, n ? ms / n : 0 }' "$timings")
echo "test-citus: ${#files[@]} files in $((SECONDS - started)) s; emptying the pool databases: $resets"
exit $status
