#!/usr/bin/env bash
# Runs a command with podman's Docker-compatible API on a socket of its own, the way the Testcontainers modules' suites
# need it (issue 43), and fails when anything was pulled from a registry while it ran.
#
#   bash scripts/image/with-podman.sh <command> [args...]
#
# Before the command: podman (rootful, with runc) is configured for a machine without systemd (cgroupfs, no default
# ulimits, events in a file so pulls can be counted), the image archive is loaded when SMS_EMULATOR_IMAGE_ARCHIVE names
# one, and `podman system service` listens on a socket in a fresh folder. The command sees:
#   DOCKER_HOST=unix://…/podman.sock       what every Testcontainers library and Docker client reads first
#   TESTCONTAINERS_RYUK_DISABLED=true      the reaper is an image from Docker Hub; each suite stops its containers itself
#   TESTCONTAINERS_HOST_OVERRIDE=127.0.0.1 mapped ports are reached on the loopback address
#   TESTCONTAINERS_CHECKS_DISABLE=true     (Java) no start-up checks, which would run an image from Docker Hub
#   CONTAINERS_CONF=…                      so a `podman` the command runs itself uses the same settings
# After it: the service is stopped, and the run fails if podman's events name a pull since the command started.
set -euo pipefail
[ $# -gt 0 ] || { echo "usage: bash scripts/image/with-podman.sh <command> [args...]" >&2; exit 2; }
command -v podman >/dev/null 2>&1 || { echo "with-podman: podman is not installed (apt-get install podman runc)" >&2; exit 1; }
[ "$(id -u)" = 0 ] || { echo "with-podman: run it as root (rootful podman; in CI: sudo)" >&2; exit 1; }

here=$(mktemp -d /tmp/sms-emulator-podman.XXXXXX)
events="$here/events.log"
printf '[containers]\ndefault_ulimits = []\n\n[engine]\ncgroup_manager = "cgroupfs"\nruntime = "runc"\nevents_logger = "file"\nevents_logfile_path = "%s"\n' \
  "$events" >"$here/containers.conf"
export CONTAINERS_CONF="$here/containers.conf"

if [ -n "${SMS_EMULATOR_IMAGE_ARCHIVE:-}" ]; then
  podman load -q -i "$SMS_EMULATOR_IMAGE_ARCHIVE" >/dev/null
fi

socket="$here/podman.sock"
podman system service --time=0 "unix://$socket" >"$here/service.log" 2>&1 &
service=$!
stop_service() {
  kill "$service" 2>/dev/null || true
  wait "$service" 2>/dev/null || true
}
trap stop_service EXIT
for _ in $(seq 1 100); do [ -S "$socket" ] && break; sleep 0.1; done
[ -S "$socket" ] || { cat "$here/service.log" >&2; echo "with-podman: podman's API socket did not appear" >&2; exit 1; }

export DOCKER_HOST="unix://$socket"
export TESTCONTAINERS_RYUK_DISABLED=true
export TESTCONTAINERS_HOST_OVERRIDE=127.0.0.1
export TESTCONTAINERS_CHECKS_DISABLE=true

set +e
"$@"
status=$?
set -e

stop_service
trap - EXIT
pulls=$(grep -c '"Type":"image".*"Status":"pull"\|"Status":"pull".*"Type":"image"' "$events" 2>/dev/null || true)
pulls=${pulls:-0}
echo "with-podman: ${pulls} image pulls while it ran (events: $events)"
if [ "$pulls" != 0 ]; then
  grep '"Status":"pull"' "$events" >&2 || true
  echo "with-podman: an image was pulled; every image must be loaded beforehand" >&2
  exit 1
fi
exit "$status"
