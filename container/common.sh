# shellcheck shell=bash disable=SC2034  # the variables are for the scripts that source this
# Shared by the scripts in container/: how podman is run here. Sourced, not run.
#
# runc rather than Debian's default crun, and explicit limits: podman's default limits (e.g.
# nofile 1048576) are above what this machine lets a container raise them to, and runc then fails
# with "error setting rlimit type 7". The `podman run` and `podman build` calls pass these: open
# files as many as this shell may have, up to 65,536 (the services keep their connection caps
# below whatever they get; docs/operations.md, section 8).
kahve_podman=(podman --runtime runc)
kahve_nofile="$(ulimit -Hn)"
if [ "$kahve_nofile" = unlimited ] || [ "$kahve_nofile" -gt 65536 ]; then kahve_nofile=65536; fi
kahve_limits=(--ulimit "nofile=$kahve_nofile:$kahve_nofile" --ulimit nproc=1000:1000)
