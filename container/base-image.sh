#!/usr/bin/env bash
# Makes the base image `debian:bookworm` that Dockerfile and container/postgres.Containerfile start
# from, unless podman has one made by this recipe already (the label org.kahve.base-recipe).
# No registry is reachable here, so it is made with mmdebstrap (variant apt: the essential
# packages and apt) from this machine's own apt sources: the same mirror and suites (bookworm,
# bookworm-updates, bookworm-security), so the same package versions as the host. Like Debian's
# "slim" images it leaves out manuals, translations and documentation but the copyright files,
# also from packages installed later. Takes about a minute, once.
#
# Debian's updates reach the images when the base is made again:
#   podman untag debian:bookworm && container/build.sh
#
# Usage: container/base-image.sh
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=container/common.sh
source "$here/common.sh"

recipe=1  # raise it when the recipe below changes
made="$("${kahve_podman[@]}" image inspect --format '{{index .Labels "org.kahve.base-recipe"}}' \
  debian:bookworm 2>/dev/null || true)"
if [ "$made" = "$recipe" ]; then
  echo "base-image: debian:bookworm present"
  exit 0
fi

# Debian 12 keeps its sources in deb822 form; mmdebstrap copies such a file into the image.
sources=/etc/apt/sources.list.d/debian.sources
[ -f "$sources" ] || sources=/etc/apt/sources.list
[ -f "$sources" ] || { echo "base-image: no apt sources on this machine" >&2; exit 1; }

tmp="$(mktemp -d /tmp/kahve-base-image.XXXXXX)"
trap 'rm -rf "$tmp"' EXIT
echo "base-image: mmdebstrap bookworm from $sources"
# The dpkg options stay in the image (/etc/dpkg/dpkg.cfg.d), so they hold for later installs.
mmdebstrap --quiet --variant=apt \
  --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/info/*' \
  --dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-include=/usr/share/locale/locale.alias' \
  --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
  bookworm "$tmp/rootfs.tar" "$sources"
"${kahve_podman[@]}" import --change 'CMD ["/bin/bash"]' \
  --change "LABEL org.kahve.base-recipe=$recipe" "$tmp/rootfs.tar" debian:bookworm >/dev/null
echo "base-image: debian:bookworm imported"
