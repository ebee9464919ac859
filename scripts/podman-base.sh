# podman-base.sh: sourced by container-test.sh and deb-test.sh. Rootful podman with its
# configuration and storage under $W (runc and cgroupfs: what this VM's hybrid cgroups allow),
# and the base image $BASE_IMAGE (localhost/debian:bookworm) made with debootstrap from $MIRROR,
# so that no registry is needed.
#
# The caller defines log, die and now_ms and sets W, MIRROR and BASE_IMAGE, then calls:
#   podman_prepare       install what is missing, write the configuration, export CONTAINERS_*
#   ensure_base_image    debootstrap and import $BASE_IMAGE unless it is there
# (Function bodies are not indented: their here-documents are written out as they stand.)

podman_prepare() {
# ------------------------------------------------------------- packages ----
need_pkgs=()
command -v podman      >/dev/null || need_pkgs+=(podman)
command -v runc        >/dev/null || need_pkgs+=(runc)
command -v debootstrap >/dev/null || need_pkgs+=(debootstrap)
command -v catatonit   >/dev/null || [[ -x /usr/libexec/podman/catatonit ]] || need_pkgs+=(catatonit)
command -v curl        >/dev/null || need_pkgs+=(curl)
if ((${#need_pkgs[@]})); then
  log "installing ${need_pkgs[*]}"
  apt-get update -q
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${need_pkgs[@]}"
fi

# --------------------------------------------------------------- config ----
mkdir -p "$W"/{storage,run,tmp,cni,rootfs-tmp}
# runroot/tmp_dir normally live on tmpfs; here they are on disk, so drop them
# after a reboot (stale mount counts and locks would confuse podman).
boot_id=$(cat /proc/sys/kernel/random/boot_id)
if [[ -f $W/boot_id && $(cat "$W/boot_id") != "$boot_id" ]]; then
  log "reboot detected: clearing $W/run and $W/tmp"
  rm -rf "${W:?}/run" "${W:?}/tmp"; mkdir -p "$W"/{run,tmp}
fi
echo "$boot_id" > "$W/boot_id"

hard_nofile=$(ulimit -Hn)
[[ $hard_nofile == unlimited ]] && hard_nofile=1048576
cat > "$W/containers.conf" <<CONF
# written by scripts/container-test.sh
[containers]
# processes here may not raise rlimits: ask for what we already have
default_ulimits = ["nofile=${hard_nofile}:${hard_nofile}", "nproc=32768:32768"]

[engine]
# crun fails on this VM's hybrid cgroups
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
tmp_dir = "$W/tmp"

[network]
network_config_dir = "$W/cni"
CONF
cat > "$W/storage.conf" <<CONF
# written by scripts/container-test.sh
[storage]
driver = "overlay"
graphroot = "$W/storage"
runroot = "$W/run"
CONF
export CONTAINERS_CONF=$W/containers.conf
export CONTAINERS_STORAGE_CONF=$W/storage.conf
}

image_exists() { podman image exists "$1"; }

ensure_base_image() {
# ---------------------------------------------------------- base images ----
if image_exists "$BASE_IMAGE"; then
  log "$BASE_IMAGE: cached"
else
  t0=$(now_ms)
  rootfs=$W/rootfs-tmp/bookworm
  rm -rf "$rootfs"
  log "debootstrap bookworm (minbase) from $MIRROR"
  debootstrap --variant=minbase bookworm "$rootfs" "$MIRROR" > "$W/debootstrap.log" 2>&1 \
    || { tail -20 "$W/debootstrap.log" >&2; die "debootstrap failed (log: $W/debootstrap.log)"; }
  # Same apt sources and doc excludes as the official bookworm-slim image.
  rm -f "$rootfs/etc/apt/sources.list"
  cat > "$rootfs/etc/apt/sources.list.d/debian.sources" <<SRC
Types: deb
URIs: $MIRROR
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: ${MIRROR%/debian}/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
  cat > "$rootfs/etc/dpkg/dpkg.cfg.d/docker" <<'SRC'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
path-exclude /usr/share/lintian/*
SRC
  cat > "$rootfs/etc/apt/apt.conf.d/docker-clean" <<'SRC'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache ""; Dir::Cache::srcpkgcache "";
SRC
  echo 'APT::Install-Recommends "false";' > "$rootfs/etc/apt/apt.conf.d/docker-no-recommends"
  rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/archives/*.deb \
         "$rootfs"/var/cache/apt/*.bin "$rootfs"/var/log/* "$rootfs"/tmp/*
  # what the dpkg excludes above would have kept out (keep copyright files)
  find "$rootfs/usr/share/doc" -mindepth 1 ! -type d ! -name copyright -delete
  rm -rf "$rootfs"/usr/share/{man,info,lintian,locale}/*
  tar -C "$rootfs" --numeric-owner -c . \
    | podman import -q --change 'CMD ["bash"]' - "$BASE_IMAGE" >/dev/null
  rm -rf "$rootfs"
  log "$BASE_IMAGE: built in $(( ($(now_ms) - t0) / 1000 )) s"
fi
}
