#!/bin/sh
# restart.sh PID_FILE ADDR DB TOKEN LOG: stop the service by its pid file, start it again.
set -eu
PID_FILE=$1 ADDR=$2 DB=$3 TOKEN=$4 LOG=$5
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
PY=${PYTHON:-/work/main/.venv/bin/python}
if [ -f "$PID_FILE" ]; then
  PID=$(cat "$PID_FILE")
  if kill "$PID" 2>/dev/null; then
    # wait until that process (and only it) is gone, so the port is free again
    for _ in $(seq 1 100); do kill -0 "$PID" 2>/dev/null || break; sleep 0.1; done
  fi
  rm -f "$PID_FILE"
fi
cd "$ROOT"
PYTHONPATH="$ROOT${PYTHONPATH:+:$PYTHONPATH}" nohup "$PY" -m examples.gitm_land8 \
  --addr "$ADDR" --db "$DB" --token "$TOKEN" --pid-file "$PID_FILE" >>"$LOG" 2>&1 &
# return once the new process has written its pid file (it is listening then)
for _ in $(seq 1 100); do [ -s "$PID_FILE" ] && exit 0; sleep 0.1; done
echo "the land service did not start; see $LOG" >&2
exit 1
