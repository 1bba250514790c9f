#!/usr/bin/env bash
# CI's Citus pass (issue 34, decision 0171): on a fresh Debian machine, installs what building Citus
# needs, builds it (scripts/citus-cluster.sh, about 1.5 min on one core), runs the database test files
# on a coordinator and two workers (scripts/test-citus.sh, about 2.5 min; the files given, if any)
# and removes the cluster.
# Skipped, saying why, when the vendored Citus source is not beside the repository
# (../shared/vendor/citus, or CITUS_SOURCE_DIR). Run as root (apt-get; the servers run as postgres).
set -euo pipefail
cd "$(dirname "$0")/.."
export DEBIAN_FRONTEND=noninteractive

for dir in "${CITUS_SOURCE_DIR:-}" "$(pwd)/../shared/vendor/citus"; do
  if [ -n "$dir" ] && [ -f "$dir/citus-13.2.2.tar.gz" ]; then export CITUS_SOURCE_DIR=$dir; break; fi
done
if [ -z "${CITUS_SOURCE_DIR:-}" ] || [ ! -f "$CITUS_SOURCE_DIR/citus-13.2.2.tar.gz" ]; then
  echo "ci-citus: skipped: no Citus source (set CITUS_SOURCE_DIR to a folder holding citus-13.2.2.tar.gz)"
  exit 0
fi

# The build packages (the vendored README's list): scripts/citus-cluster.sh installs those missing.
scripts/citus-cluster.sh packages

# Outside the clone: the servers run as the postgres user, who may not reach into root's folders.
export CITUS_CACHE=${CITUS_CACHE:-$(mktemp -d -t fleet-ci-citus.XXXXXX)}
chmod 755 "$CITUS_CACHE"
started=$SECONDS
scripts/citus-cluster.sh start > /dev/null
echo "ci-citus: cluster built and started in $((SECONDS - started)) s"
status=0
scripts/test-citus.sh "$@" || status=$?
scripts/citus-cluster.sh clean > /dev/null 2>&1 || true
exit $status
