#!/usr/bin/env bash
# Fails when a kahve binary defines a flag that docs/configuration.md does not list as `--name`,
# or a budget flag (`--max_*`) that the resource inventory (docs/operations.md, section 8) does
# not name as `max_...`: a new kind of resource lands with its row there. A BINARY ending in .js
# is a Node.js program (the gateway): its flags are the `  --name (` lines of its --help.
# Usage: check_flags_documented.sh CONFIG_DOC OPERATIONS_DOC BINARY...
set -euo pipefail
doc="$1"
operations="$2"
shift 2
# Section 8 alone, from its heading to the next section's.
inventory=$(awk '/^## 8\./ { on = 1; next } /^## [0-9]+\./ { on = 0 } on' "$operations")
[ -n "$inventory" ] || { echo "$operations: no section 8"; exit 1; }
missing=0
for binary in "$@"; do
  if [[ "$binary" == *.js ]]; then
    flags=$(node "$binary" --help 2>&1 | sed -n 's/^  --\([a-z0-9_]*\) (.*/\1/p')
  else
    # --helpfull groups flags under "Flags from FILE:"; only kahve's own files count.
    help=$("$binary" --helpfull 2>&1 || true)  # --helpfull exits non-zero by design
    flags=$(printf '%s\n' "$help" | awk '
      /^  Flags from / { ours = ($0 ~ /(services|tools\/kahve|engine)\//) }
      ours && /^    --/ { name = $1; sub(/^--/, "", name); print name }')
  fi
  [ -n "$flags" ] || { echo "$binary: no flags found in --helpfull"; missing=1; }
  for flag in $flags; do
    if ! grep -qF -- "\`--$flag\`" "$doc"; then
      echo "$(basename "$binary"): --$flag is not documented in $doc"
      missing=1
    fi
    if [[ "$flag" == max_* ]] && ! grep -qF -- "\`$flag\`" <<<"$inventory"; then
      echo "$(basename "$binary"): budget --$flag has no row in $operations, section 8"
      missing=1
    fi
  done
done
[ "$missing" -eq 0 ] && echo "every flag of $# binaries is documented"
exit "$missing"
