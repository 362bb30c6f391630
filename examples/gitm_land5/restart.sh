#!/bin/sh
# Restart the land service for the kit's L16: stop the process in PIDFILE, start it again.
# usage: restart.sh ADDR DB TOKEN PIDFILE LOGFILE   (run from the worktree's root)
# (PYTHON names the interpreter, default python3)
set -eu
addr=$1 db=$2 token=$3 pidfile=$4 log=$5
if [ -s "$pidfile" ]; then
  pid=$(cat "$pidfile")
  kill "$pid" 2>/dev/null || true
  i=0
  while kill -0 "$pid" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
fi
PYTHONPATH=. nohup "${PYTHON:-python3}" -m examples.gitm_land5 --addr "$addr" --db "$db" \
  --token "$token" --pidfile "$pidfile" >>"$log" 2>&1 &
i=0
while [ $i -lt 100 ]; do
  if [ -s "$pidfile" ] && [ "$(cat "$pidfile")" != "${pid:-}" ]; then exit 0; fi
  sleep 0.1; i=$((i + 1))
done
exit 0
