"""Drives sms-emulator from Python with the standard library only: sign, send, move the clock, assert delivery.

Start the emulator with a ready file, then run this script with its path:

    npx sms-emulator --port 0 --clock manual --ready-file ready.json &
    python3 send_and_deliver.py ready.json
"""

import base64
import hashlib
import hmac
import json
import sys
import time
import urllib.error
import urllib.parse
import urllib.request


def encode(value):
    """RFC 3986 percent-encoding: only A-Z a-z 0-9 - . _ ~ stay as they are; a space is %20.

    Not quote_plus (a space would be +) and not quote's default safe='/' (a / would stay): both sign
    another string than the emulator and give SIGNATURE_MISMATCH.
    """
    return urllib.parse.quote(value, safe="~")


def string_to_sign(fields):
    """Fields sorted by name, blank values dropped, name[]=value per item of a list, joined with &."""
    pairs = []
    for name in sorted(fields):
        value = fields[name]
        for item in value if isinstance(value, list) else [value]:
            text = item if isinstance(item, str) else json.dumps(item)
            if item is not None and text != "":
                pairs.append(f"{encode(name)}{'[]' if isinstance(value, list) else ''}={encode(text)}")
    return "&".join(pairs)


def sign(fields, secret):
    """The Signature header: lowercase hex HMAC-SHA256 of the string to sign, keyed with the signing secret."""
    return hmac.new(secret.encode(), string_to_sign(fields).encode(), hashlib.sha256).hexdigest()


def call(method, url, body=None, headers=None):
    """One JSON request; answers (status, parsed body), error statuses included."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def wait_for_ready_file(path, seconds=15):
    deadline = time.monotonic() + seconds
    while True:
        try:
            with open(path, encoding="utf-8") as file:
                return json.load(file)
        except (FileNotFoundError, json.JSONDecodeError):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def main(ready_path):
    ready = wait_for_ready_file(ready_path)
    origin, key, secret = ready["origin"], ready["apiKey"], ready["signingSecret"]
    auth = {"Authorization": "Basic " + base64.b64encode(f"{key}:".encode()).decode()}

    # A text with a space, an apostrophe, brackets and an exclamation mark: quote_plus or quote's defaults sign it wrongly.
    fields = {"recipient": ["27831234567"], "message": "Hi O'Brien! Your table (for 2) is ready ~ 50% off", "client_reference": "py-1"}
    status, emulator_signed = call("POST", f"{origin}/_emulator/sign", fields)
    assert status == 200 and emulator_signed["string_to_sign"] == string_to_sign(fields), emulator_signed

    status, sent = call("POST", f"{origin}/v1/messages", fields, {**auth, "Signature": sign(fields, secret)})
    assert status == 201, sent
    assert sent["status"] == "pending", sent

    status, wrong = call("POST", f"{origin}/v1/messages", fields, {**auth, "Signature": sign(fields, "not-the-secret")})
    assert status == 400 and wrong["message"] == "SIGNATURE_MISMATCH", wrong

    # The emulator's clock runs only when told to (--clock manual): five seconds on, the message is delivered.
    status, clock = call("POST", f"{origin}/_emulator/clock", {"advance": "5s"})
    assert status == 200, clock
    status, message = call("GET", f"{origin}/v1/messages/{sent['id']}", headers=auth)
    assert status == 200 and message["status"] == "delivered", message
    print(json.dumps({"id": sent["id"], "status": message["status"], "clock": clock["time"]}))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "ready.json")
