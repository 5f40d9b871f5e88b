# Sourced by scripts/up, down, admin: where the dev stack lives and which ports it uses (override by environment).
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)
DATA=${ATTRIBUTION_DATA:-$ROOT/.data}
PG_PORT=${PG_PORT:-55432}
CH_HTTP_PORT=${CH_HTTP_PORT:-58123}
CH_TCP_PORT=${CH_TCP_PORT:-59000}
API_PORT=${API_PORT:-8080}
JAR=$ROOT/server/target/attribution-server.jar
SERVERS=$ROOT/scripts/lib/servers.sh
export POSTGRES_URL=${POSTGRES_URL:-jdbc:postgresql://127.0.0.1:$PG_PORT/attribution}
export CLICKHOUSE_URL=${CLICKHOUSE_URL:-http://127.0.0.1:$CH_HTTP_PORT}
JAVA_OPTS=${JAVA_OPTS:--Xms256m -Xmx1g -XX:+UseG1GC}

# True when the jar is missing or older than any source, resource or pom of the build.
needs_build() {
  [ -f "$JAR" ] || return 0
  [ -n "$(find "$ROOT" -path "$ROOT/.data" -prune -o -path '*/target' -prune -o \
      \( -name '*.java' -o -name '*.sql' -o -name '*.yml' -o -name '*.xml' -o -name INDEX \) -newer "$JAR" -print -quit)" ]
}

build() {
  echo "building (mvn package, tests skipped)…" >&2
  (cd "$ROOT" && mvn -B -q -DskipTests package) >&2 || { echo "build failed" >&2; exit 1; }
}
