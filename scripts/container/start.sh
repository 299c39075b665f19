#!/usr/bin/env bash
# How the container starts: the Dockerfile's ENTRYPOINT (CMD `web`) and HEALTHCHECK, and docker-compose.yml's worker
# command. tests/integration/container.test.ts runs it the same way outside Docker, from a tree `build.sh prune` made:
#
#   start.sh web [server options]   the HTTP server (apps/web/server.ts, as `npm start` runs it); applies migrations
#   start.sh worker                 a worker process for the PostgreSQL job tables (docs/workers.md)
#   start.sh cli ARGS…              the operator CLI (`tenant create --name acme`, …; `--help` lists the commands)
#   start.sh healthcheck            exits 0 when GET /v1/health/ready on 127.0.0.1:$PORT answers 200
#
# Settings come from the environment (README, Configuration). A relative MEMORY_DATA_DIR is resolved against the
# directory start.sh was run from, as `npm start` does.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
export NODE_ENV=production
export NEXT_TELEMETRY_DISABLED=1
export INIT_CWD="${INIT_CWD:-$PWD}"

command="${1:-web}"
shift || true
case "$command" in
  web)
    cd "$ROOT/apps/web"
    # the young generation as npm start sizes it (docs/operations.md, "Garbage collection")
    exec node --max-semi-space-size=32 --import tsx server.ts "$@"
    ;;
  worker)
    cd "$ROOT/apps/worker"
    exec node --import tsx src/main.ts "$@"
    ;;
  cli)
    cd "$ROOT"
    exec node --import tsx packages/cli/src/main.ts "$@"
    ;;
  healthcheck)
    exec node -e '
      const url = `http://127.0.0.1:${process.env.PORT || 3000}/v1/health/ready`;
      fetch(url, { signal: AbortSignal.timeout(4000) }).then(
        (res) => process.exit(res.status === 200 ? 0 : 1),
        () => process.exit(1),
      );'
    ;;
  *)
    echo "start.sh: unknown command '$command' (web, worker, cli, healthcheck)" >&2
    exit 2
    ;;
esac
