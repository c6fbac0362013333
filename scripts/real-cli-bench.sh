#!/usr/bin/env bash
# What git-debate adds, in wall time and CPU, on top of the real CLI calls it makes, in a big
# repository.
#
#   scripts/real-cli-bench.sh HARNESS_DIR [RUNS] [GIT_DEBATE_BINARY...]
#
# Needs:
#   HARNESS_DIR        the real-CLI harness (fake_llm.py, and `npm install` done there so that
#                      node_modules/.bin/claude and node_modules/.bin/codex exist).
#   GIT_BENCH_REPO     a git/git clone or bare mirror (default /work/.mirror/git+git/repo); it is
#                      cloned with --shared into a temp folder, never touched.
#   RUNS               runs per row (default 5); medians are reported.
#   GIT_DEBATE_BINARY  the builds to measure (default target/release/git-debate); each is put on
#                      PATH as `git-debate` in a temp folder, so `git debate` runs it.
#   python3, git; nothing is built. BENCH_KEEP=1 keeps the temp folder (captures, outputs).
#
# Scenario: one staged one-line edit of a tracked .c file in the clone (4,847 files), reviewed by
#   git debate --scope staged --max-rounds 1 --reviewer codex --author claude
# with the real codex and claude of the harness pointed at its fake model server on 127.0.0.1
# (configured as tests/real_clis.rs does: `debate.<cli>.model`, codex's provider in
# `debate.codex.args`, ANTHROPIC_BASE_URL, a temp HOME and TMPDIR). The server answers at once:
# the reviewer (codex, `--output-schema`) raises one P3, the author's judge call (claude,
# `--json-schema`, answered with its StructuredOutput tool) rules it valid and recommends A, so the
# review stops after exactly 2 CLI calls, one model request each.
#
# Rows (RUNS each, interleaved so that the machine's load drifts over all rows alike):
#   the CLI calls alone  the same 2 calls without git-debate: `codex exec ...` then `claude -p ...`
#                        with the argv, environment, working directory (a copy of the reviewer's
#                        export) and standard input (the prompt) git-debate gave them, recorded
#                        by a shim in an untimed capture run, replayed one after the other.
#   git debate, warm     the review with the export cache of the run before (the pre-commit
#                        hook's next commit).
#   git debate, cold     the same with the export cache emptied first (a new build, a reboot).
# Before timing, one untimed run fills the CLI version cache (~/.cache/git-debate/versions), as
# on any machine after the first review; `codex/claude --version` are then not in the figures.
#
# Measured with scripts/bench/tree-cpu.py (a child subreaper, so orphans are counted too):
#   wall ms       until `git debate` exits; for the calls alone, the sum of the calls' walls.
#   tree CPU ms   user + system CPU of every process of the tree (git, git-debate, its helpers,
#                 the CLIs and everything they start).
#   own CPU ms    the tree's CPU less the CLIs', measured two ways:
#                 - in the run: RUNS more runs per row with a probe shim named `codex`/`claude`
#                   first on PATH, which starts the real CLI as its child and reports the CLI's
#                   CPU and its own (bash `times`); own = tree - shims - CLIs. Exact, whatever
#                   the CLIs' CPU does from run to run.
#                 - tree less direct calls: median over runs of (tree CPU of a review) - (tree
#                   CPU of the calls alone, same iteration). Carries the CLIs' run-to-run noise
#                   (about +-100 ms here).
#   own CPU before the 1st model call: in the probe runs, the shim reads /proc/PID/stat of each of
#                 its ancestors up to tree-cpu.py (git-debate and git) when the first model
#                 call (codex exec) starts: utime + stime + cutime + cstime, so the git processes
#                 git-debate started and reaped are in; 10 ms clock ticks.
#   where the wall time goes: from the probe runs, the shim's times ($EPOCHREALTIME) against the
#                 tree's fork: before the first call, each call (and the same call alone), between
#                 the calls, after the last one. The shim adds a few ms to each call.
# The shim runs only in the capture and probe runs, never in a timed one.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
harness=$(realpath "${1:?usage: scripts/real-cli-bench.sh HARNESS_DIR [RUNS] [GIT_DEBATE_BINARY...]}")
runs=${2:-5}
shift $(($# < 2 ? $# : 2))
bins=("$@")
[ ${#bins[@]} -gt 0 ] || bins=("$here/../target/release/git-debate")
for i in "${!bins[@]}"; do bins[$i]=$(realpath "${bins[$i]}"); done
clis=$harness/node_modules/.bin
for c in codex claude; do
  [ -x "$clis/$c" ] || { echo "no $clis/$c: run npm install in $harness" >&2; exit 2; }
done
tree="python3 $here/bench/tree-cpu.py"

work=$(mktemp -d /tmp/real-cli-bench.XXXXXX)
server=
cleanup() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  if [ -n "${BENCH_KEEP:-}" ]; then echo "kept $work" >&2; else rm -rf "$work"; fi
  return 0
}
trap cleanup EXIT
mkdir -p "$work/home" "$work/tmp" "$work/bin" "$work/shim" "$work/cap" "$work/out"

# The repository and the change.
src=${GIT_BENCH_REPO:-/work/.mirror/git+git/repo}
git clone -q --shared "$src" "$work/repo"
files=$(git -C "$work/repo" ls-files | wc -l)
edit=$(git -C "$work/repo" ls-files '*.c' | sed -n 1p) # sed reads it all (no SIGPIPE for git)
echo "// one more line" >> "$work/repo/$edit"
git -C "$work/repo" add "$edit"
line=$(wc -l < "$work/repo/$edit")

# The fake model server: the reviewer's prompt gets one P3 (schema JSON, as codex
# --output-schema needs), the judge's prompt a "valid, keep the original" ruling (schema JSON,
# which fake_llm.py turns into claude's StructuredOutput tool call).
python3 - "$work/rules.json" "$edit" "$line" <<'EOF'
import json, sys
out, path, line = sys.argv[1], sys.argv[2], int(sys.argv[3])
review = {"verdict": "revise", "summary": "One small point.", "findings": [{
    "severity": "P3", "title": "The added comment says nothing", "file": path,
    "start_line": line, "end_line": line, "body": "A trailing comment with no content.",
    "action": "Drop it or say what it is for."}]}
judge = {"classifications": [{"id": "F1", "verdict": "valid", "severity": None,
                              "reason": "The comment adds nothing."}],
         "added": [], "recommendation": "A", "reason": "Only a P3."}
json.dump({"default": "FAKE-DEFAULT-REPLY", "rules": [
    {"match": "Judge each of its findings", "reply": json.dumps(judge)},
    {"match": "BEGIN CHANGE UNDER REVIEW", "reply": json.dumps(review)},
]}, open(out, "w"))
EOF
python3 "$harness/fake_llm.py" --port 0 --port-file "$work/port" --rules "$work/rules.json" \
  --lifetime 7200 --max-requests 100000 --log "$work/requests.jsonl" >"$work/server.log" 2>&1 &
server=$!
: > "$work/requests.jsonl"
for _ in $(seq 100); do [ -s "$work/port" ] && break; sleep 0.1; done
url=http://127.0.0.1:$(cat "$work/port")

# The CLIs pointed at it, as tests/real_clis.rs does.
export GIT_CONFIG_GLOBAL=$work/home/.gitconfig GIT_CONFIG_NOSYSTEM=1
git config --global debate.claude.model claude-sonnet-4-5
git config --global debate.codex.model gpt-5.5
p=model_providers.fakellm
git config --global debate.codex.args "-c model_provider=fakellm -c $p.name=fake_llm \
-c $p.base_url=$url/v1 -c $p.wire_api=responses -c $p.env_key=FAKE_LLM_API_KEY \
-c $p.request_max_retries=1 -c $p.stream_max_retries=1"
unset GIT_CONFIG_GLOBAL GIT_CONFIG_NOSYSTEM

# The probe shim, `codex` and `claude` first on PATH in the probe runs only (never in a timed
# one). Before starting the real CLI (as its child, so that `times` can tell the CLI's CPU from
# its own) it notes the time and the CPU of each ancestor up to tree-cpu.py (git-debate, git:
# utime, stime, cutime, cstime of /proc/PID/stat, in clock ticks), with shell builtins only;
# afterwards the end time and `times` (its own CPU, and its children's: the CLI and its tree).
# With CAPTURE_TREE=1 it also keeps the call for the replay: argv, environment, standard input,
# the files named on the command line (codex's --output-schema file) and a copy of the working
# directory (the reviewer's export), all gone once the review ends.
cat > "$work/shim/capture" <<'EOF'
#!/bin/bash
t=$EPOCHREALTIME
name=${0##*/}
d=$CAPTURE_DIR/$t-$name
mkdir -p "$d"
p=$PPID
while [ -n "$p" ] && [ "$p" != "$BENCH_ROOT_PID" ] && [ "$p" != 1 ]; do
  read -r s < "/proc/$p/stat"
  read -r comm < "/proc/$p/comm"
  f=(${s##*) })
  echo "$p $comm ${f[11]} ${f[12]} ${f[13]} ${f[14]}" >> "$d/ancestors"
  p=${f[1]}
done
echo "$t" > "$d/time"
printf '%s\0' "$@" > "$d/argv"
if [ "${CAPTURE_TREE:-0}" = 1 ]; then
  env -0 > "$d/env"
  pwd > "$d/cwd"
  [ "$PWD" = "$BENCH_REPO" ] || [ -e "$CAPTURE_DIR/root$PWD" ] || {
    mkdir -p "$CAPTURE_DIR/root$(dirname "$PWD")" && cp -a "$PWD" "$CAPTURE_DIR/root$PWD"
  }
  for a in "$@"; do
    if [ -f "$a" ]; then mkdir -p "$d/files$(dirname "$a")" && cp -a "$a" "$d/files$a"; fi
  done
  cat > "$d/stdin"
  exec < "$d/stdin"
fi
echo "$EPOCHREALTIME" > "$d/start"
"$REAL_BIN/$name" "$@"
rc=$?
echo "$EPOCHREALTIME" > "$d/end"
times > "$d/times"
exit $rc
EOF
chmod +x "$work/shim/capture"
ln -s capture "$work/shim/codex"
ln -s capture "$work/shim/claude"

# run OUT_PREFIX SHIM BIN: one `git debate` under tree-cpu.py; prints its JSON line plus the
# model requests the server logged during it. SHIM: 0 none, 1 the capture shim first on PATH, 2
# the same keeping a copy of the calls' working directory (for the replay).
run() {
  local out=$1 shim=$2 bin=$3 path before
  ln -sf "$bin" "$work/bin/git-debate"
  path=$work/bin:$clis:/usr/bin:/bin
  [ "$shim" != 0 ] && path=$work/shim:$path
  before=$(wc -l < "$work/requests.jsonl" 2>/dev/null || echo 0)
  (cd "$work/repo" && env -i PATH="$path" HOME="$work/home" TMPDIR="$work/tmp" TERM=dumb \
    NO_COLOR=1 LANG=C.UTF-8 GIT_DEBATE_LAUNCHER=none GIT_CONFIG_NOSYSTEM=1 \
    ANTHROPIC_BASE_URL="$url" ANTHROPIC_API_KEY=x FAKE_LLM_API_KEY=x \
    CAPTURE_DIR="$out.cap" REAL_BIN="$clis" BENCH_REPO="$work/repo" CAPTURE_TREE=$((shim == 2 ? 1 : 0)) \
    $tree run "$out" -- git debate --scope staged --max-rounds 1 --reviewer codex \
    --author claude --backend-timeout-seconds 120) | requests "$before"
}

# requests BEFORE: the JSON line on stdin, with the server's requests since line BEFORE added.
requests() {
  local line
  line=$(cat)
  echo "$line" | python3 -c '
import json, sys
r = json.loads(sys.stdin.read())
log = open(sys.argv[1]).read().splitlines()[int(sys.argv[2]):]
r["requests"] = sum(1 for l in log if "/_" not in json.loads(l).get("path", ""))
print(json.dumps(r))' "$work/requests.jsonl" "$1"
}

# prepare CAPDIR: turns the calls a capture run recorded (not the --version probes) into
# replayable ones: argv with the saved files, the environment without the shim's variables, the
# copy of the working directory. Prints the call folders in order.
prepare() {
  python3 - "$1" "$work/shim" "$work/repo" <<'EOF'
import os, sys
cap, shim, repo = sys.argv[1:]
for name in sorted(os.listdir(cap)):
    d = os.path.join(cap, name)
    if not os.path.isfile(os.path.join(d, "argv")):
        continue
    argv = open(os.path.join(d, "argv"), "rb").read().decode().split("\0")[:-1]
    if argv == ["--version"]:
        continue
    prog = name.split("-", 1)[1]
    env = dict(kv.split("=", 1) for kv in open(os.path.join(d, "env"), "rb").read().decode().split("\0") if "=" in kv)
    for k in ("CAPTURE_DIR", "CAPTURE_TREE", "REAL_BIN", "BENCH_REPO", "BENCH_ROOT_PID", "_", "SHLVL", "OLDPWD"):
        env.pop(k, None)
    env["PATH"] = ":".join(p for p in env["PATH"].split(":") if p != shim)
    cwd = open(os.path.join(d, "cwd")).read().strip()
    if cwd != repo:
        cwd = cap + "/root" + cwd
    env["PWD"] = cwd
    real = os.path.join(os.environ["REAL_BIN"], prog)
    args = [d + "/files" + a if os.path.isfile(d + "/files" + a) else a for a in argv]
    open(os.path.join(d, "argv.replay"), "wb").write("".join(a + "\0" for a in [real] + args).encode())
    open(os.path.join(d, "env.replay"), "wb").write("".join(f"{k}={v}\0" for k, v in env.items()).encode())
    open(os.path.join(d, "cwd.replay"), "w").write(cwd + "\n")
    print(d)
EOF
}

# probe RUN_PREFIX: the probe shim's notes of a probe run, with its tree-cpu.py line: the own CPU
# and wall when the first model call started; each call's start and end (ms from the tree's fork)
# and CPU (the shim's own, and the CLI's); own CPU in the run (the tree's less the shims' and the
# CLIs').
probe() {
  python3 - "$1" <<'EOF'
import json, os, re, sys
run = json.load(open(sys.argv[1] + ".json"))
cap, start = sys.argv[1] + ".cap", run["start"]
tick = os.sysconf("SC_CLK_TCK")
def secs(text):
    return [int(m) * 60 + float(s) for m, s in re.findall(r"(\d+)m([\d.]+)s", text)]
calls, first = [], None
for name in sorted(os.listdir(cap)):
    d = os.path.join(cap, name)
    if not os.path.isfile(os.path.join(d, "argv")):
        continue
    version = open(os.path.join(d, "argv"), "rb").read() == b"--version\0"
    t = float(open(os.path.join(d, "time")).read())
    t1 = float(open(os.path.join(d, "start")).read())
    end = float(open(os.path.join(d, "end")).read())
    own_u, own_s, kid_u, kid_s = secs(open(os.path.join(d, "times")).read())
    calls.append({"cli": name.split("-", 1)[1], "version": version,
                  "start_ms": (t1 - start) * 1000, "shim_ms": (t - start) * 1000, "end_ms": (end - start) * 1000,
                  "shim_cpu_ms": (own_u + own_s) * 1000, "cli_cpu_ms": (kid_u + kid_s) * 1000})
    if first is None and not version:
        anc = open(os.path.join(d, "ancestors")).read().splitlines()
        first = {"first_cpu": sum(sum(int(x) for x in l.split()[2:6]) for l in anc) * 1000 / tick,
                 "first_wall": (t - start) * 1000, "ancestors": [l.split()[1] for l in anc]}
out = dict(run, **(first or {}), calls=calls)
out["own_inrun"] = run["cpu"] * 1000 - sum(c["shim_cpu_ms"] + c["cli_cpu_ms"] for c in calls)
print(json.dumps(out))
EOF
}

echo "machine: $(nproc) CPUs, load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "CLIs: codex $("$clis/codex" --version | tr -d '\n'), claude $("$clis/claude" --version | tr -d '\n')"
echo "repository: $(basename "$(dirname "$src")"), $files tracked files, one staged one-line edit of $edit; $runs runs per row, medians"
export REAL_BIN=$clis

for bi in "${!bins[@]}"; do
  b=${bins[$bi]}
  o=$work/out/$bi
  mkdir -p "$o"
  # Untimed: fill the version cache (shim and real paths), then the capture runs.
  run "$o/w0" 2 "$b" >/dev/null # also keeps the calls for the replay
  run "$o/w1" 0 "$b" >/dev/null
  for i in $(seq "$runs"); do
    rm -rf "$work"/tmp/git-debate-cache-*
    run "$o/fc$i" 1 "$b" > "$o/fc$i.json"
    probe "$o/fc$i" > "$o/fc$i.probe"
    run "$o/fw$i" 1 "$b" > "$o/fw$i.json"
    probe "$o/fw$i" > "$o/fw$i.probe"
  done
  mapfile -t calls < <(prepare "$o/w0.cap")
  [ ${#calls[@]} -gt 0 ] || { echo "no CLI call was captured" >&2; exit 1; }
  # Timed, interleaved.
  for i in $(seq "$runs"); do
    before=$(wc -l < "$work/requests.jsonl")
    $tree replay "$o/d$i" "${calls[@]}" | requests "$before" > "$o/d$i.json"
    run "$o/w$i" 0 "$b" > "$o/w$i.json"
    rm -rf "$work"/tmp/git-debate-cache-*
    run "$o/c$i" 0 "$b" > "$o/c$i.json"
  done
  echo
  echo "binary: $b; calls replayed: $(for c in "${calls[@]}"; do basename "$c" | cut -d- -f2; done | tr '\n' ' ')"
  python3 - "$o" "$runs" <<'EOF'
import json, os, statistics as st, sys
o, runs = sys.argv[1], int(sys.argv[2])
load = lambda p: json.load(open(os.path.join(o, p)))
med = st.median
R = range(1, runs + 1)
d = [load(f"d{i}.json") for i in R]
rows = {"warm": [load(f"w{i}.json") for i in R], "cold": [load(f"c{i}.json") for i in R]}
pr = {"warm": [load(f"fw{i}.probe") for i in R], "cold": [load(f"fc{i}.probe") for i in R]}
bad = [r for r in d + rows["warm"] + rows["cold"] + pr["warm"] + pr["cold"]
       if r["exit"] != 0 or r["lingered"]]
dw = med([r["wall"] for r in d]) * 1000
dc = med([r["cpu"] for r in d]) * 1000
print()
print("| run | wall ms | wall / direct calls | tree CPU ms | own CPU ms | own CPU ms, tree less direct calls | own CPU before the 1st model call ms | model requests |")
print("|---|---:|---:|---:|---:|---:|---:|---:|")
print(f"| the {len(d[0]['walls'])} CLI calls alone | {dw:,.0f} | 1.00x | {dc:,.0f} | | | | {med([r['requests'] for r in d]):.0f} |")
for name in ("warm", "cold"):
    rs, ps = rows[name], pr[name]
    w = med([r["wall"] for r in rs]) * 1000
    own_sub = med([r["cpu"] - x["cpu"] for r, x in zip(rs, d)]) * 1000
    print(f"| git debate, export cache {name} | {w:,.0f} | {w / dw:.2f}x | {med([r['cpu'] for r in rs]) * 1000:,.0f} "
          f"| {med([p['own_inrun'] for p in ps]):,.0f} | {own_sub:,.0f} | {med([p['first_cpu'] for p in ps]):,.0f} "
          f"| {med([r['requests'] for r in rs]):.0f} |")
print()
print("Where the wall time goes (probe runs, medians, ms): before the 1st call | each call under git debate (the same call alone) | between calls | after the last call")
print()
print("| run | before 1st call | calls | between | after last | total |")
print("|---|---:|---:|---:|---:|---:|")
alone = [med([r["walls"][k] * 1000 for r in d]) for k in range(len(d[0]["walls"]))]
for name in ("warm", "cold"):
    ps = [p for p in pr[name] if len([c for c in p["calls"] if not c["version"]]) == len(alone)]
    if not ps:
        continue
    cs = [[c for c in p["calls"] if not c["version"]] for p in ps]
    inner = [med([c[k]["end_ms"] - c[k]["start_ms"] for c in cs]) for k in range(len(alone))]
    between = med([sum(c[k + 1]["shim_ms"] - c[k]["end_ms"] for k in range(len(c) - 1)) for c in cs])
    after = med([p["wall"] * 1000 - c[-1]["end_ms"] for p, c in zip(ps, cs)])
    print(f"| {name} | {med([p['first_wall'] for p in ps]):,.0f} | "
          + " + ".join(f"{x:,.0f} ({y:,.0f})" for x, y in zip(inner, alone))
          + f" | {between:,.0f} | {after:,.0f} | {med([p['wall'] * 1000 for p in ps]):,.0f} |")
print()
print("per run, wall ms / tree CPU ms:")
print("  calls alone:", ", ".join(f"{r['wall']*1000:.0f}/{r['cpu']*1000:.0f}" for r in d))
for name in ("warm", "cold"):
    print(f"  {name}:", ", ".join(f"{r['wall']*1000:.0f}/{r['cpu']*1000:.0f}" for r in rows[name]))
    print(f"  {name} probe runs, own CPU in run / before 1st call ms:",
          ", ".join(f"{p['own_inrun']:.0f}/{p.get('first_cpu', float('nan')):.0f}" for p in pr[name]))
if bad:
    print(f"WARNING: {len(bad)} runs exited non-zero or left processes behind")
EOF
done
echo
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
