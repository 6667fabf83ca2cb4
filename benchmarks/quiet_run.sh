#!/usr/bin/env bash
# One run, on an otherwise idle machine, of the benchmarks that decide the bars of issues 31 and 32.
#
#   OUT=/some/folder bash benchmarks/quiet_run.sh
#
# What it needs there: Python 3.12 with jax + jaxlib, numpy, flax, optax (and rich) installed; the
# wheels of what else the project needs (gymnasium and its pure-Python dependencies, ale-py) in
# .whl/ at the repository root (how to fetch them: benchmarks/README.md, "Quiet run"). They are
# installed with --target into $SITE, never into the machine's Python.
#
# Every benchmark process is pinned with taskset to its own pair of cores (CORES_PER_JOB), so its
# numbers are those of a 2-core machine like the project's own; the jobs run side by side on
# disjoint pairs to fit the run into a few minutes (they share the memory bus, which each job's
# A/B pairs - stack 1 against 4, old stack against new, xla() against native - share alike).
# Each benchmark runs under its own `timeout`, every script rewrites its JSON after each row, and
# the results are merged into $OUT after each step, so a run cut short keeps what it measured.
#
# Outputs in $OUT (7 files): quiet-run.log, env.json, throughput.json, throughput_old_stack.json,
# consumers.json, dropin.json, summary.md (the bars, met or not).
#
# QUIET_SCALE=tiny makes every size tiny (a dry run of the plumbing, minutes on a laptop);
# QUIET_BUDGET_S is the seconds the benchmark jobs get before they are cut off (default 390);
# QUIET_JOBS names the jobs to run (default all eight: px-a px-b old cons-px-a cons-px-b dropin-pong
# dropin-breakout objects) and QUIET_CONS_OBJECTS_GAMES the games of the objects job's consumers.
set -u
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=${OUT:?set OUT to the folder that receives the results}
WHL=${WHL:-$REPO/.whl}
SITE=${SITE:-/tmp/site}
WORK=${WORK:-/tmp/quiet-run}
SCALE=${QUIET_SCALE:-full}
BUDGET=${QUIET_BUDGET_S:-390}
CORES_PER_JOB=${CORES_PER_JOB:-2}
PY=${PYTHON:-python3}
mkdir -p "$OUT" "$WORK"
rm -f "$WORK"/*.json "$WORK"/*.log  # a previous run's rows are not this run's
LOG="$OUT/quiet-run.log"
: >"$LOG"
say() { echo "[$(date -u +%H:%M:%S)] $*" | tee -a "$LOG"; }

T0=$(date +%s)
say "quiet run: repo $REPO, scale $SCALE, budget ${BUDGET}s, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"

# 1. what the machine lacks, from the carried wheels (no network, no index)
if [ -z "${QUIET_SKIP_INSTALL:-}" ]; then
  if ls "$WHL"/*.whl >/dev/null 2>&1; then
    if timeout 120 "$PY" -m pip install --quiet --no-deps --no-index --disable-pip-version-check \
        --target "$SITE" "$WHL"/*.whl >>"$LOG" 2>&1; then
      say "installed $(ls "$WHL" | wc -l) wheels into $SITE with pip"
    else
      # no pip there: a wheel is a zip of what goes into site-packages (nothing here needs scripts)
      for w in "$WHL"/*.whl; do "$PY" -m zipfile -e "$w" "$SITE" >>"$LOG" 2>&1 || say "WARNING: could not unpack $w"; done
      say "pip failed; unpacked $(ls "$WHL" | wc -l) wheels into $SITE"
    fi
  else
    say "WARNING: no wheels in $WHL: gymnasium/ale-py must already be importable"
  fi
fi
export PYTHONPATH="$REPO:$SITE${EXTRA_PYTHONPATH:+:$EXTRA_PYTHONPATH}"
export JAX_PLATFORMS=cpu
export PYTHONUNBUFFERED=1

# 2. the machine and the versions, and the reduction edge on this jax (fast)
timeout 60 "$PY" - >"$OUT/env.json" 2>>"$LOG" <<'EOF'
import json, os, platform, subprocess
info = {"platform": platform.platform(), "python": platform.python_version(),
        "cpus": os.cpu_count(), "load_at_start": os.getloadavg()}
try:
    info["cpu_model"] = next(l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name"))
    info["mem_total_kib"] = int(next(l.split()[1] for l in open("/proc/meminfo") if l.startswith("MemTotal")))
except Exception as e:  # not Linux: say so, go on
    info["cpu_model"] = f"unknown ({e})"
for mod in ("jax", "jaxlib", "numpy", "flax", "gymnasium", "ale_py", "jaxtari"):
    try:
        m = __import__(mod)
        info[mod] = getattr(m, "__version__", "?") + " at " + os.path.dirname(m.__file__)
    except Exception as e:
        info[mod] = f"NOT IMPORTABLE: {type(e).__name__}: {e}"
print(json.dumps(info, indent=2))
EOF
say "env: $(tr -d '\n' <"$OUT/env.json" | head -c 900)"

NPROC=$(nproc)
JOB=0
DEADLINE=$(( $(date +%s) + BUDGET ))
left() { echo $(( DEADLINE - $(date +%s) )); }

# run_step JOBNAME CAP_S SCRIPT ARGS... : one benchmark under its own timeout (its cap, or what is
# left of the budget), pinned to the job's cores; then the results so far are merged into $OUT
run_step() {
  local name=$1 cap=$2; shift 2
  local t; t=$(left)
  [ "$t" -gt "$cap" ] && t=$cap
  if [ "$t" -lt 10 ]; then say "$name: skipped, the budget is spent: $*"; return; fi
  local PIN="taskset -c $CORES"
  command -v taskset >/dev/null || PIN=""
  if [ -n "$PIN" ]; then say "$name (cores $CORES, ${t}s): $*"; else say "$name (not pinned: no taskset, ${t}s): $*"; fi
  local s0; s0=$(date +%s)
  $PIN timeout -k 5 "$t" "$PY" "$@" >>"$WORK/$name.log" 2>&1
  local rc=$?
  say "$name: exit $rc after $(( $(date +%s) - s0 ))s$([ $rc = 124 ] && echo ' (timed out: rows so far kept)')"
  "$PY" "$REPO/benchmarks/quiet_summary.py" --work "$WORK" --out "$OUT" >>"$WORK/summary.log" 2>&1
}

# job BODY...: the steps of one job, in the background, on the next pair of cores
job() {
  local first=$(( (JOB * CORES_PER_JOB) % NPROC )) last
  last=$(( first + CORES_PER_JOB - 1 )); [ "$last" -ge "$NPROC" ] && last=$(( NPROC - 1 ))
  JOB=$(( JOB + 1 ))
  ( CORES="$first-$last"; "$@" ) &
}

if [ "$SCALE" = tiny ]; then
  GAMES_A="pong"; GAMES_B="freeway"; NPIX="8 16"; NOLD="8"; STEPS=4; REP=1
  CN=8; CPN=4; CSTEPS=2; CROUNDS=1; DN="4"; DSTEPS=4; NOBJ="8"; EDGE_N=16
else
  GAMES_A="pong breakout"; GAMES_B="freeway frostbite"; NPIX="256 1024 64 2048"; NOLD="256 64 1024"
  STEPS=128; REP=3; CN=256; CPN=64; CSTEPS=16; CROUNDS=3; DN="8 64 256"; DSTEPS=100; NOBJ="256 1024 4096"
  EDGE_N=256
fi

B=benchmarks
# issue 32, pixels + stack 4: the current stack and the one before it, best N and the curve; the
# 128-step scan's compile time at N=1024 is in the same rows
px_new() { for g in $1; do run_step "throughput-$g" 190 $B/throughput.py --games $g --modes pixels \
  --n $NPIX --steps $STEPS --repeats $REP --no-ale --no-noop-cost --json "$WORK/throughput-$g.json"; done; }
px_old() { for g in $1; do run_step "oldstack-$g" 95 $B/throughput.py --games $g --modes pixels \
  --n $NOLD --steps $STEPS --repeats $REP --no-ale --no-noop-cost --reference-stack \
  --json "$WORK/oldstack-$g.json"; done; }
# issue 32, stack 4 against stack 1 under every consumer (pixels, then objects)
cons() { for g in $1; do run_step "consumers-$2-$g" 190 $B/consumers.py --games $g --modes $2 \
  --n $CN --policy-n $CPN --steps $CSTEPS --rounds $CROUNDS --json "$WORK/consumers-$2-$g.json"; done; }
# issue 32 item 2 (Freeway objects' best N) and the reduction edge on this jax
objects() {
  run_step reduce-edge 60 $B/reduce_edge.py --n $EDGE_N --json "$WORK/edge.json"
  run_step "throughput-objects-freeway" 150 $B/throughput.py --games freeway --modes objects \
    --n $NOBJ --steps $STEPS --repeats $REP --no-ale --no-noop-cost --json "$WORK/throughput-objects-freeway.json"
}
# issue 31: xla() against native (the bar), then the numpy front-ends and ale-py's vector env
dropin() { for g in $1; do run_step "dropin-$g" 380 $B/dropin.py --games $g --n $DN \
  --steps $DSTEPS --repeats $REP --methods native xla ale-vector gym-vector-objects gym-vector \
  --json "$WORK/dropin-$g.json"; done; }

# QUIET_JOBS picks which jobs run (fewer side by side: less sharing of the memory bus and the cache)
JOBS=${QUIET_JOBS:-px-a px-b old cons-px-a cons-px-b dropin-pong dropin-breakout objects}
CONS_OBJECTS=${QUIET_CONS_OBJECTS_GAMES:-$GAMES_A $GAMES_B}
wanted() { case " $JOBS " in *" $1 "*) return 0;; *) return 1;; esac; }
for j in $JOBS; do
  case $j in px-a|px-b|old|cons-px-a|cons-px-b|dropin-pong|dropin-breakout|objects) ;;
    *) say "ERROR: unknown job '$j' in QUIET_JOBS; jobs are: px-a px-b old cons-px-a cons-px-b dropin-pong dropin-breakout objects"; exit 2;;
  esac
done
say "jobs: $JOBS (objects' consumers: $CONS_OBJECTS)"
wanted px-a && job px_new "$GAMES_A"
wanted px-b && job px_new "$GAMES_B"
wanted old && job px_old "$GAMES_A $GAMES_B"
wanted cons-px-a && job cons "$GAMES_A" pixels
wanted cons-px-b && job cons "$GAMES_B" pixels
wanted dropin-pong && job dropin pong
wanted dropin-breakout && job dropin breakout
wanted objects && job eval 'objects; cons "$CONS_OBJECTS" objects'
wait
"$PY" "$REPO/benchmarks/quiet_summary.py" --work "$WORK" --out "$OUT" --final >>"$LOG" 2>&1
for f in "$WORK"/*.log; do echo "===== $(basename "$f")" >>"$LOG"; tail -c 20000 "$f" >>"$LOG"; done
say "done in $(( $(date +%s) - T0 ))s, load $(cut -d' ' -f1-3 /proc/loadavg); results in $OUT"
