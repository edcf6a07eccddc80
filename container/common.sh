# shellcheck shell=bash disable=SC2034  # the variables are for the scripts that source this
# Shared by the scripts in container/: how podman is run here. Sourced, not run.
#
# runc rather than Debian's default crun, and explicit limits: podman's default limits (e.g.
# nofile 1048576) are above what this machine lets a container raise them to, and runc then fails
# with "error setting rlimit type 7". The `podman run` and `podman build` calls pass these.
kahve_podman=(podman --runtime runc)
kahve_limits=(--ulimit nofile=1024:1024 --ulimit nproc=1000:1000)
