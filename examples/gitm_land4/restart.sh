#!/bin/sh
# Restarts the land service for the kit's durability row (L16):
# (PYTHON names the interpreter, default python3)
#   restart.sh PID_FILE ADDR DB TOKEN LOG
# Stops the process named by PID_FILE, waits for it to end, starts it again in the
# background with the same store, and returns; the kit then waits for it to answer.
set -eu
pid_file=$1 addr=$2 db=$3 token=$4 log=$5
here=$(cd "$(dirname "$0")/../.." && pwd)
if [ -s "$pid_file" ]; then
  pid=$(cat "$pid_file")
  kill "$pid" 2>/dev/null || true
  n=0
  while kill -0 "$pid" 2>/dev/null && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
fi
cd "$here"
PYTHONPATH="$here" nohup "${PYTHON:-python3}" -m examples.gitm_land4 \
  --addr "$addr" --db "$db" --token "$token" --pid-file "$pid_file" >>"$log" 2>&1 &
