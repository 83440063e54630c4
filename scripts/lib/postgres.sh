# A throw-away PostgreSQL cluster, for scripts/postgres-tests.sh and
# scripts/bench-web.sh. Source it, then:
#
#   pg_setup            finds Debian's PostgreSQL programs (installing the
#                       `postgresql` package with apt if they are missing)
#                       and sets $pg (their directory) and $as_user (the
#                       command prefix that runs the cluster: never root,
#                       which initdb refuses; as root, the `postgres` system
#                       user the package makes, or `nobody`)
#   pg_start DIR        a new cluster in DIR/data (DIR is made readable by
#                       the cluster's user, who must be able to pass through
#                       its parents), on a free loopback port: sets
#                       $pg_port, $pg_data, $pg_log and $pg_admin (a URL of
#                       the `postgres` database as the superuser `nimatron`)
#   pg_restart_immediate  `pg_ctl restart -m immediate` (a crash, then
#                       recovery)
#   pg_stop             stops it at once (call it from the EXIT trap)
#   pg_psql ARGS...     psql as `nimatron` on the cluster
#
# The cluster trusts every local connection: loopback and a socket in DIR
# only, for tests and benchmarks, never for a site.

pg_bindir() {
    local d
    for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
        if [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] && [ -x "$d/postgres" ]; then
            echo "$d"
            return
        fi
    done
    if command -v pg_config >/dev/null && [ -x "$(pg_config --bindir)/initdb" ]; then
        pg_config --bindir
    fi
}

pg_setup() {
    pg="$(pg_bindir)"
    if [ -z "$pg" ]; then
        echo "== installing Debian's postgresql (apt)"
        local sudo=""
        [ "$(id -u)" -eq 0 ] || sudo="sudo"
        export DEBIAN_FRONTEND=noninteractive
        $sudo apt-get install -y --no-install-recommends postgresql >/dev/null ||
            { $sudo apt-get update >/dev/null && $sudo apt-get install -y --no-install-recommends postgresql >/dev/null; }
        pg="$(pg_bindir)"
        [ -n "$pg" ] || { echo "postgresql installed, but no initdb found under /usr/lib/postgresql" >&2; return 1; }
    fi
    echo "PostgreSQL: $("$pg/postgres" --version)"
    as_user=()
    if [ "$(id -u)" -eq 0 ]; then
        local user=postgres
        getent passwd postgres >/dev/null || user=nobody
        as_user=(runuser -u "$user" --)
    fi
}

pg_options() {
    echo "-p $pg_port -k $pg_dir -c listen_addresses=127.0.0.1 -c max_connections=300"
}

pg_start() { # DIR
    pg_dir="$1"
    chmod 755 "$pg_dir"
    [ ${#as_user[@]} -eq 0 ] || chown "${as_user[2]}" "$pg_dir"
    pg_data="$pg_dir/data"
    pg_log="$pg_dir/postgres.log"
    pg_port=$((20000 + RANDOM % 20000))
    while (exec 3<>"/dev/tcp/127.0.0.1/$pg_port") 2>/dev/null; do pg_port=$((pg_port + 1)); done
    "${as_user[@]}" "$pg/initdb" -D "$pg_data" -U nimatron -A trust -E UTF8 --locale=C --no-sync >/dev/null
    "${as_user[@]}" "$pg/pg_ctl" -D "$pg_data" -l "$pg_log" -w -o "$(pg_options)" start >/dev/null
    pg_admin="postgres://nimatron@127.0.0.1:$pg_port/postgres"
}

pg_restart_immediate() {
    "${as_user[@]}" "$pg/pg_ctl" -D "$pg_data" -l "$pg_log" -w -m immediate -o "$(pg_options)" restart >/dev/null
}

pg_stop() {
    if [ -n "${pg_data:-}" ] && [ -f "$pg_data/postmaster.pid" ]; then
        "${as_user[@]}" "$pg/pg_ctl" -D "$pg_data" -m immediate stop >/dev/null 2>&1 || true
    fi
}

pg_psql() {
    "$pg/psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$pg_port" -U nimatron "$@"
}
