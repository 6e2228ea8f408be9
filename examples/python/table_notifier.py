"""The app under test: a restaurant's table notifier, which texts a guest through the SMS API when their table is ready.

Standard library only, as an app would write it: it signs each request itself (RFC 3986 encoding: not quote_plus or
urlencode, whose space is +, and not quote's default safe='/'; either gives SIGNATURE_MISMATCH).
"""

import base64
import hashlib
import hmac
import json
import urllib.error
import urllib.parse
import urllib.request


def encode(value):
    """RFC 3986 percent-encoding: only A-Z a-z 0-9 - . _ ~ stay as they are; a space is %20."""
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


class TableNotifier:
    def __init__(self, base_url, api_key, signing_secret):
        self.base_url = base_url.rstrip("/")
        self.auth = "Basic " + base64.b64encode(f"{api_key}:".encode()).decode()
        self.secret = signing_secret

    def table_ready(self, phone, guest, party, booking_id):
        """Texts the guest; answers the message id, or raises RuntimeError with the API's error code."""
        fields = {
            "recipient": [phone],
            "message": f"Hi {guest}! Your table (for {party}) is ready ~ see you in 5 min",
            "client_reference": f"booking-{booking_id}",
        }
        signature = hmac.new(self.secret.encode(), string_to_sign(fields).encode(), hashlib.sha256).hexdigest()
        request = urllib.request.Request(
            f"{self.base_url}/v1/messages",
            data=json.dumps(fields).encode(),
            method="POST",
            headers={"Authorization": self.auth, "Content-Type": "application/json", "Signature": signature},
        )
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                return json.loads(answer.read())["id"]
        except urllib.error.HTTPError as error:
            raise RuntimeError(json.loads(error.read() or b"{}").get("message", f"HTTP {error.code}")) from None
