# Source after scripts/tpu-env.sh on the lent TPU host:
#   . scripts/tpu-env.sh && . scripts/tpu-upstream.sh
# makes $UPSTREAM_PYTHON, a Python that imports upstream jaxtari 0.2.0 (package jaxatari) beside
# the host's own JAX, for `benchmarks/throughput.py --upstream-python "$UPSTREAM_PYTHON"`.
# Its wheels travel in an ignored .whl-up/ folder made on a development machine
# (docs/accelerator.md). The wrapper leaves this checkout off its path: both projects are
# imported as `jaxtari`.
UPSITE=$(mktemp -d)
env PIP_CONFIG_FILE=/dev/null python3 -m pip install --isolated -q --no-index --no-deps --no-compile \
  --no-cache-dir --target "$UPSITE" .whl-up/*.whl || return 1
UPSTREAM_PYTHON=$(mktemp -d)/python
printf '#!/bin/sh\nPYTHONPATH=%s exec python3 "$@"\n' "$BASE:$UPSITE:$SITE:$IDX" > "$UPSTREAM_PYTHON"
chmod +x "$UPSTREAM_PYTHON"
export UPSTREAM_PYTHON
