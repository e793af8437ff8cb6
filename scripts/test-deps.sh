#!/usr/bin/env bash
# Installs the real components the test suite drives, when they are missing:
# PostgreSQL (multi-server Store), the LXD client (`lxc`), Chromium (console
# browser tests), Ganeti's htools (`hail`, the reference allocator), gabbi and
# the OpenStack client with osc-placement (Placement's own API tests).
#
# Debian packages only, one `apt-get update`, one `apt-get install`. Nothing is
# done when everything is present. Without root (or without apt) it installs
# nothing and says what is missing; the tests that need a missing component say
# so plainly and are skipped, everything else still runs.
set -uo pipefail

# path (or glob) that proves the component is present -> Debian package that provides it
# (PostgreSQL: the server binaries of any version, not just the client's folder)
declare -A needs=(
  ["/usr/lib/postgresql/*/bin/initdb"]=postgresql
  [/usr/bin/lxc]=lxd-client
  [/usr/bin/chromium]=chromium
  [/usr/lib/ganeti/iallocators/hail]=ganeti-htools
  [/usr/bin/gabbi-run]=python3-gabbi
  [/usr/bin/openstack]=python3-openstackclient
  [/usr/lib/python3/dist-packages/osc_placement]=python3-osc-placement
  [/usr/share/fonts/truetype/dejavu]=fonts-dejavu-core
)

missing=()
for path in "${!needs[@]}"; do
  compgen -G "$path" >/dev/null || missing+=("${needs[$path]}")
done
if [ "${#missing[@]}" -eq 0 ]; then
  echo "test components: all present"
  exit 0
fi
mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort -u)

if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "test components missing (not installed: needs root and apt-get): ${missing[*]}"
  echo "the tests that need them will say so and be skipped"
  exit 0
fi

echo "test components: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
if ! apt-get update -qq >/tmp/berth-apt.log 2>&1 ||
  ! apt-get install -y -qq --no-install-recommends "${missing[@]}" >>/tmp/berth-apt.log 2>&1; then
  tail -n 20 /tmp/berth-apt.log
  echo "test components: apt-get failed (log above); the tests that need them will say so"
  exit 0
fi
echo "test components: installed"
