# Sourced by .ci/run: a throwaway PostgreSQL 15 for the tests, started on 127.0.0.1 at a free port, in a temporary
# data folder, with password authentication (scram-sha-256) and a random password; stopped and removed when the
# script exits, also on failure. Exports CONNECT_RECON_TEST_POSTGRES_URL, which the PostgreSQL tests read (they
# report themselves skipped without it outside CI, and fail without it in CI).
#
#   source .ci/postgres-server.sh && start_throwaway_postgres
#
# The tests' server runs with fsync=off (nothing in it outlives the run). For benchmark figures, start it durable,
# as a real server runs: CONNECT_RECON_DURABLE_POSTGRES=1 start_throwaway_postgres
pg_bin=/usr/lib/postgresql/15/bin

# Runs a command as the postgres user when this script runs as root (initdb refuses root), else as is.
as_postgres() {
    if [ "$(id -u)" = "0" ]; then
        su postgres -s /bin/bash -c "$*"
    else
        bash -c "$*"
    fi
}

start_throwaway_postgres() {
    if [ ! -x "$pg_bin/initdb" ]; then
        $SUDO apt-get install -y -qq postgresql >/dev/null
    fi
    pg_dir="$(mktemp -d)"
    [ "$(id -u)" = "0" ] && chown postgres "$pg_dir"
    trap stop_throwaway_postgres EXIT
    local port password durability="-c fsync=off"
    if [ "${CONNECT_RECON_DURABLE_POSTGRES:-}" = "1" ]; then durability=""; fi
    port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    password="$(python3 -c 'import secrets; print(secrets.token_hex(16))')"
    as_postgres "umask 077 && echo '$password' > '$pg_dir/password'"
    as_postgres "'$pg_bin/initdb' -D '$pg_dir/data' -U postgres --auth=scram-sha-256 --pwfile='$pg_dir/password' >'$pg_dir/initdb.log' 2>&1" || {
        cat "$pg_dir/initdb.log" >&2
        echo "error: initdb could not create the throwaway PostgreSQL server" >&2
        return 1
    }
    as_postgres "'$pg_bin/pg_ctl' -D '$pg_dir/data' -l '$pg_dir/server.log' -w -t 60 \
        -o \"-c listen_addresses=127.0.0.1 -p $port -k '$pg_dir' $durability\" start >/dev/null" || {
        cat "$pg_dir/server.log" >&2
        echo "error: the throwaway PostgreSQL server did not start" >&2
        return 1
    }
    export CONNECT_RECON_TEST_POSTGRES_URL="postgresql://postgres:$password@127.0.0.1:$port/postgres"
    echo "   PostgreSQL $("$pg_bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$port (data in $pg_dir)"
}

stop_throwaway_postgres() {
    [ -n "${pg_dir:-}" ] || return 0
    as_postgres "'$pg_bin/pg_ctl' -D '$pg_dir/data' -m immediate -w stop >/dev/null 2>&1" || true
    rm -rf "$pg_dir"
    pg_dir=""
}
