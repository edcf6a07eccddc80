# Shared by run.sh and test.sh: install what is missing, then configure and build one preset.
# Sourced, not run.

kahve_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

kahve_install_deps() {
  if [ "$(id -u)" -eq 0 ]; then
    bash "$kahve_root/scripts/install-deps.sh"
  else
    sudo bash "$kahve_root/scripts/install-deps.sh"
  fi
}

# kahve_build PRESET [TARGET...]: configure once, then build (2 jobs: the machine has 2 cores).
kahve_build() {
  local preset="$1"
  shift
  cd "$kahve_root"
  cmake --preset "$preset" >/dev/null
  if [ "$#" -gt 0 ]; then
    cmake --build --preset "$preset" --target "$@"
  else
    cmake --build --preset "$preset"
  fi
}
