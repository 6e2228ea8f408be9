"""Schedule times as the API takes them: YYYY-MM-DDTHH:MM±HH:MM (test-vectors/schedule.json)."""

import re
from datetime import datetime, timedelta, timezone

_OFFSET = re.compile(r"^([+-])(\d{2}):(\d{2})$")


def parse_offset(offset: str) -> timedelta:
    match = _OFFSET.match(offset)
    if match is None:
        raise ValueError(f'"{offset}" is not an offset such as +02:00')
    sign = -1 if match.group(1) == "-" else 1
    return sign * timedelta(hours=int(match.group(2)), minutes=int(match.group(3)))


def format_schedule(instant: datetime, offset: str = "+02:00") -> str:
    """An aware datetime as the API's schedule text in `offset`; a time between minutes rounds up, never earlier."""
    if instant.tzinfo is None:
        raise ValueError("format_schedule needs an aware datetime (give it a tzinfo)")
    utc = instant.astimezone(timezone.utc)
    if utc.second or utc.microsecond:
        utc = utc.replace(second=0, microsecond=0) + timedelta(minutes=1)
    local = utc.astimezone(timezone(parse_offset(offset)))
    return local.strftime("%Y-%m-%dT%H:%M") + offset
