#!/usr/bin/env bash
# Stops what test/services/start.sh started: the private redis-server, and the PostgreSQL cluster.
set -uo pipefail
REDIS_PORT="${ONAIR_TEST_REDIS_PORT:-6390}"
redis-cli -p "$REDIS_PORT" shutdown nosave >/dev/null 2>&1 || true
read -r PG_VERSION PG_CLUSTER _ < <(pg_lsclusters -h | head -1)
if [ "$(id -u)" -eq 0 ]; then pg_ctlcluster "$PG_VERSION" "$PG_CLUSTER" stop >/dev/null 2>&1 || true
else sudo pg_ctlcluster "$PG_VERSION" "$PG_CLUSTER" stop >/dev/null 2>&1 || true; fi
