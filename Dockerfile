# syntax=docker/dockerfile:1
# The infergate gateway (apps/node-server), with the embedded local backend unless LOCAL_BACKEND=false.
#   docker build -t infergate .
#   docker build --build-arg LOCAL_BACKEND=false -t infergate:slim .    # upstreams serve every model
#   docker run -p 8080:8080 -e INFERGATE_API_KEYS=my-key infergate
# Configuration: mount a YAML or JSON file and point INFERGATE_CONFIG at it; HOST, PORT,
# INFERGATE_API_KEYS and LOG_LEVEL as for `pnpm start`. See docs/deployment.md.

# Node 24 (LTS), pinned by digest so that a rebuild gets the same base. To move to a newer base:
#   docker buildx imagetools inspect node:24-bookworm-slim --format '{{json .Manifest.Digest}}'
# and put the digest printed here (docs/deployment.md, "Supported Node.js versions").
ARG NODE_IMAGE=node:24-bookworm-slim@sha256:6f7b03f7c2c8e2e784dcf9295400527b9b1270fd37b7e9a7285cf83b6951452d

FROM ${NODE_IMAGE} AS build
ENV CI=true \
    TURBO_TELEMETRY_DISABLED=1
RUN npm install --global pnpm@10.34.8
WORKDIR /src
COPY . .
# false: no embedded local backend (its tokenizer and image library), for gateways whose upstreams serve
# every model; a start that needs it stops with one line saying so.
ARG LOCAL_BACKEND=true
# Every build step is in this script, which the test suite runs outside Docker.
RUN scripts/build-image-root.sh --local-backend="$LOCAL_BACKEND" /image-root

# The same base as the build: sharp's native library is the one pnpm chose for this libc.
FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080
COPY --from=build /image-root/ /
WORKDIR /opt/infergate
# The base image's unprivileged `node` user (uid 1000); the application files belong to root and are
# read-only to it, and the gateway writes nothing to disk (readOnlyRootFilesystem works).
USER 1000:1000
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "/opt/infergate/healthcheck.mjs"]
# SIGTERM starts the drain (timeouts.drain_delay_ms) and then the graceful shutdown
# (timeouts.shutdown_grace_ms): give `docker stop -t` more than their sum.
STOPSIGNAL SIGTERM
ENTRYPOINT ["node", "/opt/infergate/dist/main.js"]
