#!/usr/bin/env bash
# Start Tablestream's Redis so that it never loads half of a script's effects.
#
#   [REDIS_CONF=FILE] deploy/start-redis.sh DIR [redis-server options ...]
#   (FILE: deploy/redis.conf by default; deploy/cluster/redis-cluster.conf for a cluster node)
#
# Redis 7.0 logs an append script's writes as one MULTI ... EXEC block. A crash (or a full
# disk) can leave the AOF cut inside that block; with `aof-load-truncated yes` (Redis's
# default) the first restart drops the partial block but leaves its MULTI in the file, new
# writes go after it, and a later restart either reverts them or fails with "MULTI calls
# can not be nested" and loads half of the old block. deploy/redis.conf therefore says
# `aof-load-truncated no` (a torn AOF stops the server instead of loading), and this
# script, before every start, checks the AOF with `redis-check-aof` and, if its tail is
# torn, keeps a copy of the AOF folder and cuts the file back to the last whole command or
# MULTI/EXEC block (`redis-check-aof --fix`, as Redis's own message recommends). What is
# cut was never fsynced whole: at most the last second of writes (appendfsync everysec).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
dir="${1:?usage: start-redis.sh DIR [redis-server options ...]}"
shift
server="${REDIS_SERVER:-$(command -v redis-server)}"
check() {  # redis-check-aof, else the server binary under that name (it is the same program)
  if command -v redis-check-aof >/dev/null; then redis-check-aof "$@"; else (exec -a redis-check-aof "$server" "$@"); fi
}
manifest="$dir/appendonlydir/appendonly.aof.manifest"
if [[ -f "$manifest" ]] && ! check "$manifest" >/dev/null 2>&1; then
  backup="$dir/appendonlydir.torn-$(date -u +%Y%m%dT%H%M%SZ)"
  cp -a "$dir/appendonlydir" "$backup"
  echo "start-redis: the AOF in $dir is torn; a copy is in $backup; cutting it back to its last whole block" >&2
  echo y | check --fix "$manifest" >&2
  check "$manifest" >/dev/null  # still not valid (not a torn tail): stop here, for an operator
fi
exec "$server" "${REDIS_CONF:-$here/redis.conf}" --dir "$dir" "$@"
