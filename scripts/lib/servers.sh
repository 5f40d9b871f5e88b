#!/usr/bin/env bash
# Private PostgreSQL 15 and ClickHouse instances on 127.0.0.1, each living in a directory of its own.
# Used by scripts/up (the dev stack under .data/) and by the tests (temporary directories, free ports);
# any number of instances can run side by side as long as directories and ports differ.
#
#   servers.sh install                        apt-get install postgresql-15 / clickhouse-server+client / prometheus
#                                             (for its promtool: the metrics test lints /prometheus) / nodejs+npm
#                                             (npx runs the OpenAPI lint) / chromium+chromium-driver (the
#                                             browser tests) when missing
#   servers.sh pg-start DIR PORT              initdb if needed, start (wal_level=logical), create database attribution
#   servers.sh pg-stop DIR                    fast shutdown; no error when not running
#   servers.sh ch-start DIR HTTP_PORT TCP_PORT  write DIR/config.xml + DIR/users.xml, start, wait for /ping
#   servers.sh ch-stop DIR                    TERM, up to 10 s, then KILL; no error when not running
#   servers.sh status DIR...                  which servers in DIR (or DIR/pg, DIR/ch) are running; always exits 0
#   servers.sh running PID ARG                exit 0 when PID is a live process (not a zombie) whose command line has
#                                             the argument ARG (scripts/up and down: the server's pid file after a crash)
#   servers.sh discard DIR                    throwaway instances (tests): PostgreSQL in DIR/pg immediate-stopped,
#                                             ClickHouse in DIR/ch killed, then DIR removed; no waiting on clients
#
# Starts are idempotent and print one line on stdout: "postgres up on 127.0.0.1:PORT (DIR)".
# Starting a DIR that already runs on another port fails (the caller would connect to the wrong server).
#
# Layout.  PostgreSQL: DIR (owned by postgres) holds data/ (PGDATA), log/postgres.log and the unix socket.
#          ClickHouse: DIR holds config.xml, users.xml, clickhouse.pid, data/, tmp/, user_files/,
#          format_schemas/, log/.
# As root, PostgreSQL runs as user postgres (initdb refuses root), so postgres must be able to traverse
# every directory above DIR: directories that block it get o+x (traverse, not list) -- except home
# directories such as /root, which are never opened: keep a PostgreSQL DIR outside them.
# ClickHouse 18.16 runs as root without complaint when its directories are root-owned (as created here).
#
# Environment: PG_BIN (default /usr/lib/postgresql/15/bin), PG_OPTS (extra "-c k=v" for postgres),
#              CH_BI_PASSWORD (password of the read-only ClickHouse user bi, default "bi"),
#              CH_BI_DATABASE (the one database bi may read, default "attribution"),
#              CH_BIN (default clickhouse-server).
set -euo pipefail

PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
CH_BIN=${CH_BIN:-clickhouse-server}

die() { echo "servers.sh: $*" >&2; exit 1; }
note() { echo "servers.sh: $*" >&2; }
usage() { sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }

# Process PID exists and is not a zombie (a killed process stays a zombie until init reaps it).
alive() {
  local state
  state=$(sed -n 's/^State:[[:space:]]*\([A-Z]\).*/\1/p' "/proc/$1/status" 2>/dev/null) || return 1
  [ -n "$state" ] && [ "$state" != Z ] && [ "$state" != X ]
}

abspath() { mkdir -p "$1" && (cd "$1" && pwd -P); }

# Per-directory lock so that two concurrent starts of the same DIR do not race. fd 9 must not leak into
# the servers (they would hold the lock for their lifetime): every server launch closes it with 9>&-.
lock() { exec 9>>"$1/.servers.lock"; flock -w 120 9 || die "timed out waiting for the lock on $1"; }

# ---------------------------------------------------------------------------------------------- install
source "$(dirname "${BASH_SOURCE[0]}")/install.sh"

# ------------------------------------------------------------------------------------------- postgres
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

# The postmaster of DIR is alive. Not "pg_ctl status": it counts a zombie postmaster (killed, not yet reaped,
# which a container's init can leave for a while) as running.
pg_running() {
  local pid
  pid=$(sed -n 1p "$1/data/postmaster.pid" 2>/dev/null) && [[ $pid =~ ^[0-9]+$ ]] && alive "$pid" || return 1
  tr '\0' '\n' 2>/dev/null <"/proc/$pid/cmdline" | head -1 | grep -qE '(postgres|postmaster)$'
}
pg_port() { sed -n 4p "$1/data/postmaster.pid" 2>/dev/null; }

# Make DIR usable by the postgres user: it owns DIR; every directory above DIR must be traversable by it.
pg_prepare_dir() {
  local dir=$1 p homes blocked=()
  mkdir -p "$dir/log"
  [ "$(id -u)" = 0 ] || return 0
  id postgres >/dev/null 2>&1 || die "no user postgres: run 'servers.sh install' first"
  p=$dir
  while [ "$p" != / ]; do
    p=$(dirname "$p")
    runuser -u postgres -- test -x "$p" || blocked+=("$p")
  done
  if [ ${#blocked[@]} -gt 0 ]; then
    homes=$(getent passwd | cut -d: -f6 | grep -vx / || true)
    for p in "${blocked[@]}"; do
      if [ "$p" = /root ] || [[ $p == /home/* ]] || grep -qxF "$p" <<<"$homes"; then
        die "user postgres cannot reach $dir: $p is a home directory and will not be opened; put the PostgreSQL directory outside it (e.g. /work/main/.data/pg or under /tmp)"
      fi
    done
    for p in "${blocked[@]}"; do chmod o+x "$p"; note "gave others traverse permission (o+x) on $p so that postgres can reach $dir"; done
  fi
  chown postgres:postgres "$dir" "$dir/log"
  runuser -u postgres -- test -w "$dir" || die "user postgres cannot write $dir"
}

pg_start() {
  [ $# = 2 ] || usage
  local dir port=$2 t0 i running_port
  [[ $port =~ ^[0-9]+$ ]] || die "bad port: $port"
  dir=$(abspath "$1")
  t0=$(date +%s%N)
  lock "$dir"
  if pg_running "$dir"; then
    running_port=$(pg_port "$dir")
    [ "$running_port" = "$port" ] || die "postgres in $dir already runs on port $running_port, not $port"
    echo "postgres already up on 127.0.0.1:$port ($dir)"
    return 0
  fi
  pg_prepare_dir "$dir"
  if [ ! -f "$dir/data/PG_VERSION" ]; then
    as_pg "$PG_BIN/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 \
      >"$dir/log/initdb.log" 2>&1 9>&- || { cat "$dir/log/initdb.log" >&2; die "initdb failed in $dir/data"; }
  fi
  # After a crash (kill -9) the old postmaster can linger as a zombie until init reaps it, and its
  # children need a moment to notice; postgres refuses to start while either holds the lock file or
  # the shared memory. Wait for the zombie, and retry the start once if that is what failed.
  local old
  old=$(sed -n 1p "$dir/data/postmaster.pid" 2>/dev/null || true)
  if [[ $old =~ ^[0-9]+$ ]]; then
    for i in $(seq 1 150); do [ -e "/proc/$old" ] && ! alive "$old" || break; sleep 0.1; done
  fi
  local opts="-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories='$dir' -c wal_level=logical \
    -c max_replication_slots=10 -c max_wal_senders=10 -c synchronous_commit=on -c fsync=on \
    -c max_connections=200 -c shared_buffers=256MB ${PG_OPTS:-}"
  for i in 1 2; do
    if as_pg "$PG_BIN/pg_ctl" -D "$dir/data" -l "$dir/log/postgres.log" -w -t 60 -s start -o "$opts" >/dev/null 2>&1 9>&-; then
      break
    fi
    if [ $i = 1 ] && tail -5 "$dir/log/postgres.log" | grep -qE 'lock file .* already exists|shared memory block is still in use'; then
      sleep 2; continue
    fi
    tail -20 "$dir/log/postgres.log" >&2; die "postgres did not start in $dir on port $port"
  done
  for i in $(seq 1 300); do
    "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$port" -U postgres -d postgres && break
    [ "$i" = 300 ] && { tail -20 "$dir/log/postgres.log" >&2; die "postgres in $dir does not answer on port $port"; }
    sleep 0.1
  done
  local psql=("$PG_BIN/psql" -X -h 127.0.0.1 -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1 -Atq)
  if [ -z "$("${psql[@]}" -c "SELECT 1 FROM pg_database WHERE datname = 'attribution'")" ]; then
    "${psql[@]}" -c "CREATE DATABASE attribution" >/dev/null
  fi
  echo "postgres up on 127.0.0.1:$port ($dir) in $(( ($(date +%s%N) - t0) / 1000000 )) ms"
}

pg_stop() {
  [ $# = 1 ] || usage
  local dir=$1
  [ -d "$dir" ] || return 0
  dir=$(cd "$dir" && pwd -P)
  pg_running "$dir" || return 0
  # fast: roll back and disconnect clients. It still waits for walsenders to hand over the WAL, which a
  # stuck replication client can delay up to wal_sender_timeout: after 30 s fall back to immediate.
  if as_pg "$PG_BIN/pg_ctl" -D "$dir/data" -m fast -w -t 30 -s stop >/dev/null 2>&1 9>&-; then
    echo "postgres stopped ($dir)"
  else
    as_pg "$PG_BIN/pg_ctl" -D "$dir/data" -m immediate -w -t 30 -s stop >/dev/null 9>&-
    echo "postgres stopped, immediate mode after 30 s ($dir)"
  fi
}

# ----------------------------------------------------------------------------------------- clickhouse
# The pid of the live server of DIR: the one in DIR/clickhouse.pid when its command line names
# DIR/config.xml, else found by that command line (a server whose pid file is missing or wrong, as earlier
# versions of this script could leave).
ch_is() { alive "$1" && tr '\0' '\n' 2>/dev/null <"/proc/$1/cmdline" | grep -qxF -- "--config-file=$2/config.xml"; }
ch_pid() {
  local pid f
  pid=$(cat "$1/clickhouse.pid" 2>/dev/null || true)
  if [[ $pid =~ ^[0-9]+$ ]] && ch_is "$pid" "$1"; then echo "$pid"; return 0; fi
  for f in /proc/[0-9]*/cmdline; do
    pid=${f#/proc/}; pid=${pid%/cmdline}
    if tr '\0' '\n' 2>/dev/null <"$f" | grep -qxF -- "--config-file=$1/config.xml" && ch_is "$pid" "$1"; then
      echo "$pid" >"$1/clickhouse.pid" 2>/dev/null || true
      echo "$pid"; return 0
    fi
  done
  return 1
}
ch_http_port() { sed -n 's:.*<http_port>\([0-9]*\)</http_port>.*:\1:p' "$1/config.xml" 2>/dev/null; }
port_busy() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
xml_escape() { sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g' <<<"$1"; }

ch_write_config() {
  local dir=$1 http=$2 tcp=$3 bi_password bi_database
  bi_password=$(xml_escape "${CH_BI_PASSWORD:-bi}")
  bi_database=$(xml_escape "${CH_BI_DATABASE:-attribution}")
  # Root element <clickhouse>: current releases document it (and still accept <yandex>); 18.16 reads the
  # file with Poco, which does not look at the root element's name. Unknown keys (max_server_memory_usage
  # for 18.16) are ignored. No interserver_http_port / mysql_port / postgresql_port: those stay closed.
  cat >"$dir/config.xml" <<XML
<?xml version="1.0"?>
<clickhouse>
    <logger>
        <level>${CH_LOG_LEVEL:-information}</level>
        <log>$dir/log/clickhouse-server.log</log>
        <errorlog>$dir/log/clickhouse-server.err.log</errorlog>
        <size>100M</size>
        <count>2</count>
    </logger>
    <listen_host>127.0.0.1</listen_host>
    <http_port>$http</http_port>
    <tcp_port>$tcp</tcp_port>
    <path>$dir/data/</path>
    <tmp_path>$dir/tmp/</tmp_path>
    <user_files_path>$dir/user_files/</user_files_path>
    <format_schema_path>$dir/format_schemas/</format_schema_path>
    <users_config>$dir/users.xml</users_config>
    <default_profile>default</default_profile>
    <default_database>default</default_database>
    <timezone>UTC</timezone>
    <mark_cache_size>268435456</mark_cache_size>
    <uncompressed_cache_size>268435456</uncompressed_cache_size>
    <max_server_memory_usage>2147483648</max_server_memory_usage>
    <max_concurrent_queries>100</max_concurrent_queries>
</clickhouse>
XML
  cat >"$dir/users.xml" <<XML
<?xml version="1.0"?>
<clickhouse>
    <profiles>
        <default>
            <max_memory_usage>1073741824</max_memory_usage>
            <load_balancing>random</load_balancing>
        </default>
        <readonly>
            <readonly>1</readonly>
            <max_memory_usage>1073741824</max_memory_usage>
        </readonly>
    </profiles>
    <users>
        <default>
            <password></password>
            <networks>
                <ip>127.0.0.1</ip>
                <ip>::1</ip>
            </networks>
            <profile>default</profile>
            <quota>default</quota>
        </default>
        <bi>
            <password>$bi_password</password>
            <networks>
                <ip>127.0.0.1</ip>
                <ip>::1</ip>
            </networks>
            <profile>readonly</profile>
            <quota>default</quota>
            <allow_databases>
                <database>$bi_database</database>
            </allow_databases>
        </bi>
    </users>
    <quotas>
        <default>
            <interval>
                <duration>3600</duration>
                <queries>0</queries>
                <errors>0</errors>
                <result_rows>0</result_rows>
                <read_rows>0</read_rows>
                <execution_time>0</execution_time>
            </interval>
        </default>
    </quotas>
</clickhouse>
XML
  chmod 600 "$dir/users.xml"
}

ch_start() {
  [ $# = 3 ] || usage
  local dir http=$2 tcp=$3 t0 pid i running_port
  [[ $http =~ ^[0-9]+$ && $tcp =~ ^[0-9]+$ ]] || die "bad ports: $http $tcp"
  command -v "$CH_BIN" >/dev/null 2>&1 || die "$CH_BIN not found: run 'servers.sh install' first"
  dir=$(abspath "$1")
  t0=$(date +%s%N)
  lock "$dir"
  if ch_pid "$dir" >/dev/null; then
    running_port=$(ch_http_port "$dir")
    [ "$running_port" = "$http" ] || die "clickhouse in $dir already runs on http port $running_port, not $http"
    echo "clickhouse already up on 127.0.0.1:$http ($dir)"
    return 0
  fi
  for i in "$http" "$tcp"; do port_busy "$i" && die "port $i on 127.0.0.1 is already in use"; done
  mkdir -p "$dir"/{data,tmp,user_files,format_schemas,log}
  ch_write_config "$dir" "$http" "$tcp"
  rm -f "$dir/clickhouse.pid"
  # A new session (setsid) so that the caller's signals and terminal do not reach the server; the inner
  # shell writes its own pid and execs the server, so the pid is right whether or not setsid forks.
  # fd 9 (the lock) is closed first: no process left behind may hold it.
  (exec 9>&-; setsid bash -c 'cd "$1" && echo $$ >"$1/clickhouse.pid" && exec nohup "$2" --config-file="$1/config.xml"' \
      ch "$dir" "$CH_BIN" </dev/null >>"$dir/log/stdout.log" 2>&1 &)
  for i in $(seq 1 300); do
    pid=$(cat "$dir/clickhouse.pid" 2>/dev/null || true)
    if [ "$(curl -s -m 1 "http://127.0.0.1:$http/ping" 2>/dev/null)" = "Ok." ] && [ -n "$pid" ] && ch_is "$pid" "$dir"; then
      echo "clickhouse up on 127.0.0.1:$http ($dir) in $(( ($(date +%s%N) - t0) / 1000000 )) ms"
      return 0
    fi
    # gone after having written its pid: it exited
    if [ -s "$dir/clickhouse.pid" ] && ! alive "$(cat "$dir/clickhouse.pid")"; then break; fi
    sleep 0.1
  done
  if pid=$(ch_pid "$dir"); then
    kill -9 "$pid" 2>/dev/null || true
    note "clickhouse did not answer on 127.0.0.1:$http within 30 s (killed it); log tail:"
  else
    note "clickhouse exited during start ($dir); log tail:"
  fi
  rm -f "$dir/clickhouse.pid"
  tail -n 30 "$dir/log/stdout.log" "$dir/log/clickhouse-server.err.log" >&2 2>/dev/null || true
  exit 1
}

ch_stop() {
  [ $# = 1 ] || usage
  local dir=$1 pid i
  [ -d "$dir" ] || return 0
  dir=$(cd "$dir" && pwd -P)
  pid=$(ch_pid "$dir") || { rm -f "$dir/clickhouse.pid"; return 0; }
  kill -TERM "$pid" 2>/dev/null || true
  for i in $(seq 1 100); do
    if ! alive "$pid"; then rm -f "$dir/clickhouse.pid"; echo "clickhouse stopped ($dir)"; return 0; fi
    sleep 0.1
  done
  kill -KILL "$pid" 2>/dev/null || true
  for i in $(seq 1 50); do alive "$pid" || break; sleep 0.1; done
  rm -f "$dir/clickhouse.pid"
  echo "clickhouse killed after 10 s ($dir)"
}

# -------------------------------------------------------------------------------------------- discard
# For data nobody keeps (a test run's temporary DIR): no shutdown checkpoint, no wait for a replication client
# of a JVM that is exiting (a fast stop waits up to 30 s for walsenders), then the directory goes.
discard() {
  [ $# = 1 ] || usage
  local dir=$1 pid
  [ -d "$dir" ] || return 0
  dir=$(cd "$dir" && pwd -P)
  if [ -d "$dir/ch" ] && pid=$(ch_pid "$(cd "$dir/ch" && pwd -P)"); then
    kill -KILL "$pid" 2>/dev/null || true
  fi
  if [ -d "$dir/pg" ] && pg_running "$(cd "$dir/pg" && pwd -P)"; then
    as_pg "$PG_BIN/pg_ctl" -D "$dir/pg/data" -m immediate -w -t 30 -s stop >/dev/null 9>&- || true
  fi
  rm -rf "$dir"
  echo "discarded $dir"
}

# --------------------------------------------------------------------------------------------- status
status_one() {
  local dir=$1 found=0 pid
  [ -d "$dir" ] || { echo "nothing at $dir"; return 0; }
  dir=$(cd "$dir" && pwd -P)
  if [ -f "$dir/data/PG_VERSION" ]; then
    found=1
    if pg_running "$dir"; then echo "postgres up on 127.0.0.1:$(pg_port "$dir") ($dir)"; else echo "postgres down ($dir)"; fi
  fi
  if [ -f "$dir/config.xml" ]; then
    found=1
    if pid=$(ch_pid "$dir"); then echo "clickhouse up on 127.0.0.1:$(ch_http_port "$dir") ($dir, pid $pid)"; else echo "clickhouse down ($dir)"; fi
  fi
  if [ $found = 0 ]; then
    local sub any=0
    for sub in "$dir"/*/; do
      [ -f "$sub/data/PG_VERSION" ] || [ -f "$sub/config.xml" ] || continue
      any=1; status_one "${sub%/}"
    done
    [ $any = 1 ] || echo "no server directory at $dir"
  fi
}

cmd=${1:-}
[ $# -gt 0 ] && shift
case "$cmd" in
  install) [ $# = 0 ] || usage; install ;;
  pg-start) pg_start "$@" ;;
  pg-stop) pg_stop "$@" ;;
  ch-start) ch_start "$@" ;;
  ch-stop) ch_stop "$@" ;;
  discard) discard "$@" ;;
  running) [ $# = 2 ] && [[ $1 =~ ^[0-9]+$ ]] && alive "$1" && tr '\0' '\n' 2>/dev/null <"/proc/$1/cmdline" | grep -qxF -- "$2" ;;
  status) [ $# -gt 0 ] || usage; for d in "$@"; do status_one "$d"; done ;;
  *) usage ;;
esac
