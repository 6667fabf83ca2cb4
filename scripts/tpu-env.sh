# Source this on the TPU host (no registry there) to use the project beside the host's own JAX:
#   . scripts/tpu-env.sh
# Wheels the host's index lacks travel in .whl-tpu/ (made on a development machine, see
# docs/accelerator.md); the rest comes from the host's own index ($LOCAL_INDEX). The host's JAX stays
# first on PYTHONPATH.
BASE=$PYTHONPATH
SITE=$(mktemp -d); IDX=$(mktemp -d)
INDEX=${LOCAL_INDEX:-file:///opt/pypi/simple}
env PIP_CONFIG_FILE=/dev/null python3 -m pip install --isolated -q --no-index --no-deps --no-compile \
  --no-cache-dir --upgrade --target "$SITE" .whl-tpu/*.whl || return 1
env PIP_CONFIG_FILE=/dev/null python3 -m pip install --isolated -q --only-binary=:all: --no-compile \
  --index-url "$INDEX" --target "$IDX" flax optax rich pyyaml matplotlib pydantic scipy 2>&1 | grep -v WARN
# rliable's own needs (the report's intervals) come from the host's index, so that .whl-tpu carries
# only what it lacks and the tree stays under the device's 64 MiB. arch must stay 7.x (rliable 1.2
# hands it a RandomState, which arch 8 refuses) and the index holds only 8.0.0, so arch travels in
# .whl-tpu; arch 7.2 needs pandas 2.x.
if ! env PIP_CONFIG_FILE=/dev/null python3 -m pip install --isolated -q --only-binary=:all: \
  --no-compile --no-deps --index-url "$INDEX" --target "$IDX" "pandas>=2.2,<3" \
  statsmodels seaborn patsy pytz tzdata python-dateutil six 2>/dev/null; then
  echo "tpu-env: rliable's needs did not install from the index: training runs, its report does not"
fi
export PYTHONPATH=$BASE:$SITE:$IDX:$PWD
export PYTHONUNBUFFERED=1
