#!/bin/sh
# vendor-echarts.sh refreshes the echarts build that the report pages embed
# (assets/echarts.min.js, with its LICENSE and NOTICE beside it) from the npm
# registry. The version and the tarball's integrity are pinned here: to move to
# another version, change both, run this script, and commit the three files.
#
# Called by the Makefile's vendor-echarts verb; needs npm (and so node) and tar.
set -eu

ECHARTS_VERSION=5.6.0
ECHARTS_INTEGRITY=sha512-oTbVTsXfKuEhxftHqL5xprgLoc0k7uScAwtryCgWF6hPYFLRwOUHiFmHGCBKP5NPFNkDVopOieyUqYGH8Fa3kA==

here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

(cd "$tmp" && npm pack --silent "echarts@$ECHARTS_VERSION" >/dev/null)
tgz="$tmp/echarts-$ECHARTS_VERSION.tgz"

# npm checks the download against the registry's own integrity; this checks
# the registry still serves the tarball this script was written against.
got=$(node -e 'const c = require("crypto"), f = require("fs");
process.stdout.write("sha512-" + c.createHash("sha512").update(f.readFileSync(process.argv[1])).digest("base64"));' "$tgz")
if [ "$got" != "$ECHARTS_INTEGRITY" ]; then
	echo "vendor-echarts: echarts@$ECHARTS_VERSION integrity mismatch: got $got, want $ECHARTS_INTEGRITY" >&2
	exit 1
fi

tar -xzf "$tgz" -C "$tmp" package/dist/echarts.min.js package/LICENSE package/NOTICE
cp "$tmp/package/dist/echarts.min.js" "$here/assets/echarts.min.js"
cp "$tmp/package/LICENSE" "$here/assets/echarts.LICENSE"
cp "$tmp/package/NOTICE" "$here/assets/echarts.NOTICE"
echo "vendor-echarts: assets/echarts.min.js is echarts $ECHARTS_VERSION"
