#!/usr/bin/env bash
# The Python kit's artefacts for `npm run kits`: a wheel and an sdist of pytest-sms-emulator in <dist>/python/, each
# carrying the emulator bundle (<dist>/bundle, copied in as package data; never committed). Usage: build-artefacts.sh <dist>
set -euo pipefail
dist="$(cd "${1:?usage: build-artefacts.sh <dist folder of npm run kits>}" && pwd)"
kit="$(cd "$(dirname "$0")" && pwd)"
bundle="$dist/bundle"
[ -f "$bundle/bin/sms-emulator.js" ] || { echo "python kit: no carried bundle at $bundle (npm run kits writes it)" >&2; exit 1; }

# The builder, in a venv of its own under the kits' cache (PyPI's `build`; setuptools comes in its isolated env).
python="${PYTHON:-python3}"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/sms-emulator-kits/python-build"
if [ ! -x "$cache/bin/python" ] || ! "$cache/bin/python" -c 'import build' 2>/dev/null; then
  rm -rf "$cache"
  "$python" -m venv "$cache"
  "$cache/bin/pip" install --quiet --disable-pip-version-check build
fi

# Built from a copy, so the checkout's package folder never holds the bundle.
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
cp -R "$kit/pyproject.toml" "$kit/README.md" "$kit/MANIFEST.in" "$kit/src" "$stage/"
cp "$kit/../../LICENSE" "$stage/LICENSE"
rm -rf "$stage/src/pytest_sms_emulator/_emulator" "$stage/src/pytest_sms_emulator/_test_vectors" "$stage"/src/*.egg-info
find "$stage/src" -name __pycache__ -prune -exec rm -rf {} +
cp -R "$bundle" "$stage/src/pytest_sms_emulator/_emulator"
cp -R "$kit/../../test-vectors" "$stage/src/pytest_sms_emulator/_test_vectors"

rm -rf "$dist/python"
mkdir -p "$dist/python"
"$cache/bin/python" -m build --sdist --wheel --outdir "$dist/python" "$stage" >"$stage/build.log" 2>&1 \
  || { cat "$stage/build.log" >&2; exit 1; }
ls "$dist/python"
# The wheel carries every file of test-vectors/ (read_vectors reads them there), or the build fails naming those missing.
"$python" - "$dist"/python/*.whl "$kit/../../test-vectors" <<'PY'
import os, sys, zipfile
carried = set(zipfile.ZipFile(sys.argv[1]).namelist())
missing = [n for n in sorted(os.listdir(sys.argv[2])) if f"pytest_sms_emulator/_test_vectors/{n}" not in carried]
sys.exit(f"python kit: the wheel lacks test-vectors {', '.join(missing)}" if missing else 0)
PY
