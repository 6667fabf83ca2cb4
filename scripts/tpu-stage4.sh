# On the lent TPU host, inside one device call (at most 10 minutes):
#   . scripts/tpu-env.sh && bash scripts/tpu-stage4.sh SECONDS GAME [GAME...]
# trains each GAME's pixel agents (CleanRL's PPO, 10M steps a seed, 3 seeds vmapped) into /tmp,
# which survives between calls while the machine is held (the working tree does not), stopping
# cleanly before SECONDS have passed; the next call with the same arguments resumes. A finished
# game's policy file and learning curves are copied to $OUT (then commit them under stress/).
# PACK=1: a run paused at the session's last call leaves in pieces through $OUT/carry (one folder a
# seed), to be carried to the next session's machine; see docs/accelerator.md, "Across sessions".
# PROTOCOL=envpool: train in CleanRL's EnvPool env instead of ALE v5 (files named <game>-pixels-envpool).
set -u
BUDGET=${BUDGET:-10M}; SEEDS=${SEEDS:-3}; OBS=${OBS:-pixels}; PROTOCOL=${PROTOCOL:-v5}
END=$((SECONDS + $1)); shift
for GAME in "$@"; do
  STEM=$(python3 -c "from alignment.stress.core import report_name
print(report_name('$GAME', (), '$OBS', '$PROTOCOL'))") || { echo "$GAME: no report name"; break; }
  LEFT=$((END - SECONDS - 40))   # room for the last checkpoint, the export and the copy
  [ "$LEFT" -lt 60 ] && { echo "$GAME: no time left in this call"; continue; }
  MIN=$(python3 -c "print(round($LEFT / 60, 2))")
  python3 -m alignment.stress stress "$GAME" --obs "$OBS" --budget "$BUDGET" --seeds "$SEEDS" \
    --backends jax --out /tmp/stage4 --max-minutes "$MIN" --replace --protocol "$PROTOCOL" \
    --export-policy "/tmp/stage4/$STEM.npz" > "/tmp/stage4-$GAME.log" 2>&1
  rc=$?
  tail -c 400 "/tmp/stage4-$GAME.log" | tr '\r' '\n' | tail -3
  if [ $rc -eq 0 ]; then
    cp "/tmp/stage4/$STEM.npz" "/tmp/stage4/$STEM.json" "$OUT/"
    echo "$GAME: finished, policy and curves in \$OUT"
  elif [ $rc -eq 75 ]; then
    echo "$GAME: paused (resumes in the next call)"
    if [ "${PACK:-0}" = 1 ]; then
      RUN=$(python3 -c "from alignment.learning.checkpoints import checkpoint_root
from alignment.learning.config import budget_config
print(checkpoint_root('/tmp/stage4', '$GAME', budget_config('$BUDGET', '$OBS', '$PROTOCOL')))")
      python3 -m alignment.stress checkpoint-pack "$RUN" "$OUT/carry"
    fi
    break
  else
    echo "$GAME: failed (rc $rc)"; break
  fi
done
