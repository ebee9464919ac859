# stubd container image (multi-stage).
#
# Defaults use the official images:
#   docker build -t stubd .
# Offline / local base images (see scripts/container-test.sh):
#   podman build --pull=never --format docker -v /opt/swift:/opt/swift:ro \
#     --build-arg SWIFT_IMAGE=localhost/swift-build:bookworm \
#     --build-arg RUNTIME_IMAGE=localhost/debian:bookworm -t localhost/stubd:test .
# (--format docker keeps the HEALTHCHECK; the OCI format drops it.)

ARG SWIFT_IMAGE=swift:6.3-bookworm
ARG RUNTIME_IMAGE=debian:bookworm-slim

# ---------------------------------------------------------------- build ----
FROM ${SWIFT_IMAGE} AS build

RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends libmicrohttpd-dev libgnutls28-dev libyaml-dev libhiredis-dev libwslay-dev libnghttp2-dev ca-certificates \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /src
# The whole package (Package.swift, Sources, Stubs, Tests if any: SwiftPM
# refuses to load a manifest whose test target directory is missing).
# .dockerignore keeps .build, .git, scripts, docs etc. out of the context.
COPY . .

RUN swift build -c release --static-swift-stdlib --product stubd \
 && install -D -m 0755 "$(swift build -c release --show-bin-path)/stubd" /out/stubd \
 && strip /out/stubd

# -------------------------------------------------------------- runtime ----
FROM ${RUNTIME_IMAGE}

RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends libmicrohttpd12 libgnutls30 libyaml-0-2 libhiredis0.14 libwslay1 libnghttp2-14 \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 10001 stubd \
 && useradd --system --uid 10001 --gid stubd --no-create-home \
      --home-dir /nonexistent --shell /usr/sbin/nologin stubd

COPY --from=build /out/stubd /usr/local/bin/stubd
# The authorities HTTPS upstreams (record, --proxy-unmatched) are checked against, where GnuTLS
# looks for them. Copied rather than installed: Debian's ca-certificates package pulls in
# OpenSSL, which nothing here uses.
COPY --from=build /etc/ssl/certs/ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
# Fail the build here (not at run time) if a shared library is missing.
RUN ! ldd /usr/local/bin/stubd | grep 'not found'
COPY Stubs /stubs

ENV STUBD_STUBS=/stubs STUBD_HOST=0.0.0.0 STUBD_PORT=8080
# HTTPS: mount a `stubd tls init` folder readable by uid 10001 at /tls and set
# STUBD_TLS_DIR=/tls (any HTTPS setting turns HTTPS on); it is served on 8443 beside plain
# HTTP on 8080.
# A fleet: set STUBD_STATE=redis://HOST:6379 on each replica (deploy/compose.yaml, deploy/kubernetes/).
# Numeric so that runAsNonRoot-style checks can verify it (10001 = stubd:stubd).
USER 10001:10001
EXPOSE 8080 8443
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=5s --timeout=2s CMD ["/usr/local/bin/stubd", "probe", "http://127.0.0.1:8080/__stubd/health"]
ENTRYPOINT ["/usr/local/bin/stubd"]
CMD ["serve"]
