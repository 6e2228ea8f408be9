#!/usr/bin/env bash
# The PHP kit as a team adopts it: a new project outside the checkout installs smsemulator/phpunit-kit and its Node
# runtime package from the archives `npm run kits` wrote (a Composer artifact repository, Packagist off), then passes
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
platform=$(php -r 'require $argv[1]; require $argv[2]; require $argv[3]; echo SmsEmulator\PhpUnit\Emulator::platform();' \
  "$kit/src/EmulatorException.php" "$kit/src/Contract.php" "$kit/src/Emulator.php")
version=$(php -r 'echo json_decode(file_get_contents($argv[1]), true)["version"];' "$kit/composer.json")
export COMPOSER_ALLOW_SUPERUSER=1 COMPOSER_HOME="$project/.composer"
(cd "$project" \
  && composer config repositories.kits artifact "$dist/php" \
  && composer config repo.packagist false \
  && composer require --dev --no-interaction --quiet "smsemulator/phpunit-kit-node-$platform:$version" \
  && composer install --no-interaction --quiet)

# The kit's vector tests, run from the package: TestVectors reads the copy the archive carries (no checkout beside it).
(cd "$project" && php "$(command -v phpunit)" --no-configuration --do-not-cache-result --bootstrap vendor/autoload.php \
  "$kit/tests/VectorsTest.php")

# A PATH with PHP and the shell's tools but no node: the carried runtime is the only Node there is.
bare="$project/.bin"
mkdir -p "$bare"
for tool in php sh env; do ln -s "$(command -v "$tool")" "$bare/$tool"; done
phpunit="$(command -v phpunit)"
(cd "$project" && PATH="$bare" sh -c '! command -v node >/dev/null' && PATH="$bare" php "$phpunit" -c phpunit.xml)

# The same suite against one emulator a team's CI shares, started here with the carried runtime.
ready="$project/ready.json"
node="$(find "${XDG_CACHE_HOME:-$HOME/.cache}/sms-emulator-kits" -path "*php-node-$version-$platform*" -name node | head -n 1)"
"$node" "$project/vendor/smsemulator/phpunit-kit/resources/emulator/bin/sms-emulator.js" --port 0 --clock manual --ready-file "$ready" >/dev/null 2>&1 &
shared=$!
for _ in $(seq 1 200); do [ -s "$ready" ] && break; sleep 0.05; done
origin=$(php -r 'echo json_decode(file_get_contents($argv[1]), true)["origin"];' "$ready")
(cd "$project" && PATH="$bare" SMS_EMULATOR_URL="$origin" php "$phpunit" -c phpunit.xml) || { kill "$shared"; exit 1; }
kill "$shared"
