#!/usr/bin/env bash
# Drives sms-emulator from a shell: a send signed by hand with curl and openssl, one with the CLI, the clock moved by
# the CLI, delivery asserted with curl. Start the emulator with a ready file, then give this script its path:
#
#   npx sms-emulator --port 0 --clock manual --ready-file ready.json &
#   ./send-and-deliver.sh ready.json
#
# SMS_EMULATOR_BIN names the command (default: npx --no-install sms-emulator).
set -euo pipefail
ready=${1:-ready.json}
sms() { ${SMS_EMULATOR_BIN:-npx --no-install sms-emulator} "$@"; }
# One field of a JSON document on standard input (node is there wherever the emulator is).
field() { node -e 'let s = ""; process.stdin.on("data", (c) => (s += c)).on("end", () => console.log(JSON.parse(s)[process.argv[1]]))' "$1"; }

for _ in $(seq 1 150); do [ -s "$ready" ] && break; sleep 0.1; done
# Every command below reads the emulator's address, key and secret from the ready file.
export SMS_EMULATOR_READY_FILE="$ready"
origin=$(field origin <"$ready")
key=$(field apiKey <"$ready")
secret=$(field signingSecret <"$ready")

# By hand: the string to sign is the fields sorted by name, RFC 3986 encoded (a space is %20), name[]=value for arrays.
body='{"recipient": ["27831234567"], "message": "Hello from curl"}'
string_to_sign='message=Hello%20from%20curl&recipient[]=27831234567'
[ "$(sms sign --body "$body" | field string_to_sign)" = "$string_to_sign" ]
signature=$(printf '%s' "$string_to_sign" | openssl dgst -sha256 -hmac "$secret" | sed 's/^.* //')
by_curl=$(curl -sf -u "$key:" -H 'Content-Type: application/json' -H "Signature: $signature" -d "$body" "$origin/v1/messages" | field id)

# With the CLI: it signs with the account's secret.
by_cli=$(sms send --to 27831234567 --text 'Hello from the CLI' | field id)

sms clock advance 5s >/dev/null
for id in "$by_curl" "$by_cli"; do
  status=$(curl -sf -u "$key:" "$origin/v1/messages/$id" | field status)
  [ "$status" = delivered ] || { echo "message $id is $status, not delivered" >&2; exit 1; }
done
[ "$(sms messages list --status delivered | field total)" = 2 ]
echo "both messages delivered: $by_curl $by_cli"
