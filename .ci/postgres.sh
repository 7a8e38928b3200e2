#!/usr/bin/env bash
# Start a throwaway PostgreSQL server on 127.0.0.1 for tests/test_store_postgres.py and print the
# admin URL on stdout. Best effort: prints nothing (and the PostgreSQL tests skip, saying why)
# where Debian's postgresql cannot be installed or started.
set -u
{
  if ! ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1; then
    command -v apt-get >/dev/null && [ "$(id -u)" = 0 ] || exit 0
    timeout 300 apt-get update -qq || exit 0
    DEBIAN_FRONTEND=noninteractive timeout 300 apt-get install -y -qq postgresql || exit 0
  fi
  version=$(ls /usr/lib/postgresql | sort -n | tail -1)
  pg_ctlcluster "$version" main start || true
  for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 && break; sleep 1; done
  pg_isready -q -h 127.0.0.1 || exit 0
  su postgres -c "psql -qc \"DO \\\$\\\$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'cgtalg_ci')
    THEN CREATE ROLE cgtalg_ci LOGIN CREATEDB PASSWORD 'cgtalg_ci'; END IF; END \\\$\\\$;\"" || exit 0
} >&2
echo "postgresql://cgtalg_ci:cgtalg_ci@127.0.0.1:5432/postgres"
