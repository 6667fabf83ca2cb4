# The device machine takes the working tree with each call (tracked files, untracked files git does
# not ignore, and the carried paths), at most 64 MiB. The committed pixel policies (~9.4 MB each)
# pass that once there are five of them beside .whl-tpu. Around device calls that need none of
# them (or only those named):
#   bash scripts/device-tree.sh light [KEEP...]   # out of the index, ignored; the files stay
#   ... device calls ...
#   bash scripts/device-tree.sh restore           # back in the index as HEAD has them
#   bash scripts/device-tree.sh size [CARRY...]   # what would travel, in bytes
# KEEP: policy file names to leave in (e.g. freeway-pixels.npz, for a robustness run there).
# Commit nothing between light and restore: a commit would record the policies deleted. light
# refuses to start with changes staged, restore refuses when a policy file is not HEAD's.
set -eu
cd "$(git rev-parse --show-toplevel)"
BEGIN="# device-tree.sh light: begin"
END="# device-tree.sh light: end"
EXCLUDE=$(git rev-parse --git-path info/exclude)
POLICIES=stress/policies

travelling() {
  { git ls-files -z; git ls-files -z --others --exclude-standard; } \
    | xargs -0 -r du -cb 2>/dev/null | tail -1 | cut -f1
}

case "${1:-}" in
  light)
    shift
    if ! git diff --cached --quiet; then
      echo "device-tree: changes are staged; commit or unstage them first (a commit between" \
           "light and restore would record the policies deleted)" >&2
      exit 2
    fi
    if grep -qF "$BEGIN" "$EXCLUDE" 2>/dev/null; then
      echo "device-tree: already light (run restore first)" >&2
      exit 2
    fi
    out=()
    while IFS= read -r f; do
      keep=0
      for k in "$@"; do [ "$(basename "$f")" = "$k" ] && keep=1; done
      [ "$keep" = 1 ] || out+=("$f")
    done < <(git ls-files "$POLICIES/*-pixels.npz")
    [ ${#out[@]} -gt 0 ] || { echo "device-tree: no pixel policy to leave out"; exit 0; }
    git rm -q --cached -- "${out[@]}"
    mkdir -p "$(dirname "$EXCLUDE")"
    { echo "$BEGIN"; printf '/%s\n' "${out[@]}"; echo "$END"; } >> "$EXCLUDE"
    echo "device-tree: ${#out[@]} policies left out; $(travelling) bytes travel besides the carried"
    ;;
  restore)
    if [ -f "$EXCLUDE" ]; then
      sed -i "\|^$BEGIN\$|,\|^$END\$|d" "$EXCLUDE"
    fi
    git reset -q -- "$POLICIES"
    if ! git diff --quiet HEAD -- "$POLICIES"; then
      echo "device-tree: a policy file is not HEAD's:" >&2
      git diff --stat HEAD -- "$POLICIES" >&2
      exit 1
    fi
    echo "device-tree: restored; $(travelling) bytes travel besides the carried"
    ;;
  size)
    shift
    extra=0
    for c in "$@"; do extra=$((extra + $(du -cb "$c" | tail -1 | cut -f1))); done
    total=$(( $(travelling) + extra ))
    echo "$total bytes of $((64 * 1024 * 1024)) would travel"
    [ "$total" -le $((64 * 1024 * 1024)) ]
    ;;
  *)
    echo "usage: bash scripts/device-tree.sh light [KEEP...] | restore | size [CARRY...]" >&2
    exit 2
    ;;
esac
