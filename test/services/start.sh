#!/usr/bin/env bash
# Starts the services the several-node tests use, on loopback: Debian's PostgreSQL cluster (port 5432, a role and
# database `onair` / `onair_test`) and a private redis-server on port 6390 without persistence. Prints the two
# variables the tests read; `.ci/run` evaluates them. Stop with test/services/stop.sh.
#   eval "$(bash test/services/start.sh)"
set -euo pipefail
REDIS_PORT="${ONAIR_TEST_REDIS_PORT:-6390}"
RUN_DIR="${TMPDIR:-/tmp}/onair-test-services"
mkdir -p "$RUN_DIR"

as_postgres() {
  if [ "$(id -un)" = postgres ]; then "$@"; elif [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else sudo -u postgres "$@"; fi
}

# PostgreSQL: the first cluster Debian made (postgresql-common), made if there is none, started if it is down.
if [ -z "$(pg_lsclusters -h)" ]; then
  PG_NEWEST="$(ls /usr/lib/postgresql | sort -n | tail -1)"
  if [ "$(id -u)" -eq 0 ]; then pg_createcluster "$PG_NEWEST" main >&2; else sudo pg_createcluster "$PG_NEWEST" main >&2; fi
fi
read -r PG_VERSION PG_CLUSTER PG_PORT PG_STATUS _ < <(pg_lsclusters -h | head -1)
if [ "$PG_STATUS" != online ]; then
  if [ "$(id -u)" -eq 0 ]; then pg_ctlcluster "$PG_VERSION" "$PG_CLUSTER" start >&2; else sudo pg_ctlcluster "$PG_VERSION" "$PG_CLUSTER" start >&2; fi
fi
for _ in $(seq 1 50); do as_postgres pg_isready -q -p "$PG_PORT" && break; sleep 0.2; done
as_postgres psql -q -p "$PG_PORT" -v ON_ERROR_STOP=1 >&2 <<SQL
SELECT 'ok';
DO \$\$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'onair') THEN
    CREATE ROLE onair LOGIN SUPERUSER PASSWORD 'onair';
  END IF;
END \$\$;
SQL
if ! as_postgres psql -p "$PG_PORT" -tAc "SELECT 1 FROM pg_database WHERE datname = 'onair_test'" | grep -q 1; then
  as_postgres createdb -p "$PG_PORT" -O onair onair_test >&2
fi

# Redis: a private instance, nothing written to disk.
if ! redis-cli -p "$REDIS_PORT" ping >/dev/null 2>&1; then
  redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save '' --appendonly no --daemonize yes \
    --pidfile "$RUN_DIR/redis.pid" --logfile "$RUN_DIR/redis.log" >&2
  for _ in $(seq 1 50); do redis-cli -p "$REDIS_PORT" ping >/dev/null 2>&1 && break; sleep 0.1; done
fi
redis-cli -p "$REDIS_PORT" ping >/dev/null

echo "export ONAIR_TEST_DATABASE_URL=postgres://onair:onair@127.0.0.1:$PG_PORT/onair_test"
echo "export ONAIR_TEST_REDIS_URL=redis://127.0.0.1:$REDIS_PORT"
