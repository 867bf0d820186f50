#!/usr/bin/env bash
# Installs everything gnnpart needs from Debian's packages. Idempotent: quiet when all is there.
set -euo pipefail

packages=(
  build-essential g++ cmake make pkg-config time gzip
  libboost-graph-dev libtbb-dev libmetis-dev metis libcli11-dev libfmt-dev
  googletest libgtest-dev zlib1g-dev
  openmpi-bin libopenmpi-dev python3-numpy python3-pytest python3-pybind11 python3-dev python3-matplotlib
  python3-torch
  clang libclang-rt-14-dev  # scripts/fuzz.sh: libFuzzer (clang -fsanitize=fuzzer)
)

# Only for benchmarks (scripts/setup.sh --bench): PT-Scotch's dgpart, the distributed
# baseline of scripts/bench_dist.sh. The build never needs it.
if [ "${1:-}" = "--bench" ]; then
  packages+=(ptscotch)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "setup: installing ${missing[*]}" >&2
sudo_cmd=()
[ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
