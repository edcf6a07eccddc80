#!/usr/bin/env bash
# Fails when a kahve binary defines a flag that docs/configuration.md does not list as `--name`.
# Usage: check_flags_documented.sh DOC BINARY...
set -euo pipefail
doc="$1"
shift
missing=0
for binary in "$@"; do
  # --helpfull groups flags under "Flags from FILE:"; only kahve's own files count.
  help=$("$binary" --helpfull 2>&1 || true)  # --helpfull exits non-zero by design
  flags=$(printf '%s\n' "$help" | awk '
    /^  Flags from / { ours = ($0 ~ /(services|tools\/kahve|engine)\//) }
    ours && /^    --/ { name = $1; sub(/^--/, "", name); print name }')
  [ -n "$flags" ] || { echo "$binary: no flags found in --helpfull"; missing=1; }
  for flag in $flags; do
    if ! grep -qF -- "\`--$flag\`" "$doc"; then
      echo "$(basename "$binary"): --$flag is not documented in $doc"
      missing=1
    fi
  done
done
[ "$missing" -eq 0 ] && echo "every flag of $# binaries is documented"
exit "$missing"
