"""Request signing as the API specifies it: the canonical field string and its HMAC-SHA256 (test-vectors/signing.json)."""

import hashlib
import hmac
import json
import urllib.parse
from typing import Any, Mapping, Optional


def encode(value: str) -> str:
    """RFC 3986 percent-encoding: only A-Z a-z 0-9 - . _ ~ stay; a space is %20, never +.

    Not quote_plus or urlencode (a space would be +) and not quote's default safe='/' (a / would stay):
    both sign another string than the API and answer SIGNATURE_MISMATCH.
    """
    return urllib.parse.quote(value, safe="~")


def _field_text(value: Any) -> Optional[str]:
    """A value as the API reads it for signing; None for a blank one, which is left out."""
    if value is None:
        return None
    if isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, (dict, list)):
        text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    else:
        text = str(value)
    return text or None


def canonical_string(fields: Mapping[str, Any]) -> str:
    """Fields sorted by name, blank values dropped, name[]=value per list item in order, encoded, joined with &."""
    pairs = []
    for name in sorted(fields):
        value = fields[name]
        key = encode(name)
        if isinstance(value, list):
            for item in value:
                text = _field_text(item)
                if text is not None:
                    pairs.append(f"{key}[]={encode(text)}")
        else:
            text = _field_text(value)
            if text is not None:
                pairs.append(f"{key}={encode(text)}")
    return "&".join(pairs)


def sign(fields: Mapping[str, Any], secret: str) -> str:
    """The Signature header of a request body: lowercase hex HMAC-SHA256 of its canonical string."""
    return hmac.new(secret.encode("utf-8"), canonical_string(fields).encode("utf-8"), hashlib.sha256).hexdigest()
