#!/usr/bin/env bash
# The Java Testcontainers module (dev.smsemulator:sms-emulator-testcontainers, kits/java-testcontainers) against the
# image, run beside podman's Docker-compatible socket:
#   bash scripts/image/with-podman.sh bash kits/java/container-suite.sh [kits/dist]
# (a) the module's container suite from its sources (tag container: start, a world per test, test-vectors/segments.json through the
#     world, two worlds isolated on one container, the control token, @SmsEmulatorTest(container = true), stop) on the
#     kit and module of <dist>/maven (npm run kits -- java writes them);
# (b) kits/java/sample as a new Maven project outside the checkout, the kit and the module from <dist>/maven,
#     Testcontainers from Maven Central, no node on PATH: green with the carried runtime, then green on the container
#     after changing one line (@SmsEmulatorTest → @SmsEmulatorTest(container = true); the diff is printed).
# The container tests fail, never skip, when no container can start.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
dist="$(cd "${1:-$root/kits/dist}" && pwd)"
version="$(sed -n 's:^  <version>\(.*\)</version>.*:\1:p' "$root/kits/java-testcontainers/pom.xml" | head -n 1)"
repo="$dist/maven"
kit="$repo/dev/smsemulator/sms-emulator-junit/$version/sms-emulator-junit-$version"
[ -f "$repo/dev/smsemulator/sms-emulator-testcontainers/$version/sms-emulator-testcontainers-$version.jar" ] && [ -f "$kit.jar" ] \
  || { echo "no Java kit and module $version in $repo: npm run kits -- java writes them" >&2; exit 1; }
[ -n "${DOCKER_HOST:-}" ] || { echo "DOCKER_HOST is not set: run this under scripts/image/with-podman.sh" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
began=$SECONDS

echo "== (a) the module's container suite, on the kit of $repo"
# The local repository's kit is the one the artefacts carry, not an earlier build's.
rm -rf "${HOME}/.m2/repository/dev/smsemulator"
mvn -B -ntp -q org.apache.maven.plugins:maven-install-plugin:3.1.4:install-file -Dfile="$kit.jar" -DpomFile="$kit.pom"
(cd "$root/kits/java-testcontainers" && mvn -B -ntp test -Dgroups=container -Dsms-emulator.excluded-groups=none) | tee "$work/module.log"
grep -E "^container-suite: |^sms-emulator: container " "$work/module.log"

# scripts/image/container-suites.sh --module-only repeats the module's suite alone (the 20-run proof); (b) needs one run.
if [ "${SMS_EMULATOR_CONTAINER_SUITE_PART:-all}" = module ]; then
  echo "(b), the user's project, is left out: SMS_EMULATOR_CONTAINER_SUITE_PART=module"
  exit 0
fi
echo "== (b) kits/java/sample as a new project outside the checkout, the kit and the module from $repo"
project="$work/shop"
mkdir -p "$project"
cp -R "$root/kits/java/sample/." "$project/"
# A PATH holding only what Maven's start script runs, so no node can be found on it.
bin="$(bash "$root/kits/java/no-node-path.sh" "$work/bin")"
java_home="${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")}"
rm -rf "${HOME}/.m2/repository/dev/smsemulator"
run() { # <log>: the sample's mvn test, no node on PATH, the kit and the module from the file:// repository
  (cd "$project" && env -u SMS_EMULATOR_URL -u SMS_EMULATOR_COMMAND PATH="$bin" JAVA_HOME="$java_home" \
    SMS_EMULATOR_CACHE="$work/cache" mvn -B -ntp test -Dsms-emulator.repo="file://$repo") | tee "$1"
}

echo "== the sample with the carried runtime"
run "$work/carried.log"
grep -q "sms-emulator: emulator by step 3 of url → command → carried → path-node (carried)" "$work/carried.log" \
  || { echo "the sample did not run the carried runtime" >&2; exit 1; }

echo "== the one line that moves the sample to the container"
test_file="src/test/java/com/example/shop/DeliveryNoticesTest.java"
cp "$project/$test_file" "$work/before.java"
sed -i 's/^@SmsEmulatorTest$/@SmsEmulatorTest(container = true)/' "$project/$test_file"
diff -u --label "a/$test_file" --label "b/$test_file" "$work/before.java" "$project/$test_file" | tee "$work/switch.diff" || true
[ "$(grep -c '^[-+][^-+]' "$work/switch.diff")" = 2 ] || { echo "the switch is not exactly one line" >&2; exit 1; }

echo "== the sample on the container"
run "$work/container.log"
grep -E "^sms-emulator: container .* (started|stopped) in" "$work/container.log"
[ "$(grep -cE "^sms-emulator: container .* (started|stopped) in" "$work/container.log")" = 2 ] \
  || { echo "the sample did not start and stop the container" >&2; exit 1; }
if grep -q "sms-emulator: emulator by step" "$work/container.log"; then echo "the sample also resolved another emulator" >&2; exit 1; fi
echo "java container suite: green in $((SECONDS - began)) s"
