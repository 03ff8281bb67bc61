#!/usr/bin/env bash
# Installs the Debian packages the test suite drives, when missing; `pnpm test` runs it first, so the
# README's test command works on a fresh Debian machine with only Node 20 and npm:
#   chromium      the /docs page in a real browser
#   redis-server  replicas sharing key limits
#   nftables      network-namespace fault rows (with iproute2)
#   iproute2
#   nginx         the gateway behind a reverse proxy
#   curl          the README's and the start banner's example requests, run as printed
#   wrk           the load generator of the bench's regression guard
# As root it installs them; otherwise with `sudo -n` when that works without a password; otherwise it
# prints the apt-get command to run and exits 1. Nothing is done when every package is there.
set -euo pipefail

packages=(chromium redis-server nftables iproute2 nginx curl wrk)

if ! command -v dpkg-query >/dev/null 2>&1; then
  # Not Debian: the tests find the programs on PATH (sbin included) or fail naming what is missing.
  missing_commands=()
  for command in chromium redis-server nft ip nginx curl wrk; do
    PATH="$PATH:/usr/sbin:/sbin" command -v "$command" >/dev/null 2>&1 || missing_commands+=("$command")
  done
  if [ "${#missing_commands[@]}" -gt 0 ]; then
    echo "The tests need these programs, which are not installed: ${missing_commands[*]} (Debian packages: ${packages[*]})" >&2
    exit 1
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
  echo "The tests need these Debian packages: ${missing[*]}. Install them as root, then run the tests again:" >&2
  echo "  sudo apt-get update && sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
  exit 1
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
