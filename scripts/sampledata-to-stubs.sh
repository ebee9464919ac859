#!/bin/sh
# Turns a folder of Moya sampleData JSON files into stubd route folders.
#
# usage: scripts/sampledata-to-stubs.sh SAMPLES_DIR STUBS_DIR SERVICE [BASE_PATH]
#
# Each SAMPLES_DIR/<name>.json becomes STUBS_DIR/SERVICE/<name>/route.json (GET /<name>, to be
# edited to the target's real method and path) and STUBS_DIR/SERVICE/<name>/200.json (the sample,
# byte for byte). With BASE_PATH, SERVICE/_service.json gets {"basePath": BASE_PATH}. Existing
# route folders are left alone. Run `stubd check STUBS_DIR` afterwards.
set -eu

if [ $# -lt 3 ] || [ $# -gt 4 ]; then
    echo "usage: $0 SAMPLES_DIR STUBS_DIR SERVICE [BASE_PATH]" >&2
    exit 2
fi
samples=$1 stubs=$2 service=$3 base=${4:-}
[ -d "$samples" ] || { echo "$0: $samples is not a folder" >&2; exit 1; }
case $service in *[!A-Za-z0-9._-]*|'') echo "$0: service name '$service' must be letters, digits, '.', '_' or '-'" >&2; exit 1 ;; esac
case $base in ''|/*) ;; *) echo "$0: BASE_PATH must start with '/', got '$base'" >&2; exit 1 ;; esac

mkdir -p "$stubs/$service"
if [ -n "$base" ] && [ ! -e "$stubs/$service/_service.json" ]; then
    printf '{\n  "basePath": "%s"\n}\n' "$base" > "$stubs/$service/_service.json"
fi

made=0 skipped=0
for file in "$samples"/*.json; do
    [ -e "$file" ] || continue
    name=$(basename "$file" .json)
    case $name in *[!A-Za-z0-9._-]*|.*) echo "$0: skipping $file: rename it to letters, digits, '.', '_' or '-'" >&2; skipped=$((skipped + 1)); continue ;; esac
    route="$stubs/$service/$name"
    if [ -e "$route" ]; then
        echo "$0: skipping $name: $route exists" >&2
        skipped=$((skipped + 1))
        continue
    fi
    mkdir -p "$route"
    cp "$file" "$route/200.json"
    printf '{\n  "method": "GET",\n  "path": "/%s",\n  "description": "From %s; set the method and path of the Moya target"\n}\n' \
        "$name" "$(basename "$file")" > "$route/route.json"
    made=$((made + 1))
done
echo "$made route(s) written to $stubs/$service, $skipped skipped; now edit each route.json's method and path and run: stubd check $stubs"
