#!/usr/bin/env bash
# CTest steps of gnnpart-mpi (registered in tests/distributed/tests.cmake). Environment: GNNPART,
# GNNPART_MPI, EVALPART, PYTHON, SHARED_DIR, WORK (scratch directory).
#   test_driver.sh partition NAME K FORMAT P...   partition on P ranks (gz, plain, metis,
#       metisgz or bin input): valid, within the bound, no empty block, metrics equal to evalpart's,
#       the same file on a second run (written over an existing file, no temporary left), and
#       the same lines through a FIFO and "-" (written directly, the FIFO left in place)
#   test_driver.sh balance NAME K FORMAT P...   as partition, with the coarsest partition under
#       a looser bound (--initial-epsilon 1): the distributed balancer must have moved vertices
#       and the result must still be within the bound (evalpart's block sizes)
#   test_driver.sh volume NAME K FORMAT P...   as partition, with --objective volume, on seeds
#       5, 6 and 7: the distributed volume pass never raises the communication volume
#       (volume_refinement_gain >= 0 on every run) and lowers it on at least one seed of every
#       P; the volume must be evalpart's
#   test_driver.sh jet NAME K FORMAT P...   as partition: the Jet pass must have lowered the
#       finest level's cut (jet_cut_gain > 0); also with --jet-rounds 0 (no gain, still valid)
#   test_driver.sh gathered NAME K FORMAT P...   as partition, with every coarse level copied
#       and refined by the shared-memory engine (--gather-fraction 1; gathered_levels > 0)
#   test_driver.sh layout NAME K P...   --layout written by the ranks: the same files as
#       `gnnpart layout` writes for the same partition
#   test_driver.sh malformed FORMAT P...   a bad line in the middle of the last rank's slice:
#       the error line of `gnnpart partition`, non-zero exit on every rank, no output left;
#       also with text pieces of 1 KiB (--chunk-items 64), so line numbers cross many pieces
#   test_driver.sh chunks NAME K FORMAT P...   tiny chunks (--chunk-items 300: text pieces of
#       4800 bytes, binary blocks of 300 records, coarse edges routed 300 fine edges at a time)
#       give the same partition file as the default chunks, in many exchange rounds
#   test_driver.sh keeplevels NAME K FORMAT P...   the coarse levels spilled to scratch files
#       during the initial partitioning (and, with --gather-fraction 1, around every gathered
#       refinement) and read back (the default) give the partition file of --keep-levels, on a
#       graph with several levels, and leave no file in --temp-dir
#   test_driver.sh spill NAME K FORMAT P...   the finest graph's adjacency in a scratch file
#       (--temp-dir) gives the partition of --keep-levels (in memory) and leaves no file; a
#       missing --temp-dir gives one error line, every rank fails and no output is left; a graph
#       that is not coarsened never uses it
#   test_driver.sh weights NAME K P...   the METIS graph with every edge weighing 2^33 (coarse
#       edge weights past 32 bits: the 64-bit path of the contraction): deterministic, valid,
#       evalpart's cut of the unweighted graph and 2^33 times it as the weighted cut
#   test_driver.sh textrules FORMAT P...   io's text-input rules (io/text_input.h) on the split
#       and scattered input: a leading UTF-8 BOM is skipped (the same partition as without it),
#       a NUL byte gives the binary-input error line of `gnnpart partition`, no output left
# Binary inputs are R-MAT edge streams: NAME rmat (20000 vertices, 120000 edges) or rmat-small
# (5000 and 30000: for the chunks step, whose many rounds are each a collective of all ranks).
set -euo pipefail
step=$1
shift
# Converted inputs are shared by all steps; outputs go to a directory of the step's own, as
# ctest -j runs steps side by side (two textrules steps once compared each other's files).
cache=$WORK
WORK=$cache/$step.$(IFS=.; echo "$*")
mkdir -p "$WORK"
root=()
[ "$(id -u)" = 0 ] && root=(--allow-run-as-root)
mpi() {  # mpi P ARGS...: gnnpart-mpi on P ranks; stderr of the ranks in $WORK/stderr
  local p=$1
  shift
  OMPI_MCA_mpi_yield_when_idle=1 timeout 120 mpirun -np "$p" --oversubscribe "${root[@]}" \
    "$GNNPART_MPI" "$@"
}

# same_result P BASE WHAT FLAG...: `partition "${run[@]}"` gives the same partition file with
# FLAG... as without them (the default run's JSON, with the memory trace, in BASE.json).
same_result() {
  local p=$1 base=$2 what=$3
  shift 3
  mpi "$p" partition "${run[@]}" -o "$base.default" --json "$base.json" --memory-trace --quiet
  mpi "$p" partition "${run[@]}" "$@" -o "$base.variant" --quiet
  cmp "$base.default" "$base.variant" || { echo "P=$p: $what changed the result" >&2; exit 1; }
}

# expect_error FILE P: gnnpart-mpi on P ranks fails on FILE with the error line of
# `gnnpart partition` (checked to name LINE $3 when given), on every rank, leaving no output.
expect_error() {
  local bad=$1 p=$2 line=${3:-} expected got
  shift $(($# < 3 ? $# : 3))
  expected=$("$GNNPART" partition "$bad" -k 4 -o "$WORK/bad.ref.part" 2>&1 >/dev/null || true)
  case $expected in *":$line: "*) ;; *) echo "unexpected reference: $expected" >&2; exit 1 ;; esac
  rm -f "$WORK/bad.part"
  if mpi "$p" partition "$bad" -k 4 -o "$WORK/bad.part" "$@" 2> "$WORK/bad.stderr"; then
    echo "P=$p: $bad accepted" >&2
    exit 1
  fi
  got=$(grep "^gnnpart: error:" "$WORK/bad.stderr" || true)
  [ "$got" = "$expected" ] || { echo "P=$p: '$got' != '$expected'" >&2; exit 1; }
  if ls "$WORK"/bad.part* 2>/dev/null | grep -q .; then
    echo "P=$p: output left behind" >&2
    exit 1
  fi
  echo "P=$p: $got"
}

# rmat_args NAME: gnnpart generate's arguments for the binary input NAME.
rmat_args() {
  case $1 in
  rmat) echo "--vertices 20000 --edges 120000 --seed 3" ;;
  rmat-small) echo "--vertices 5000 --edges 30000 --seed 3" ;;
  *) echo "no binary input named $1" >&2; exit 1 ;;
  esac
}

# input NAME FORMAT: the dataset in that format (converted once into $cache).
input() {
  local name=$1 format=$2 gz="$SHARED_DIR/datasets/$1.edges.gz"
  case $format in
  gz) echo "$gz" ;;
  plain) [ -f "$cache/$name.edges" ] || { zcat "$gz" > "$WORK/$name.edges.tmp" &&
           mv "$WORK/$name.edges.tmp" "$cache/$name.edges"; }  # whole or absent for the others
         echo "$cache/$name.edges" ;;
  metis) [ -f "$cache/$name.graph" ] || "$GNNPART" convert "$gz" "$cache/$name.graph" --quiet
         echo "$cache/$name.graph" ;;
  metisgz) local graph
           graph=$(input "$name" metis)
           [ -f "$graph.gz" ] || { gzip -c "$graph" > "$WORK/$name.graph.gz.tmp" &&
                                   mv "$WORK/$name.graph.gz.tmp" "$graph.gz"; }
           echo "$graph.gz" ;;
  bin) [ -f "$cache/$name.bin" ] || "$GNNPART" generate rmat $(rmat_args "$name") \
         -o "$cache/$name.bin" --quiet
       echo "$cache/$name.bin" ;;
  esac
}

case $step in
partition | balance | volume | jet | nojet | gathered)
  name=$1 k=$2 format=$3
  extra=()
  # The distributed balancer, not the shared-memory engine's on a gathered level, must do it.
  [ "$step" = balance ] && extra=(--initial-epsilon 1 --gather-fraction 0)
  [ "$step" = gathered ] && extra=(--gather-fraction 1)
  [ "$step" = volume ] && extra=(--objective volume)
  [ "$step" = nojet ] && extra=(--jet-rounds 0)
  shift 3
  graph=$(input "$name" "$format")
  evalgraph=$graph
  if [ "$format" = bin ]; then  # evalpart reads text: the same edges as an edge list
    evalgraph="$WORK/$name.bin.edges"
    [ -f "$evalgraph" ] || "$GNNPART" generate rmat $(rmat_args "$name") -o "$evalgraph" --quiet
  fi
  # The volume pass never raises the volume, but whether it finds a gain depends on the exact
  # partition it starts from: its step runs three seeds and requires a gain on one of them.
  seeds=(5)
  [ "$step" = volume ] && seeds=(5 6 7)
  for p in "$@"; do
    gained=0
    for seed in "${seeds[@]}"; do
      base="$WORK/$name.$format.$k.$p.$seed"
      # A small coarsest graph, so that the distributed levels run on these small graphs too.
      run=("$graph" -k "$k" --seed "$seed" --coarse-per-block 100 --coarse-min 500 "${extra[@]}")
      mpi "$p" partition "${run[@]}" -o "$base.part" --json "$base.json" --quiet
      if [ "$seed" = "${seeds[0]}" ]; then
        # Over an existing file (io::replace_file swaps it out): replaced, no temporary left.
        echo stale > "$base.again"
        mpi "$p" partition "${run[@]}" -o "$base.again" --quiet
        cmp "$base.part" "$base.again" || { echo "P=$p: not deterministic" >&2; exit 1; }
        if ls "$base.again".* 2>/dev/null | grep -q .; then
          echo "P=$p: a temporary file left beside the replaced output" >&2
          exit 1
        fi
      fi
      if [ "$step" = partition ] && [ "$seed" = "${seeds[0]}" ]; then
        # A FIFO and "-" take the ranks' lines from rank 0 in rank order and are never renamed
        # over (a rename would replace a device such as /dev/null with a regular file).
        fifo="$WORK/$name.$format.$k.$p.fifo"
        rm -f "$fifo"
        mkfifo "$fifo"
        timeout 120 cat "$fifo" > "$base.fifo.out" &
        reader=$!
        mpi "$p" partition "${run[@]}" -o "$fifo" --quiet
        wait "$reader"
        [ -p "$fifo" ] || { echo "P=$p: the FIFO was replaced by a file" >&2; exit 1; }
        rm -f "$fifo"
        cmp "$base.part" "$base.fifo.out" || { echo "P=$p: the FIFO's lines differ" >&2; exit 1; }
        mpi "$p" partition "${run[@]}" -o - --quiet > "$base.stdout.out"
        cmp "$base.part" "$base.stdout.out" || { echo "P=$p: stdout's lines differ" >&2; exit 1; }
      fi
      n_arg=()
      [ "$format" = bin ] && n_arg=(--n "$(rmat_args "$name" | awk '{ print $2 }')")
      "$EVALPART" "${n_arg[@]}" -k "$k" "$evalgraph" "$base.part" > "$base.eval.json"
      echo 0 > "$base.gain"
      "$PYTHON" - "$base.json" "$base.eval.json" "$k" "$p" "$step" "$base.gain" <<'PY'
import json, math, sys
ours, ref = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
k, p = int(sys.argv[3]), sys.argv[4]
if sys.argv[5] == "balance":
    assert ours["balance_moves"] > 0, f"P={p}: the balancer had no work"
    print(f"P={p}: the balancer moved {ours['balance_moves']} vertices")
if sys.argv[5] == "volume":
    assert ours["objective"] == "volume"
    gain = ours["volume_refinement_gain"]
    assert gain >= 0, f"P={p}: the volume pass raised the volume by {-gain}"
    open(sys.argv[6], "w").write(f"{gain}\n")
    print(f"P={p}: the volume pass removed {gain} of the volume")
if sys.argv[5] == "jet":
    assert ours["jet_cut_gain"] > 0, f"P={p}: Jet gained nothing"
    print(f"P={p}: Jet removed {ours['jet_cut_gain']} cut edges on the finest level")
if sys.argv[5] == "gathered":
    assert ours["gathered_levels"] > 0, f"P={p}: no level was refined as a copy"
    print(f"P={p}: {ours['gathered_levels']} coarse levels refined as copies")
if sys.argv[5] == "nojet":
    assert ours["jet_cut_gain"] == 0, f"P={p}: Jet ran with --jet-rounds 0"
for key in ("n", "m", "k", "edge_cut", "comm_volume", "max_send_volume", "max_recv_volume",
            "num_comm_pairs", "boundary_vertices", "empty_blocks"):
    assert ours[key] == ref[key], f"P={p}: {key} {ours[key]} != evalpart's {ref[key]}"
assert abs(ours["imbalance_vertices"] - ref["imbalance_vertices"]) < 1e-6
bound = math.floor(1.03 * math.ceil(ref["n"] / k))
assert ref["max_block_size"] <= bound, f"P={p}: block of {ref['max_block_size']} > {bound}"
assert ref["empty_blocks"] == 0 and ref["min_block_size"] > 0
print(f"P={p}: edge cut {ours['edge_cut']}, comm volume {ours['comm_volume']}, "
      f"max block {ref['max_block_size']} <= {bound}")
PY
      gained=$((gained + $(cat "$base.gain")))
    done
    if [ "$step" = volume ] && [ "$gained" -le 0 ]; then
      echo "P=$p: the volume pass gained nothing on seeds ${seeds[*]}" >&2
      exit 1
    fi
  done
  ;;
chunks)
  name=$1 k=$2 format=$3
  shift 3
  graph=$(input "$name" "$format")
  for p in "$@"; do
    run=("$graph" -k "$k" --seed 5 --coarse-per-block 100 --coarse-min 500)
    same_result "$p" "$WORK/$name.chunks.$format.$k.$p" "the chunk size" --chunk-items 300
    echo "P=$p: the same partition with chunks of 300 items"
  done
  ;;
keeplevels)
  name=$1 k=$2 format=$3
  shift 3
  graph=$(input "$name" "$format")
  for p in "$@"; do
    base="$WORK/$name.keeplevels.$format.$k.$p"
    rm -rf "$base.tmp" && mkdir -p "$base.tmp"
    run=("$graph" -k "$k" --seed 5 --coarse-per-block 20 --coarse-min 200 --temp-dir "$base.tmp")
    same_result "$p" "$base" "keeping the levels" --keep-levels
    levels=$("$PYTHON" -c 'import json, sys
print(sum(p["phase"] == "restore" for p in json.load(open(sys.argv[1]))["memory_trace"]))' "$base.json")
    [ "$levels" -ge 2 ] || { echo "P=$p: $levels levels read back, expected >= 2" >&2; exit 1; }
    [ -z "$(ls -A "$base.tmp")" ] || { echo "P=$p: scratch files left in --temp-dir" >&2; exit 1; }
    echo "P=$p: the same partition with $levels levels spilled and read back"
    # Every coarse level refined as a copy, the finer levels freed meanwhile.
    run+=(--gather-fraction 1)
    same_result "$p" "$base.gathered" "keeping the levels (gathered refinement)" --keep-levels
    gathered=$("$PYTHON" -c 'import json, sys
print(sum(p["phase"] == "gathered" for p in json.load(open(sys.argv[1]))["memory_trace"]))' "$base.gathered.json")
    [ "$gathered" -ge 2 ] || { echo "P=$p: $gathered levels gathered, expected >= 2" >&2; exit 1; }
    [ -z "$(ls -A "$base.tmp")" ] || { echo "P=$p: scratch files left in --temp-dir" >&2; exit 1; }
    echo "P=$p: the same partition with the finer levels spilled around $gathered gathered levels"
  done
  ;;
spill)
  name=$1 k=$2 format=$3
  shift 3
  graph=$(input "$name" "$format")
  for p in "$@"; do
    base="$WORK/$name.spill.$format.$k.$p"
    # The finest graph's adjacency waits in --temp-dir while the coarse levels are worked on:
    # the same partition as with it in memory (--keep-levels), and the file is gone after.
    rm -rf "$base.tmp" && mkdir -p "$base.tmp"
    run=("$graph" -k "$k" --seed 5 --coarse-per-block 20 --coarse-min 200 --temp-dir "$base.tmp")
    same_result "$p" "$base" "the spilled adjacency" --keep-levels
    [ -z "$(ls -A "$base.tmp")" ] || { echo "P=$p: scratch files left in --temp-dir" >&2; exit 1; }
    # A directory that cannot hold it: one error line, every rank fails, no output left.
    rm -f "$base.bad.part"*
    if mpi "$p" partition "${run[@]:0:9}" --temp-dir "$base.none" -o "$base.bad.part" \
      2> "$base.stderr"; then
      echo "P=$p: a missing --temp-dir was accepted" >&2
      exit 1
    fi
    got=$(grep -c "^gnnpart: error: $base.none: cannot create a scratch file" \
      "$base.stderr" || true)
    [ "$got" = 1 ] || { echo "P=$p: expected one error line:" >&2; cat "$base.stderr" >&2; exit 1; }
    if ls "$base".bad.part* 2>/dev/null | grep -q .; then
      echo "P=$p: output left behind" >&2
      exit 1
    fi
    # A graph that is not coarsened keeps its adjacency in memory: --temp-dir is not used.
    mpi "$p" partition "$(input cora plain)" -k 4 --temp-dir "$base.none" -o "$base.cora.part" \
      --quiet
    echo "P=$p: the same partition with the adjacency spilled; missing --temp-dir reported"
  done
  ;;
layout)
  name=$1 k=$2
  shift 2
  graph=$(input "$name" plain)
  for p in "$@"; do
    base="$WORK/$name.layout.$k.$p"
    rm -rf "$base" "$base.ref"
    mpi "$p" partition "$graph" -k "$k" -o "$base.part" --layout "$base" --quiet
    "$GNNPART" layout "$graph" "$base.part" -o "$base.ref" --objective cut > /dev/null
    diff -r "$base" "$base.ref" || { echo "P=$p: layouts differ" >&2; exit 1; }
    echo "P=$p: layout of $k blocks equal to gnnpart layout's ($(ls "$base" | wc -l) entries)"
  done
  ;;
malformed)
  format=$1
  shift
  case $format in
  plain)
    src=$(input cora plain)
    bad="$WORK/cora.bad.edges"
    ;;
  metis)
    src=$(input cora metis)
    bad="$WORK/cora.bad.graph"
    ;;
  gz)
    src=$(input cora plain)
    bad="$WORK/cora.bad.edges.gz"
    ;;
  esac
  for p in "$@"; do
    # The line whose first byte lies in the middle of the last rank's byte range.
    size=$(stat -c %s "$src")
    target=$(( size * (2 * p - 1) / (2 * p) ))
    line=$(head -c "$target" "$src" | wc -l)
    line=$((line + 1))
    if [ "$format" = metis ]; then
      awk -v l="$line" 'NR == l { print $0 " 9x"; next } { print }' "$src" > "${bad%.gz}"
    else
      awk -v l="$line" 'NR == l { print $1 " x" $2; next } { print }' "$src" > "${bad%.gz}"
    fi
    [ "$format" = gz ] && gzip -f "${bad%.gz}"
    expect_error "$bad" "$p" "$line"
    expect_error "$bad" "$p" "$line" --chunk-items 64
  done
  ;;
textrules)
  format=$1
  shift
  case $format in
  metis) src=$(input cora metis); ext=graph ;;
  *) src=$(input cora plain); ext=edges ;;
  esac
  # The NUL byte at the end of line 10, inside the first 64 KiB that io sniffs.
  "$PYTHON" - "$src" "$WORK/cora.bom.$ext" "$WORK/cora.nul.$ext" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
open(sys.argv[2], "wb").write(b"\xef\xbb\xbf" + data)
lines = data.split(b"\n")
lines[9] += b"\x00"
open(sys.argv[3], "wb").write(b"\n".join(lines))
PY
  bom="$WORK/cora.bom.$ext" nul="$WORK/cora.nul.$ext" plain=$src
  if [ "$format" = gz ]; then
    gzip -f "$bom" "$nul"
    gzip -c "$src" > "$WORK/cora.plain.$ext.gz"
    bom=$bom.gz nul=$nul.gz plain="$WORK/cora.plain.$ext.gz"
  fi
  for p in "$@"; do
    mpi "$p" partition "$plain" -k 4 --seed 5 --coarse-per-block 100 --coarse-min 500 \
      -o "$WORK/textrules.plain.part" --quiet
    mpi "$p" partition "$bom" -k 4 --seed 5 --coarse-per-block 100 --coarse-min 500 \
      -o "$WORK/textrules.bom.part" --quiet
    cmp "$WORK/textrules.plain.part" "$WORK/textrules.bom.part" ||
      { echo "P=$p: the BOM changed the partition" >&2; exit 1; }
    echo "P=$p: BOM skipped"
    expect_error "$nul" "$p" 10
  done
  ;;
weights)
  name=$1 k=$2
  shift 2
  src=$(input "$name" metis)
  heavy="$WORK/$name.heavy.graph"
  awk '/^%/ { next }
    !header { print $1, $2, "001"; header = 1; next }
    { line = ""; for (i = 1; i <= NF; ++i) line = line (i > 1 ? " " : "") $i " 8589934592"
      print line }' "$src" > "$heavy"
  for p in "$@"; do
    base="$WORK/$name.heavy.$k.$p"
    mpi "$p" partition "$heavy" -k "$k" --seed 5 --coarse-per-block 100 --coarse-min 500 \
      -o "$base.part" --json "$base.json" --quiet
    mpi "$p" partition "$heavy" -k "$k" --seed 5 --coarse-per-block 100 --coarse-min 500 \
      -o "$base.again" --quiet
    cmp "$base.part" "$base.again" || { echo "P=$p: not deterministic" >&2; exit 1; }
    "$EVALPART" -k "$k" "$src" "$base.part" > "$base.eval.json"
    "$PYTHON" - "$base.json" "$base.eval.json" "$k" "$p" <<'PY'
import json, math, sys
ours, ref = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
k, p = int(sys.argv[3]), sys.argv[4]
for key in ("n", "m", "edge_cut", "comm_volume", "boundary_vertices", "empty_blocks"):
    assert ours[key] == ref[key], f"P={p}: {key} {ours[key]} != evalpart's {ref[key]}"
assert ours["weighted_edge_cut"] == ref["edge_cut"] * 2**33, f"P={p}: weighted cut"
bound = math.floor(1.03 * math.ceil(ref["n"] / k))
assert ref["max_block_size"] <= bound and ref["min_block_size"] > 0
print(f"P={p}: edges of weight 2^33: cut {ref['edge_cut']}, weighted cut "
      f"{ours['weighted_edge_cut']}, max block {ref['max_block_size']} <= {bound}")
PY
  done
  ;;
usage)
  # A mistyped command or flag is named in one line by rank 0, exit 2 on every rank: CLI11
  # reports missing required arguments first, which hid the typo.
  for p in "$@"; do
    for args in "partitoin g -k 2" "partition --no-such-flag" "partition g --no-such-flag"; do
      set +e
      mpi "$p" $args 2> "$WORK/usage.stderr"
      code=$?
      set -e
      [ "$code" = 2 ] || { echo "P=$p '$args': exit $code, not 2" >&2; exit 1; }
      lines=$(grep -c "^gnnpart: error: " "$WORK/usage.stderr" || true)
      case $args in
      partitoin*) want="unknown command 'partitoin'" ;;
      *) want="not expected: --no-such-flag" ;;
      esac
      if [ "$lines" != 1 ] || ! grep -q "$want" "$WORK/usage.stderr"; then
        echo "P=$p '$args': expected one line naming $want:" >&2
        cat "$WORK/usage.stderr" >&2
        exit 1
      fi
    done
    echo "P=$p: a mistyped command or flag is named"
  done
  ;;
esac
