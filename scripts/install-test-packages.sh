#!/usr/bin/env bash
# Installs the Debian packages the test suite drives, when missing, so the README's test command works
# on a fresh Debian machine: chromium (the /docs page), redis-server (shared key limits), nftables and
# iproute2 (network fault rows), nginx (the reverse proxy), curl (the printed example requests), wrk
# (the bench guard). As root it installs them, else with `sudo -n` if that needs no password; otherwise
# it names what is missing and what that does to the tests, and lets them run, except with CI=true,
# where it fails.
set -euo pipefail

packages=(chromium redis-server nftables iproute2 nginx curl wrk)

# What the tests do without a package: the network-namespace rows skip themselves (they also need
# root); the others fail; the bench falls back to its own load generator.
without() {
  case "$1" in
    chromium) echo "the /docs browser test fails" ;;
    redis-server) echo "the Redis key-limit tests fail" ;;
    nftables | iproute2 | nft | ip) echo "fault-matrix rows 11 and 13 are skipped" ;;
    nginx) echo "the nginx rolling-restart test fails" ;;
    curl) echo "the README and start-banner curl tests fail" ;;
    wrk) echo "the bench guard uses its slower undici load generator" ;;
  esac
}

# `cannot_install <why> <command> <name>...`: the one line, then on CI a failure, elsewhere go on.
cannot_install() {
  local why=$1 command=$2 effects=() effect name
  shift 2
  for name in "$@"; do
    effect=$(without "$name")
    case " ${effects[*]-} " in *" $effect;"*) ;; *) effects+=("$effect;") ;; esac
  done
  local line="Missing for the tests: $* ($why: $command); without them ${effects[*]}"
  if [ "${CI:-}" = true ]; then
    echo "${line%;} (CI=true: failing, as CI must have them)" >&2
    exit 1
  fi
  echo "${line%;}" >&2
  exit 0
}

if ! command -v dpkg-query >/dev/null 2>&1; then
  # Not Debian: the tests find the programs on PATH (sbin included) or fail naming what is missing.
  missing_commands=()
  for command in chromium redis-server nft ip nginx curl wrk; do
    PATH="$PATH:/usr/sbin:/sbin" command -v "$command" >/dev/null 2>&1 || missing_commands+=("$command")
  done
  if [ "${#missing_commands[@]}" -gt 0 ]; then
    cannot_install "not on PATH, and this is not Debian" "the Debian packages are ${packages[*]}" "${missing_commands[@]}"
  fi
  exit 0
fi

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
done
[ "${#missing[@]}" -eq 0 ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
  as_root=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  as_root=(sudo -n)
else
  cannot_install "not root and no passwordless sudo to install them" \
    "sudo apt-get update && sudo apt-get install -y --no-install-recommends ${missing[*]}" "${missing[@]}"
fi

echo "Installing the Debian packages the tests need: ${missing[*]}"
# The tests start their own redis-server and nginx on free loopback ports: keep the packages' services
# from starting (policy-rc.d exit 101 = "not allowed"), unless the machine already has such a policy.
policy=/usr/sbin/policy-rc.d
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' | "${as_root[@]}" tee "$policy" >/dev/null
  "${as_root[@]}" chmod +x "$policy"
  trap '"${as_root[@]}" rm -f "$policy"' EXIT
fi
# Another apt run (unattended upgrades, a parallel job) may hold the lock for a while: wait for it.
apt_options=(-o DPkg::Lock::Timeout=600 -qq)
"${as_root[@]}" apt-get "${apt_options[@]}" update
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get "${apt_options[@]}" install -y --no-install-recommends "${missing[@]}"
