# The sharpsharp image: one image for every command. The entrypoint is the CLI, so the container's command
# is the sharpsharp command: `start` (the default), `ingress`, `worker`, `console`, `admin …`, `router …`.
#   docker build -t sharpsharp:local .
#   docker run --rm -p 3000:3000 -v sharpsharp-data:/var/lib/sharpsharp sharpsharp:local start
# docs/operations.md#container-image-and-docker-compose says more; test/deploy/dockerfile.test.ts keeps it so.

# Any Debian bookworm image with Node 20 and npm (a mirror, a pinned digest); the build stage installs its
# compiler with apt-get.
ARG NODE_IMAGE=node:20-bookworm-slim

# ---- build: the TypeScript, the console, better-sqlite3's native module; then only production dependencies.
FROM ${NODE_IMAGE} AS build
# better-sqlite3 compiles from source when no prebuilt binary can be downloaded for this Node and platform.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
# The dependencies in a layer of their own, rebuilt only when the lock file changes. --ignore-scripts skips
# the package's own "prepare" (the TypeScript build, whose sources are not copied yet); `npm rebuild` then
# runs the dependencies' install scripts (better-sqlite3's native build), and not the package's.
RUN npm ci --ignore-scripts --no-audit --no-fund \
 && npm rebuild --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY bench ./bench
COPY console ./console
RUN npm run build \
 && npm prune --omit=dev --ignore-scripts --no-audit --no-fund

# ---- runtime: what bin/sharpsharp.js reads (package.json "files"), production node_modules, no compiler.
FROM ${NODE_IMAGE} AS runtime
# HOST: the public port (webhook, /healthz, the bare /readyz) on every interface of the container. The admin
# listener (/metrics, the detailed /readyz, the console) stays on the container's loopback unless ADMIN_HOST
# says otherwise, which sharpsharp allows only with ADMIN_TOKEN set.
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    ADMIN_HOST=127.0.0.1 \
    ADMIN_PORT=9464 \
    SHARPSHARP_DATA_DIR=/var/lib/sharpsharp
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist/src ./dist/src
COPY --from=build /app/dist/console ./dist/console
COPY bin ./bin
COPY data/router ./data/router
COPY data/lexicon ./data/lexicon
# The data directory belongs to the user the process runs as (1000: `node` in the official images, and the
# runAsUser of deploy/kubernetes); a named volume mounted there starts with this owner and mode.
RUN mkdir -p /var/lib/sharpsharp \
 && chown 1000:1000 /var/lib/sharpsharp \
 && chmod 0700 /var/lib/sharpsharp \
 && ln -s /app/bin/sharpsharp.js /usr/local/bin/sharpsharp
USER 1000:1000
# The SQLite file and its lock (embedded mode), the demo's state, trained custom intents, kept media.
VOLUME ["/var/lib/sharpsharp"]
EXPOSE 3000 9464
# Node runs as PID 1 and handles SIGTERM itself (src/cli.ts): it stops taking work, lets running work finish
# for SHUTDOWN_GRACE_MS (35 s) and exits at the latest 10 s later, so give `docker stop` a timeout of 60 s.
STOPSIGNAL SIGTERM
# /healthz on the public port (start, ingress, worker). A process with no public listener (`console`) is
# asked on the admin listener instead, with ADMIN_TOKEN when it is set. Node's fetch: no curl in this image.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "const env = process.env; const probe = (port, headers) => fetch('http://127.0.0.1:' + port + '/healthz', { headers, signal: AbortSignal.timeout(4000) }); probe(env.PORT || 3000, {}).catch((error) => { if (error?.cause?.code !== 'ECONNREFUSED') throw error; return probe(env.ADMIN_PORT || 9464, env.ADMIN_TOKEN ? { authorization: 'Bearer ' + env.ADMIN_TOKEN } : {}); }).then((response) => process.exit(response.ok ? 0 : 1), () => process.exit(1));"]
ENTRYPOINT ["node", "/app/bin/sharpsharp.js"]
CMD ["start"]
