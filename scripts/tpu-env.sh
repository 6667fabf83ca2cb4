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
# pandas (for rliable's report) comes from the host's index where .whl-tpu leaves it out, which keeps
# the carried tree under the device's 64 MiB; arch 7.2 needs a 2.x
ls .whl-tpu/pandas-*.whl >/dev/null 2>&1 || env PIP_CONFIG_FILE=/dev/null python3 -m pip install \
  --isolated -q --only-binary=:all: --no-compile --no-deps --index-url "$INDEX" --target "$IDX" \
  "pandas>=2.2,<3" 2>&1 | grep -v WARN
export PYTHONPATH=$BASE:$SITE:$IDX:$PWD
export PYTHONUNBUFFERED=1
