#!/bin/bash
# gnnpart generate killed by SIGTERM / SIGINT while R-MAT bucket files and the temporary output
# exist leaves no file behind (io/signal_cleanup.h). Usage: signal_cleanup.sh GNNPART
set -u
gnnpart=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for sig in TERM INT; do
  # 10^7 edges in buckets of at most 1 MiB: hundreds of scratch files for several seconds.
  "$gnnpart" generate rmat --vertices 1000000 --edges 10000000 --seed 1 --memory-limit 1 \
    --temp-dir "$dir" -o "$dir/out.bin" > /dev/null 2>&1 &
  pid=$!
  for _ in $(seq 600); do # up to 30 s for the first bucket files
    [ "$(find "$dir" -name 'gnnpart-rmat-bucket-*' | wc -l)" -ge 2 ] && break
    sleep 0.05
  done
  made=$(find "$dir" -type f | wc -l)
  kill -"$sig" "$pid"
  wait "$pid"
  code=$?
  left=$(find "$dir" -type f | wc -l)
  echo "SIG$sig: $made files before, exit $code, $left left"
  if [ "$made" -lt 2 ]; then echo "FAIL: no scratch files appeared"; exit 1; fi
  if [ "$code" -lt 128 ]; then echo "FAIL: finished before the signal (exit $code)"; exit 1; fi
  if [ "$left" -ne 0 ]; then find "$dir" -type f; echo "FAIL: files left behind"; exit 1; fi
done
echo PASS
