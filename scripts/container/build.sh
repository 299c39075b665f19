#!/usr/bin/env bash
# The container image's build steps. The Dockerfile RUNs exactly these, and tests/integration/container.test.ts runs
# `prune` (after the build `npm test` already did) outside Docker, then starts the result with start.sh:
#
#   build.sh deps          install every dependency from the lockfile (the image's cached dependency layer)
#   build.sh build         the production build: the core build step (word vectors, WordNet classes, extraction thread) and `next build`
#   build.sh prune DEST    assemble what the runtime stage copies into DEST (an absent or empty directory): the built
#                          app, the TypeScript sources the server runs through tsx, the migrations, the generated files,
#                          and node_modules without devDependencies
#
# `prune` links node_modules into DEST when both are on one file system (cp -l), else copies it; npm then removes the
# devDependencies there, offline. It never writes into the source tree.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"

die() {
  echo "build.sh: $*" >&2
  exit 1
}

# What the runtime needs besides node_modules, relative to the repository root. Workspace package.json files come
# from the root's "workspaces" (npm needs all of them to prune); test files are left out.
RUNTIME_PATHS=(
  package.json
  package-lock.json
  tsconfig.base.json
  scripts/container
  apps/web/server.ts
  apps/web/next.config.ts
  apps/web/tsconfig.json
  apps/web/.next
  apps/worker/src
  apps/worker/tsconfig.json
  packages/api/src
  packages/cli/src
  packages/core/src
  packages/core/generated
  packages/db/src
  packages/db/thread
  packages/db/migrations
  packages/jobs/src
  packages/mcp/src
  packages/mcp/bin
  packages/sdk/src
)
# Files the build must have produced before `prune`.
BUILD_OUTPUTS=(
  apps/web/.next/BUILD_ID
  packages/core/generated/word-vectors.bin
  packages/core/generated/hyponyms.json
  packages/core/generated/occupations.txt
  packages/core/generated/extraction-thread.mjs
)

workspace_dirs() {
  node -e '
    const fs = require("node:fs");
    const path = require("node:path");
    for (const pattern of require("./package.json").workspaces) {
      const [dir, star] = pattern.split("/");
      const dirs = star === "*" ? fs.readdirSync(dir).map((d) => path.join(dir, d)) : [pattern];
      for (const d of dirs) if (fs.existsSync(path.join(d, "package.json"))) console.log(d);
    }'
}

# Copies a tree, as hard links when source and destination share a file system.
link_or_copy() {
  cp -al "$1" "$2" 2>/dev/null || { rm -rf "$2"; cp -a "$1" "$2"; }
}

prune() {
  local dest="${1:-}"
  [[ -n "$dest" ]] || die "usage: build.sh prune DEST"
  [[ "$dest" = /* ]] || die "DEST must be an absolute path: $dest"
  [[ ! -e "$dest" || -z "$(ls -A "$dest")" ]] || die "DEST must be absent or empty: $dest"
  for f in "${BUILD_OUTPUTS[@]}"; do
    [[ -e "$f" ]] || die "$f is missing: run \`build.sh build\` first"
  done
  mkdir -p "$dest"
  dest="$(cd "$dest" && pwd -P)"

  local ws
  mapfile -t ws < <(workspace_dirs)
  local manifests=()
  for d in "${ws[@]}"; do manifests+=("$d/package.json"); done
  tar -cf - --exclude='*.test.ts' --exclude='apps/web/.next/cache' --exclude='apps/web/.next/trace*' \
    "${RUNTIME_PATHS[@]}" "${manifests[@]}" | tar -xf - -C "$dest"

  link_or_copy node_modules "$dest/node_modules"
  for d in "${ws[@]}"; do
    if [[ -d "$d/node_modules" ]]; then link_or_copy "$d/node_modules" "$dest/$d/node_modules"; fi
  done
  # npm rewrites its hidden lockfile in place: drop the (possibly linked) copies so the source tree's stay untouched.
  find "$dest" -path '*/node_modules/.package-lock.json' -delete
  (cd "$dest" && npm prune --omit=dev --offline --no-audit --no-fund --loglevel=error >/dev/null)

  # Every symbolic link must stay inside DEST (the runtime stage copies DEST alone).
  local outside
  outside="$(find "$dest" -type l -print0 | xargs -0 -r readlink -f | grep -v "^$dest/" || true)"
  [[ -z "$outside" ]] || die "links out of $dest: $(echo "$outside" | head -5)"
  echo "build.sh: runtime tree in $dest ($(du -sh "$dest" | cut -f1))"
}

case "${1:-}" in
  deps) npm ci --no-audit --no-fund ;;
  build) npx turbo run build --filter=@memory/web --output-logs=errors-only ;;
  prune) prune "${2:-}" ;;
  *) die "usage: build.sh deps | build | prune DEST" ;;
esac
