"""The app under test: an appointment reminder service. It sends its texts through the SMS API (signing each request
with its own secret, standard library only) and keeps the delivery status its webhook handler, a WSGI app, receives."""

import base64
import hashlib
import hmac
import json
import threading
import urllib.parse
import urllib.request


def string_to_sign(fields):
    """Fields sorted by name, blank values dropped, name[]=value per item of a list, RFC 3986 encoded, joined with &."""
    encode = lambda text: urllib.parse.quote(text, safe="~")  # noqa: E731
    pairs = []
    for name in sorted(fields):
        value = fields[name]
        for item in value if isinstance(value, list) else [value]:
            if item not in (None, ""):
                pairs.append(f"{encode(name)}{'[]' if isinstance(value, list) else ''}={encode(str(item))}")
    return "&".join(pairs)


class Reminders:
    """Sends reminders and records what the webhook said about each; `webhook` is the app's WSGI handler."""

    def __init__(self):
        self.statuses = {}  # message id -> the statuses its webhooks reported, in order
        self.busy = False  # while true the handler answers 503, as an app mid-deploy would
        self.lock = threading.Lock()

    def configure(self, base_url, api_key, signing_secret):
        """Where the SMS API is and the account's credentials (from the app's settings in production)."""
        self.base_url = base_url.rstrip("/")
        self.auth = "Basic " + base64.b64encode(f"{api_key}:".encode()).decode()
        self.secret = signing_secret

    def remind(self, phone, when, reference):
        fields = {"recipient": [phone], "message": f"Reminder: your appointment is at {when}", "client_reference": reference}
        signature = hmac.new(self.secret.encode(), string_to_sign(fields).encode(), hashlib.sha256).hexdigest()
        request = urllib.request.Request(
            f"{self.base_url}/v1/messages",
            data=json.dumps(fields).encode(),
            method="POST",
            headers={"Authorization": self.auth, "Content-Type": "application/json", "Signature": signature},
        )
        with urllib.request.urlopen(request, timeout=10) as answer:
            return json.loads(answer.read())["id"]

    def webhook(self, environ, start_response):
        """The app's delivery-report endpoint (POST /sms/status), as any WSGI framework would route it."""
        if environ["REQUEST_METHOD"] != "POST" or environ["PATH_INFO"] != "/sms/status":
            start_response("404 Not Found", [("Content-Type", "text/plain")])
            return [b"not here"]
        if self.busy:
            start_response("503 Service Unavailable", [("Content-Type", "text/plain")])
            return [b"deploying"]
        length = int(environ.get("CONTENT_LENGTH") or 0)
        report = json.loads(environ["wsgi.input"].read(length))
        with self.lock:
            self.statuses.setdefault(report["id"], []).append(report["status"])
        start_response("200 OK", [("Content-Type", "application/json")])
        return [b'{"received": true}']
