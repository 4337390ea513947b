#!/usr/bin/env bash
# pgEdge's snowflake extension (the generator users compare snowflake_nextval with), for the
# benchmark only: never part of idseq, never installed by `make install`.
#
#   bench/pgedge.sh status    prints "installed", or why it is not and cannot be, on stdout;
#                             exit 0 only when installed
#   bench/pgedge.sh ensure    installs it into the PostgreSQL of pg_config (first in PATH, or
#                             PG_CONFIG) if it is not there yet, from the source release in
#                             PGEDGE_SNOWFLAKE_SRC; needs write access to that installation
#
# PGEDGE_SNOWFLAKE_SRC: the release tarball, or a directory holding it (default
# ../shared/vendor beside the repository, where the project keeps third-party sources). The
# repository does not depend on it: without it the benchmark skips the pgEdge rows and says so.
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
PG_CONFIG=${PG_CONFIG:-pg_config}
src=${PGEDGE_SNOWFLAKE_SRC:-$here/../shared/vendor}
[ -d "$src" ] && src=$(ls -1 "$src"/pgedge-snowflake-*.tar.* 2>/dev/null | sort -V | tail -1)
control="$($PG_CONFIG --sharedir)/extension/snowflake.control"

installed() { grep -qs "^schema = snowflake" "$control"; } # pgEdge's (it creates schema snowflake)

case "${1:-status}" in
status)
    if installed; then echo installed; exit 0; fi
    if [ -z "$src" ] || [ ! -f "$src" ]; then
        echo "pgEdge snowflake is not installed and its source release was not found (set PGEDGE_SNOWFLAKE_SRC to pgedge-snowflake-<version>.tar.xz or its directory)"
    else
        echo "pgEdge snowflake is not installed in $($PG_CONFIG --sharedir) (run bench/pgedge.sh ensure with write access to it)"
    fi
    exit 1 ;;
ensure)
    installed && exit 0
    if [ -z "$src" ] || [ ! -f "$src" ]; then
        echo "pgedge.sh: no source release found (PGEDGE_SNOWFLAKE_SRC=${PGEDGE_SNOWFLAKE_SRC:-unset}); skipping" >&2
        exit 1
    fi
    [ -w "$(dirname "$control")" ] || { echo "pgedge.sh: $(dirname "$control") is not writable; skipping" >&2; exit 1; }
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    tar -xf "$src" -C "$work" || exit 1
    dir=$(ls -d "$work"/*/ | head -1)
    echo "== building pgEdge snowflake from $(basename "$src") for the benchmark"
    if ! (make -C "$dir" -s USE_PGXS=1 PG_CONFIG="$PG_CONFIG" && make -C "$dir" -s USE_PGXS=1 PG_CONFIG="$PG_CONFIG" install) \
        >"$work/build.log" 2>&1; then
        tail -20 "$work/build.log" >&2
        echo "pgedge.sh: build failed; skipping" >&2
        exit 1
    fi
    exit 0 ;;
*)
    echo "usage: $0 status|ensure" >&2; exit 2 ;;
esac
