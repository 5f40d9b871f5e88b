# Sourced by servers.sh (its "install" command): the Debian packages the dev stack and the tests need, installed with
# apt when missing -- postgresql-15, clickhouse-server + clickhouse-client, prometheus (for its promtool: the metrics
# test lints /prometheus), nodejs + npm (npx runs the OpenAPI lint) and chromium + chromium-driver (the browser tests
# drive /usr/bin/chromium through /usr/bin/chromedriver; nothing is downloaded at test time). Uses servers.sh's PG_BIN,
# note and die.
install() {
  local updated=0 pkgs
  export DEBIAN_FRONTEND=noninteractive
  for pkgs in "postgresql-15" "clickhouse-server clickhouse-client" "prometheus" "nodejs npm" "chromium chromium-driver"; do
    case $pkgs in
      postgresql-15) [ -x "$PG_BIN/postgres" ] && continue ;;
      prometheus) command -v promtool >/dev/null 2>&1 && continue ;;
      "nodejs npm") command -v npx >/dev/null 2>&1 && continue ;; # the OpenAPI lint (redocly) runs with npx
      "chromium chromium-driver") [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ] && continue ;;
      *) command -v clickhouse-server >/dev/null 2>&1 && command -v clickhouse-client >/dev/null 2>&1 && continue ;;
    esac
    note "installing $pkgs (apt)"
    if [ $updated = 0 ]; then apt-get update -q >/dev/null || die "apt-get update failed"; updated=1; fi
    # The packages try to start their system services; policy-rc.d refuses that here and we do not need
    # them, so a non-zero status from the service start is tolerated: the binaries decide.
    # shellcheck disable=SC2086
    apt-get install -y -q $pkgs >/tmp/servers-install.$$.log 2>&1 || true
    case $pkgs in
      postgresql-15) [ -x "$PG_BIN/postgres" ] ;;
      prometheus) command -v promtool >/dev/null 2>&1 ;;
      "nodejs npm") command -v npx >/dev/null 2>&1 ;;
      "chromium chromium-driver") [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ] ;;
      *) command -v clickhouse-server >/dev/null 2>&1 ;;
    esac || { tail -40 /tmp/servers-install.$$.log >&2; rm -f /tmp/servers-install.$$.log; die "could not install $pkgs"; }
    rm -f /tmp/servers-install.$$.log
  done
}
