#!/usr/bin/env bash
# Fails on the C forms whose Swift types differ between glibc and Darwin when they appear outside
# StubSystem (and the one platform-guarded test helper): a Mac user compiles what Linux never
# type-checks, so these go through LibC's helpers (LibC+Structs.swift, LibC+Spawn.swift) instead.
set -euo pipefail
cd "$(dirname "$0")/.."

patterns=(
  'tv_usec:'                                                         # timeval: Int on glibc, Int32 on Darwin -> LibC.timeval
  'SOCK_[A-Z]+\.rawValue'                                            # an enum on glibc, an Int32 on Darwin -> LibC.streamSocket
  '\.(sin_family|sin6_family|sa_family) ='                           # 16-bit on glibc, 8-bit after sin_len on Darwin -> LibC.ipv4Address
  'posix_spawn(_file_actions|attr)_t\('                              # a struct on glibc, an optional pointer on Darwin -> LibC.spawn
  '[(, ]environ[),]'                                                 # not declared on Darwin -> LibC.spawn
  '(contentsOfFile: "/proc|"/proc/\\\(|open\("/proc)'              # no /proc on macOS -> ProcessThreads, or a skip
  'RLIMIT_[A-Z]+\.rawValue'                                          # -> LibC.fileLimit
  'st_mtim\b|st_mtimespec'                                           # -> LibC.modified
)
found=0
for pattern in "${patterns[@]}"; do
  hits=$(grep -rnE --include='*.swift' "$pattern" Sources Tests Examples 2>/dev/null |
         grep -vE '^Sources/StubSystem/|^Tests/StubTestSupport/ProcessThreads\.swift:' || true)
  if [[ -n $hits ]]; then
    echo "check-portable: '$pattern' outside StubSystem (its type differs on Darwin):" >&2
    echo "$hits" >&2
    found=1
  fi
done
if ((found)); then exit 1; fi
echo "check-portable: no glibc-only forms outside StubSystem"
