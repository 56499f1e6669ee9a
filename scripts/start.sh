#!/bin/sh
# Runs the server bundle as `npm start` does: `sh scripts/start.sh [node flags…] <bundle>`.
# The settings are explained in docs/decisions/0015-server-bundle.md; the young generation's size in
# docs/decisions/0021-young-generation-by-database.md, favouring memory on the embedded database in
# docs/decisions/0024-embedded-database-favours-memory.md.
set -eu

# glibc's malloc: two arenas, and a fixed threshold for the blocks that get pages of their own
: "${MALLOC_ARENA_MAX:=2}" "${MALLOC_MMAP_THRESHOLD_:=131072}"
export MALLOC_ARENA_MAX MALLOC_MMAP_THRESHOLD_

# V8's young generation (MB per semi-space): small on the embedded database, whose process must fit a
# small server with PGlite inside it; on PostgreSQL, room for a live show's broadcasts to thousands of
# viewers without copying them through several scavenges. On the embedded database V8 is also told
# to favour memory over speed (decision 0024).
young_generation_mb=4
size_flags=--optimize-for-size
if [ -n "${DATABASE_URL:-}" ]; then
  young_generation_mb=32
  size_flags=
fi

# the project's Node.js (the `node` dev dependency), whatever node comes first on PATH
node="$(dirname "$0")/../node_modules/.bin/node"
if [ ! -x "$node" ]; then node=node; fi

exec "$node" --max-old-space-size=1024 --max-semi-space-size="$young_generation_mb" --liftoff-only --expose-gc $size_flags "$@"
