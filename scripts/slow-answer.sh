#!/usr/bin/env bash
# A 15-minute answer, streamed slowly, through the real claude, gemini, qwen and codex CLIs.
#
#   scripts/slow-answer.sh HARNESS_DIR [MINUTES]
#
# Starts tests/fixtures/real-clis/slow_llm.py (the harness's fake model, one streamed event every
# 3 s), then `git debate ask --backend <cli> --backend-timeout-seconds <MINUTES*60+600>` for each
# CLI at once, with the default idle limit (300 s). Each call must answer after about MINUTES
# minutes: the idle limit measures silence, not the length of an answer. Prints each call's exit
# code, time and answer. codex reaches the server through a custom provider given in
# `debate.codex.args`; its `exec --json` prints nothing until the answer is whole, so it lives on
# the tracing lines git-debate has it print on stderr. Needs `npm install` in HARNESS_DIR and a
# built git-debate on PATH or in target/debug. Not part of `cargo test` (it takes MINUTES minutes).
set -euo pipefail
HARNESS=$(cd "$1" && pwd)
MINUTES=${2:-15}
HERE=$(cd "$(dirname "$0")/.." && pwd)
BIN=$(command -v git-debate || echo "$HERE/target/debug/git-debate")
WORK=$(mktemp -d /tmp/slow-answer.XXXXXX)
EVERY=3
# One delta per event: characters = events = MINUTES * 60 / EVERY.
CHARS=$((MINUTES * 60 / EVERY))
REPLY=$(python3 -c "print(('No issues found in this change. ' * 200)[:$CHARS])")
python3 - "$WORK/rules.json" "$REPLY" <<'PY'
import json, sys
json.dump({"default": "ok", "rules": [{"match": "slow review please", "reply": sys.argv[2]}]},
          open(sys.argv[1], "w"))
PY
SLOW_EVENT_SECONDS=$EVERY python3 "$HERE/tests/fixtures/real-clis/slow_llm.py" "$HARNESS" \
  --port 0 --port-file "$WORK/port" --rules "$WORK/rules.json" --chunk-size 1 \
  --lifetime $((MINUTES * 60 + 1800)) --log "$WORK/requests.jsonl" > "$WORK/server.out" 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true' EXIT
for _ in $(seq 100); do [ -s "$WORK/port" ] && break; sleep 0.1; done
URL=http://127.0.0.1:$(cat "$WORK/port")
git init -q "$WORK/repo"
calls=()
for cli in claude gemini qwen codex; do
  home=$WORK/home-$cli
  mkdir -p "$home/tmp" "$home/.gemini"
  echo '{"security": {"auth": {"selectedType": "gemini-api-key"}}, "privacy": {"usageStatisticsEnabled": false}, "telemetry": {"enabled": false}, "general": {"disableAutoUpdate": true, "disableUpdateNag": true}}' \
    > "$home/.gemini/settings.json"
  HOME="$home" git config --global debate.codex.args "-m gpt-5.5 -c model_provider=fakellm \
    -c model_providers.fakellm.name=fake_llm -c model_providers.fakellm.base_url=$URL/v1 \
    -c model_providers.fakellm.wire_api=responses -c model_providers.fakellm.env_key=FAKE_LLM_API_KEY"
  (
    start=$(date +%s)
    set +e
    echo "A slow review please: is this fine?" | (cd "$WORK/repo" && env -i \
      PATH="$HARNESS/node_modules/.bin:/usr/bin:/bin" HOME="$home" TMPDIR="$home/tmp" TERM=dumb \
      ANTHROPIC_BASE_URL="$URL" ANTHROPIC_API_KEY=sk-ant-fake \
      GEMINI_API_KEY=fake-gemini-key GOOGLE_GEMINI_BASE_URL="$URL" \
      OPENAI_API_KEY=sk-fake OPENAI_BASE_URL="$URL/v1" OPENAI_MODEL=qwen3-coder-plus \
      FAKE_LLM_API_KEY=sk-fake \
      GIT_DEBATE_LAUNCHER=none \
      "$BIN" ask --backend "$cli" --backend-timeout-seconds $((MINUTES * 60 + 600))) \
      > "$WORK/$cli.out" 2> "$WORK/$cli.err"
    echo "$cli: exit $? after $(($(date +%s) - start)) s; answer: $(head -c 80 "$WORK/$cli.out")"
  ) &
  calls+=($!)
done
wait "${calls[@]}"
echo "logs in $WORK"
