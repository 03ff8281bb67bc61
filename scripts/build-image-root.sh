#!/usr/bin/env bash
# The container image's build steps, in one place: the Dockerfile runs this script, and
# apps/node-server/test/image-root.test.ts runs the same script outside Docker, so everything in the
# image but its base is tested.
#
# Usage: scripts/build-image-root.sh <target-root>
# Installs the workspace from the lockfile, builds the node-server and the packages it uses, and deploys
# it with its production dependencies only (fastify, pino, yaml, the docs page's script, and the
# embedded local backend with its tokenizer and sharp) into <target-root>/opt/infergate, readable by
# every user and writable by none but root.
set -euo pipefail

target_root=${1:?usage: scripts/build-image-root.sh <target-root>}
repository="$(cd "$(dirname "$0")/.." && pwd)"
app="$target_root/opt/infergate"
if [ -e "$app" ]; then
  echo "build-image-root: $app already exists; give an empty target root" >&2
  exit 1
fi

cd "$repository"
pnpm install --frozen-lockfile
pnpm exec turbo run build --filter=@infergate/node-server... --output-logs=errors-only
# --legacy: pnpm 10 deploys injected workspaces only; the workspace links its packages instead, and
# the deployed copy holds the same files either way (each package's `files`: dist and its README).
pnpm --filter @infergate/node-server deploy --prod --legacy "$app"
cp deploy/image/healthcheck.mjs "$app/healthcheck.mjs"
# pnpm's bookkeeping is not needed to run, and would tell anyone reading the image about the build host.
rm -f "$app/node_modules/.modules.yaml"
# pnpm's hoisted link back to the deployed package itself points into the source checkout, which the
# image does not have.
rm -f "$app/node_modules/.pnpm/node_modules/@infergate/node-server"
chmod -R u+rwX,go+rX,go-w "$target_root"
