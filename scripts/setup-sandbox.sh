#!/usr/bin/env bash
# Installs what Kite's command sandbox needs on Linux: bubblewrap (bwrap) and util-linux
# (prlimit). Idempotent (~0 s when present). Used by `npm test`, `npm run demo` and CI.
#   KITE_SANDBOX_SKIP_APT=1   only check, never install
set -euo pipefail
[ "$(uname -s)" = Linux ] || exit 0
need=()
command -v bwrap >/dev/null || need+=(bubblewrap)
command -v prlimit >/dev/null || need+=(util-linux)
[ ${#need[@]} -eq 0 ] && exit 0
if [ "${KITE_SANDBOX_SKIP_APT:-0}" = 1 ] || [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
  echo "kite: the command sandbox needs ${need[*]}; install it with: sudo apt-get install ${need[*]} (Debian/Ubuntu), sudo dnf install ${need[*]} (Fedora)" >&2
  exit 1
fi
echo "[sandbox-setup] apt-get install ${need[*]}"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
