#!/usr/bin/env bash
# The Ruby kit as a team adopts it: a new project outside the checkout installs the gems sms_emulator_kit and this
# platform's sms_emulator_kit-node from the files `npm run kits` wrote (gem install --local, no registry), then passes
# the sample suite with no node on PATH (the carried runtime), and again against a shared emulator (SMS_EMULATOR_URL).
# Usage: prove-artefact.sh <dist>
set -euo pipefail
# Only what a new project has: no emulator named by the environment (CI exports one for the checkout's own tests).
unset SMS_EMULATOR_URL SMS_EMULATOR_COMMAND SMS_EMULATOR_CONTROL_TOKEN
dist="$(cd "${1:?usage: prove-artefact.sh <dist folder of npm run kits>}" && pwd)"
kit="$(cd "$(dirname "$0")" && pwd)"
project="$(mktemp -d)"
trap 'rm -rf "$project"' EXIT
cp -R "$kit/sample/." "$project/"
version=$(ruby -e 'puts Gem::Specification.load(ARGV[0]).version' "$kit/sms_emulator_kit.gemspec")
platform=$(ruby -e 'puts Gem::Platform.local.to_s')
gems="$project/vendor/gems"
gem install --local --no-document --install-dir "$gems" "$dist/ruby/sms_emulator_kit-$version.gem" >/dev/null
gem install --local --no-document --install-dir "$gems" "$dist/ruby/sms_emulator_kit-node-$version-$platform.gem" >/dev/null

# A PATH with Ruby and the shell's tools but no node: the carried runtime is the only Node there is.
bare="$project/.bin"
mkdir -p "$bare"
for tool in ruby sh env; do ln -s "$(command -v "$tool")" "$bare/$tool"; done
system_gems="$(ruby -e 'puts Gem.path.join(":")')"
run() { (cd "$project" && PATH="$bare" GEM_HOME="$gems" GEM_PATH="$gems:$system_gems" "$@"); }
run sh -c '! command -v node >/dev/null'
# Every test vector is read from the copy the gem carries (no checkout beside it).
run ruby -e 'require "sms_emulator_kit"
  Dir.children(ARGV[0]).each do |name|
    path = SmsEmulatorKit::TestVectors.path(name)
    abort "#{name} read from #{path}, not the gem" unless path.start_with?(ENV.fetch("GEM_HOME"))
  end' "$kit/../../test-vectors"
run ruby -e 'load Gem.bin_path("rspec-core", "rspec")' spec

# The same suite against one emulator a team's CI shares, started here with the carried runtime.
node="$(GEM_PATH="$gems" ruby -e 'puts Gem::Specification.find_all_by_name("sms_emulator_kit-node").first.gem_dir')/resources/node"
bundle="$(GEM_PATH="$gems" ruby -e 'puts Gem::Specification.find_all_by_name("sms_emulator_kit").first.gem_dir')/resources/emulator"
ready="$project/ready.json"
"$node" "$bundle/bin/sms-emulator.js" --port 0 --clock manual --ready-file "$ready" >/dev/null 2>&1 &
shared=$!
for _ in $(seq 1 200); do [ -s "$ready" ] && break; sleep 0.05; done
origin=$(ruby -rjson -e 'puts JSON.parse(File.read(ARGV[0]))["origin"]' "$ready")
run env SMS_EMULATOR_URL="$origin" ruby -e 'load Gem.bin_path("rspec-core", "rspec")' spec || { kill "$shared"; exit 1; }
kill "$shared"
