#!/usr/bin/env bash
# The container image's build steps: the Dockerfile runs this script, and
# apps/node-server/test/image-root.test.ts runs it outside Docker, so everything in the image but its
# base is tested. It installs the workspace from the lockfile, builds the node-server and deploys it
# with production dependencies only (the local backend unless --local-backend=false) into
# <target-root>/opt/infergate, readable by all, writable by root only.
# Usage: scripts/build-image-root.sh [--local-backend=true|false] <target-root>
set -euo pipefail

local_backend=true
case "${1:-}" in
  --local-backend=true | --local-backend=false)
    local_backend=${1#--local-backend=}
    shift
    ;;
  --local-backend=*)
    echo "build-image-root: --local-backend is true or false, not '${1#--local-backend=}'" >&2
    exit 2
    ;;
esac
target_root=${1:?usage: scripts/build-image-root.sh [--local-backend=true|false] <target-root>}
repository="$(cd "$(dirname "$0")/.." && pwd)"
app="$target_root/opt/infergate"
if [ -e "$app" ]; then
  echo "build-image-root: $app already exists; give an empty target root" >&2
  exit 1
fi

# --legacy: pnpm 10 deploys injected workspaces only; the workspace links its packages instead, and
# the deployed copy holds the same files either way (each package's `files`: dist and its README).
deploy_options=(--prod --legacy)
# The local backend is the node-server's one optional dependency: it loads it only for models no
# upstream serves, and without it a start that needs it stops with one line saying so.
if [ "$local_backend" = false ]; then deploy_options+=(--no-optional); fi

cd "$repository"
pnpm install --frozen-lockfile
pnpm exec turbo run build --filter=@infergate/node-server... --output-logs=errors-only
pnpm --filter @infergate/node-server deploy "${deploy_options[@]}" "$app"
cp deploy/image/healthcheck.mjs "$app/healthcheck.mjs"
# pnpm's bookkeeping is not needed to run, and would tell anyone reading the image about the build host.
rm -f "$app/node_modules/.modules.yaml"
# pnpm's hoisted link back to the deployed package itself points into the source checkout, which the
# image does not have.
rm -f "$app/node_modules/.pnpm/node_modules/@infergate/node-server"
chmod -R u+rwX,go+rX,go-w "$target_root"
