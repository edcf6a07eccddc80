# The kahve image: kahve-matchmaking, kahve-table, kahve-rating and the kahve tool in
# /usr/local/bin, run as user 10001 (what k8s/ assumes). container/build.sh builds it as
# kahve:latest; docs/operations.md (section 2) says how to build and run it by hand.
#
# The base image debian:bookworm is made by container/base-image.sh (mmdebstrap: no registry is
# needed). Packages come through scripts/install-deps.sh, the one place they are named.

# Where the sources sit in the build stage. container/build.sh passes the host's own path: with
# the same path, preset and locale the compiler command lines are the host build's, so the
# host's ccache (mounted at /ccache) answers the compiles.
ARG KAHVE_SRC=/src

FROM debian:bookworm AS build
ARG KAHVE_SRC
# The LANG and LC_* assignments the host build ran with ("LANG=C.UTF-8"): ccache's keys include
# them. container/build.sh passes them.
ARG KAHVE_BUILD_LOCALE=""
# The host's ccache settings that change its keys ("CCACHE_BASEDIR=/work"), from container/build.sh:
# without them no compile of the host's is a hit.
ARG KAHVE_CCACHE_SETTINGS=""
COPY scripts/install-deps.sh /tmp/install-deps.sh
RUN bash /tmp/install-deps.sh --build
WORKDIR $KAHVE_SRC
# .dockerignore lets through only what the images are made from, so changes elsewhere (docs,
# tests, scripts) reuse the compiled layer. A folder the build starts to need is added there
# (container/smoke fails until it is).
COPY . .
# Without `-v DIR:/ccache` the cache is only a folder of this stage and every build compiles all.
# The stats log counts this build's hits and misses alone.
ENV CCACHE_DIR=/ccache CCACHE_STATSLOG=/tmp/ccache-stats.log
# Tests and benchmarks off (no GoogleTest here); otherwise the host's `default` preset, same flags.
RUN cmake --preset default -DKAHVE_BUILD_TESTS=OFF -DKAHVE_BUILD_BENCHMARKS=OFF >/dev/null \
 && env -u LANG -u LC_ALL -u LC_CTYPE -u LC_MESSAGES $KAHVE_BUILD_LOCALE $KAHVE_CCACHE_SETTINGS \
      cmake --build --preset default --target kahve-matchmaking kahve-table kahve-rating kahve \
 && echo "ccache for this build: $(ccache --show-log-stats | grep -E '^ *(Hits|Misses):' | tr -s ' ' | tr '\n' ';')" \
 && mkdir /out \
 && cp build/services/kahve-matchmaking build/services/kahve-table build/services/rating/kahve-rating \
       build/tools/kahve /out/ \
 && strip /out/*

FROM debian:bookworm
COPY scripts/install-deps.sh /tmp/install-deps.sh
RUN bash /tmp/install-deps.sh --runtime \
 && apt-get clean \
 && rm -rf /var/lib/apt/lists/* /tmp/install-deps.sh \
 && groupadd --gid 10001 kahve \
 && useradd --uid 10001 --gid 10001 --no-create-home --home-dir /nonexistent \
      --shell /usr/sbin/nologin kahve
COPY --from=build /out/ /usr/local/bin/
USER 10001:10001
# gRPC (matchmaking, table, rating), then /metrics in the same order.
EXPOSE 50051 50052 50053 9091 9092 9093
# Each container names its binary (k8s/ sets the command); without one, the tool's help.
CMD ["kahve", "help"]
