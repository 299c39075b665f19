# syntax=docker/dockerfile:1
# The memory service's image (README, Production). Every build and start step is one of the scripts in
# scripts/container/, which tests/integration/container.test.ts also runs outside Docker and checks this file against:
# no Docker engine runs where this project is developed, so the image itself has not been built there.
#
#   docker build -t memory-service .
#   docker run -p 3000:3000 -v memory-data:/data memory-service                        embedded database in /data
#   docker run -p 3000:3000 -e DATABASE_URL=postgres://… memory-service                PostgreSQL
#   docker run -e DATABASE_URL=postgres://… memory-service worker                     a worker process
#   docker run --rm -e DATABASE_URL=postgres://… memory-service cli tenant create --name acme

ARG NODE_IMAGE=node:22-bookworm-slim

# 1. Dependencies: only the manifests and the lockfile, so this layer is rebuilt only when they change.
FROM ${NODE_IMAGE} AS deps
# the npm of package.json's "packageManager", which made package-lock.json
ARG NPM_VERSION=11.19.1
ENV NEXT_TELEMETRY_DISABLED=1 npm_config_update_notifier=false
RUN npm install -g "npm@${NPM_VERSION}" --no-audit --no-fund
WORKDIR /app
COPY package.json package-lock.json ./
COPY apps/web/package.json apps/web/
COPY apps/worker/package.json apps/worker/
COPY packages/api/package.json packages/api/
COPY packages/cli/package.json packages/cli/
COPY packages/client/package.json packages/client/
COPY packages/core/package.json packages/core/
COPY packages/db/package.json packages/db/
COPY packages/jobs/package.json packages/jobs/
COPY packages/mcp/package.json packages/mcp/
COPY packages/mcp/bin packages/mcp/bin
COPY packages/sdk/package.json packages/sdk/
COPY e2e/package.json e2e/
COPY scripts/container/build.sh scripts/container/
RUN --mount=type=cache,target=/root/.npm scripts/container/build.sh deps

# 2. Build: the core build step and `next build`, then the runtime tree in /runtime (no devDependencies, no tests).
FROM deps AS build
COPY . .
RUN scripts/container/build.sh build && scripts/container/build.sh prune /runtime

# 3. Runtime: the runtime tree, owned by root and run as the unprivileged `node` user, who may write only the data
#    directory (the embedded database, when DATABASE_URL is unset) and Next.js's cache.
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 PORT=3000 MEMORY_DATA_DIR=/data
WORKDIR /app
COPY --from=build /runtime /app
RUN mkdir -p /data /app/apps/web/.next/cache && chown node:node /data /app/apps/web/.next/cache
USER node
EXPOSE 3000
VOLUME ["/data"]
HEALTHCHECK --interval=30s --timeout=5s --start-period=120s --retries=3 CMD ["/app/scripts/container/start.sh", "healthcheck"]
ENTRYPOINT ["/app/scripts/container/start.sh"]
CMD ["web"]
