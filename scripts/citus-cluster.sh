#!/usr/bin/env bash
# A local Citus cluster for trying and testing Fleetline on distributed PostgreSQL (issue 34):
# a coordinator and two workers on free loopback ports, each with its own data folder.
#
#   scripts/citus-cluster.sh start    builds Citus once (cached), starts the three servers and prints
#                                     the coordinator's postgres:// URL on the last line
#   scripts/citus-cluster.sh stop     stops them (the data folders stay until `clean`)
#   scripts/citus-cluster.sh status   prints the nodes and the coordinator's URL, or exits 1
#   scripts/citus-cluster.sh clean    stops them and removes the data folders
#
# CITUS_WORKER_COUNT=n makes n workers instead of two; give such a cluster its own
# CITUS_CLUSTER_DIR, since the coordinator keeps the workers it was given.
#
# Citus 13.2.2 is built from the vendored source (../shared/vendor/citus, or CITUS_SOURCE_DIR)
# against Debian's postgresql-server-dev-15, into a copy of the PostgreSQL 15 installation under the
# cache folder (CITUS_CACHE, default .cache/citus): the system's PostgreSQL is left untouched, and a
# second start reuses the build. Building needs the Debian packages the vendored README names: run
# as root, the first start installs those missing with apt-get (saying which); as another user it
# names them and stops. The servers run as the postgres user (initdb refuses root).
#
#   scripts/citus-cluster.sh packages installs (as root) or names the build packages missing
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)

CITUS_VERSION=13.2.2
SOURCE_DIR=${CITUS_SOURCE_DIR:-$ROOT/../shared/vendor/citus}
CACHE=${CITUS_CACHE:-$ROOT/.cache/citus}
PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}
PREFIX=$CACHE/pg15-citus-$CITUS_VERSION
# CITUS_WORKER_COUNT workers (default 2) in CITUS_CLUSTER_DIR (default <cache>/cluster): a second
# cluster of another size lives in a folder of its own (bench/citus.ts's scaling run, issue 49).
CLUSTER=${CITUS_CLUSTER_DIR:-$CACHE/cluster}
WORKER_COUNT=${CITUS_WORKER_COUNT:-2}
WORKER_NODES=()
for ((i = 1; i <= WORKER_COUNT; i++)); do WORKER_NODES+=("worker$i"); done
NODES=(coordinator "${WORKER_NODES[@]}")

log() { echo "citus-cluster: $*" >&2; }
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

pg_bindir() { "$PG_CONFIG" --bindir; }
# The relocated copy's bin folder: PostgreSQL finds its share and lib folders relative to it.
bin() { echo "$PREFIX$(pg_bindir)/$1"; }

# The packages the vendored README lists for building Citus 13 against Debian's PostgreSQL 15.
BUILD_PACKAGES=(postgresql-15 postgresql-server-dev-15 libcurl4-openssl-dev liblz4-dev libzstd-dev libkrb5-dev
  libssl-dev libselinux1-dev libxslt1-dev libpam0g-dev libreadline-dev libicu-dev make gcc patch)

packages() {
  local need=() pkg server
  # The server headers at the installed server's own version: the newest would upgrade
  # postgresql-15 too, under any server already running from it (a running 15.18 then fails to
  # load the 15.20 plpgsql.so: "undefined symbol"), so a running server is never upgraded here.
  server=$(dpkg-query -W -f='${Version}' postgresql-15 2> /dev/null || true)
  for pkg in "${BUILD_PACKAGES[@]}"; do
    dpkg -s "$pkg" > /dev/null 2>&1 && continue
    if [ "$pkg" = postgresql-server-dev-15 ] && [ -n "$server" ]; then need+=("$pkg=$server"); else need+=("$pkg"); fi
  done
  if [ ${#need[@]} -eq 0 ]; then return; fi
  if [ "$(id -u)" != 0 ]; then
    log "building Citus needs these Debian packages: ${need[*]}"
    log "run this as root to install them, or: sudo apt-get install ${need[*]}"
    exit 1
  fi
  command -v apt-get > /dev/null || { log "no apt-get: install ${need[*]} (or their equivalents) by hand"; exit 1; }
  log "installing the packages building Citus needs: ${need[*]} (apt-get, once)"
  local started=$SECONDS
  DEBIAN_FRONTEND=noninteractive apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" > /dev/null
  log "installed in $((SECONDS - started)) s"
}

build() {
  if [ -f "$PREFIX/.built" ]; then return; fi
  packages
  [ -x "$PG_CONFIG" ] || { log "no $PG_CONFIG: apt-get install postgresql-15 postgresql-server-dev-15 (see $SOURCE_DIR/README.md)"; exit 1; }
  [ -f "$SOURCE_DIR/citus-$CITUS_VERSION.tar.gz" ] || { log "no Citus source at $SOURCE_DIR (set CITUS_SOURCE_DIR)"; exit 1; }
  local started=$SECONDS work
  work=$(mktemp -d -t citus-build.XXXXXX)
  log "building Citus $CITUS_VERSION from $SOURCE_DIR against $("$PG_CONFIG" --version) (once; about 5 minutes on one core)"
  tar -xzf "$SOURCE_DIR/citus-$CITUS_VERSION.tar.gz" -C "$work"
  local src
  src=$(find "$work" -maxdepth 1 -mindepth 1 -type d | head -1)
  # Debian 12's PostgreSQL 15.20 headers export a function Citus 13 defines for older 15.x.
  if grep -q 'have_createdb_privilege' "$("$PG_CONFIG" --includedir-server)/commands/dbcommands.h" 2>/dev/null; then
    (cd "$src" && patch -s -p1 < "$SOURCE_DIR/pg15-minor-have_createdb_privilege.patch")
  fi
  rm -rf "$PREFIX" && mkdir -p "$PREFIX"
  # A copy of the installation, so `make install` writes into the cache, not the system folders.
  for dir in "$("$PG_CONFIG" --bindir)/.." "$("$PG_CONFIG" --sharedir)"; do
    dir=$(realpath "$dir")
    mkdir -p "$PREFIX$(dirname "$dir")"
    cp -a "$dir" "$PREFIX$dir"
  done
  (cd "$src" && ./configure -q PG_CONFIG="$PG_CONFIG" > "$work/configure.log" 2>&1 && make -s -j"$(nproc)" > "$work/make.log" 2>&1 && make -s install DESTDIR="$PREFIX" >> "$work/make.log" 2>&1) || {
    log "build failed; logs in $work (the last lines:)"
    tail -5 "$work/configure.log" "$work/make.log" >&2 2> /dev/null || true
    exit 1
  }
  rm -rf "$work"
  touch "$PREFIX/.built"
  log "built in $((SECONDS - started)) s into $PREFIX"
}

free_port() { node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }
port_of() { cat "$CLUSTER/$1/port"; }
psql_at() { local port=$1; shift; "$(bin psql)" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" -U postgres -d postgres "$@"; }
running() { [ -f "$CLUSTER/$1/data/postmaster.pid" ] && as_pg "$(bin pg_ctl)" -D "$CLUSTER/$1/data" status > /dev/null 2>&1; }
url() { echo "postgres://postgres@127.0.0.1:$(port_of coordinator)/postgres"; }

# Settings added after a data folder was first made are appended on the next start (a restart
# applies them). Each database with the citus extension runs a maintenance daemon on every node, and
# logical shard moves need background workers too: PostgreSQL's default of 8 runs out with a few
# databases. Citus caches one connection per worker by default; the bench showed the workers' CPU
# going to connection set-up, so each coordinator backend keeps a few. A statement on several
# shards opens up to max_adaptive_executor_pool_size (16) connections per worker and closes all
# but the cached ones afterwards: the background sweeps did that every few seconds from every
# backend (a hundred new worker sessions in 20 s of ingest, 40% of the singles' CPU), so they run
# over one connection per worker (decision 0210). No JIT: the workers plan the statements the
# coordinator routes to them, and LLVM compiled the followers' batch reads for 1-3 s each (the API
# turns it off on its own connections; the coordinator's connections to the workers are the workers').
# citus.node_conninfo: the nodes talk to each other over loopback only (listen_addresses above), so
# without TLS. Citus's default, sslmode=require, made each connection between nodes cost 3.9 ms
# instead of 1.9 ms here, and a block_writes move opens three per shard (decision 0222). A cluster
# across hosts keeps TLS: docs/deploy.md 7.4.
ensure_settings() {
  local conf=$1 line
  for line in "max_worker_processes = 64" "citus.max_cached_conns_per_worker = 4" "citus.max_adaptive_executor_pool_size = 1" "jit = off" "citus.node_conninfo = 'sslmode=disable'"; do
    grep -q "^${line%% =*} " "$conf" || echo "$line" >> "$conf"
  done
}

start_node() {
  local node=$1 dir=$CLUSTER/$1
  mkdir -p "$dir"
  if [ ! -f "$dir/data/PG_VERSION" ]; then
    mkdir -p "$dir/data"
    [ "$(id -u)" = 0 ] && chown -R postgres:postgres "$dir"
    log "$node: a new data folder in $dir/data"
    as_pg "$(bin initdb)" -D "$dir/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 > "$dir/initdb.log"
    free_port > "$dir/port"
    cat >> "$dir/data/postgresql.conf" <<EOF
# scripts/citus-cluster.sh
shared_preload_libraries = 'citus'
listen_addresses = '127.0.0.1'
port = $(port_of "$node")
unix_socket_directories = '$dir'
max_connections = 300
max_prepared_transactions = 300
shared_buffers = 128MB
fsync = off
synchronous_commit = off
full_page_writes = off
wal_level = logical
citus.shard_count = 32
EOF
  fi
  ensure_settings "$dir/data/postgresql.conf"
  [ "$(id -u)" = 0 ] && chown -R postgres:postgres "$dir"
  # Already running: reload, so that a setting ensure_settings just added takes effect.
  if running "$node"; then as_pg "$(bin pg_ctl)" -D "$dir/data" reload > /dev/null; return; fi
  # A port taken since the last start (another program): pick a new one.
  if ! node -e "const s=require('net').createServer();s.once('error',()=>process.exit(1));s.listen($(port_of "$node"),'127.0.0.1',()=>s.close())"; then
    free_port > "$dir/port"
    sed -i "s/^port = .*/port = $(port_of "$node")/" "$dir/data/postgresql.conf"
  fi
  log "$node: starting on port $(port_of "$node") (log: $dir/server.log)"
  as_pg "$(bin pg_ctl)" -D "$dir/data" -l "$dir/server.log" -w -t 60 start > /dev/null
}

start() {
  build
  mkdir -p "$CLUSTER"
  [ "$(id -u)" = 0 ] && chown postgres:postgres "$CLUSTER"
  for node in "${NODES[@]}"; do start_node "$node"; done
  for node in "${NODES[@]}"; do psql_at "$(port_of "$node")" -c 'create extension if not exists citus'; done
  local coord
  coord=$(port_of coordinator)
  # Node registration is by host and port; after a restart on new ports the old entries go.
  psql_at "$coord" -c "select citus_set_coordinator_host('127.0.0.1', $coord)" > /dev/null
  for node in "${WORKER_NODES[@]}"; do
    local port
    port=$(port_of "$node")
    if [ "$(psql_at "$coord" -tA -c "select count(*) from pg_dist_node where nodeport = $port")" = 0 ]; then
      log "$node: added to the coordinator's nodes"
      psql_at "$coord" -c "select citus_add_node('127.0.0.1', $port)" > /dev/null
    fi
  done
  status
}

status() {
  for node in "${NODES[@]}"; do
    if ! running "$node"; then log "$node is not running"; return 1; fi
  done
  psql_at "$(port_of coordinator)" -tA -F ' ' -c "select 'node', nodename, nodeport, noderole, case when groupid = 0 then 'coordinator' else 'worker' end from pg_dist_node order by groupid" >&2
  url
}

stop() {
  for node in "${NODES[@]}"; do
    if running "$node"; then as_pg "$(bin pg_ctl)" -D "$CLUSTER/$node/data" -m fast -w stop > /dev/null; fi
  done
  log "stopped"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  clean) stop; rm -rf "$CLUSTER"; log "removed $CLUSTER" ;;
  build) build ;;
  packages) packages ;;
  *) echo "usage: $0 start|stop|status|clean|build|packages" >&2; exit 2 ;;
esac
