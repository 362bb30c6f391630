#!/bin/sh
# restart.sh PID_FILE ADDR DB TOKEN LOG: stops the running land service and starts it again.
set -eu
PID_FILE=$1 ADDR=$2 DB=$3 TOKEN=$4 LOG=$5
PYTHON=${PYTHON:-python3}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
export PYTHONPATH="$ROOT${PYTHONPATH:+:$PYTHONPATH}"
if [ -f "$PID_FILE" ]; then
  PID=$(cat "$PID_FILE")
  kill "$PID" 2>/dev/null || true
  i=0
  while kill -0 "$PID" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
fi
nohup "$PYTHON" -m examples.gitm_land7 --addr "$ADDR" --db "$DB" --token "$TOKEN" \
  --pid-file "$PID_FILE" >>"$LOG" 2>&1 &
