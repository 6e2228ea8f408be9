"""Times as the emulator takes them: schedule text YYYY-MM-DDTHH:MM±HH:MM (test-vectors/schedule.json), instants as ISO
text, durations as "15m" or milliseconds; a `datetime` or `timedelta` is accepted wherever text is."""

import re
from datetime import datetime, timedelta, timezone
from typing import Union

_OFFSET = re.compile(r"^([+-])(\d{2}):(\d{2})$")
_ENDING_OFFSET = re.compile(r"([+-]\d{2}:\d{2}|Z)$")

#: A duration: "500ms", "90s", "15m", "2h", "7d", milliseconds, or a timedelta.
Duration = Union[str, int, float, timedelta]
#: An instant: ISO 8601 text with an offset, or an aware datetime.
Instant = Union[str, datetime]


def parse_offset(offset: str) -> timedelta:
    match = _OFFSET.match(offset)
    if match is None:
        raise ValueError(f'"{offset}" is not an offset such as +02:00')
    sign = -1 if match.group(1) == "-" else 1
    return sign * timedelta(hours=int(match.group(2)), minutes=int(match.group(3)))


def parse_instant(text: str) -> datetime:
    """ISO 8601 text with an offset (or Z) as an aware datetime."""
    instant = datetime.fromisoformat(text.replace("Z", "+00:00"))
    if instant.tzinfo is None:
        raise ValueError(f'"{text}" has no offset (add one, e.g. +02:00)')
    return instant


def format_schedule(instant: Instant, offset: str = "+02:00") -> str:
    """An aware datetime as the API's schedule text in `offset`; a time between minutes rounds up, never earlier.

    Given text (such as a message's `schedule`, which the API answers with seconds), it answers the same instant in the
    text's own offset, so `format_schedule(message["schedule"]) == format_schedule(at)` when both name one minute."""
    if isinstance(instant, str):
        match = _ENDING_OFFSET.search(instant)
        if match is not None and match.group(1) != "Z":
            offset = match.group(1)
        instant = parse_instant(instant)
    if instant.tzinfo is None:
        raise ValueError("format_schedule needs an aware datetime (give it a tzinfo)")
    utc = instant.astimezone(timezone.utc)
    if utc.second or utc.microsecond:
        utc = utc.replace(second=0, microsecond=0) + timedelta(minutes=1)
    local = utc.astimezone(timezone(parse_offset(offset)))
    return local.strftime("%Y-%m-%dT%H:%M") + offset


def duration_value(duration: Duration) -> Union[str, int]:
    """A duration as the control API takes it: text as it is, a timedelta or a number as whole milliseconds."""
    if isinstance(duration, str):
        return duration
    if isinstance(duration, timedelta):
        milliseconds = duration / timedelta(milliseconds=1)
    elif isinstance(duration, (int, float)) and not isinstance(duration, bool):
        milliseconds = float(duration)
    else:
        raise TypeError(f"a duration is text such as '15m', milliseconds or a timedelta, not {duration!r}")
    if milliseconds < 0 or milliseconds != int(milliseconds):
        raise ValueError(f"a duration is a whole, non-negative number of milliseconds, not {milliseconds}")
    return int(milliseconds)


def instant_value(instant: Instant) -> str:
    """An instant as the control API takes it: text as it is, an aware datetime as ISO 8601 text."""
    if isinstance(instant, str):
        return instant
    if isinstance(instant, datetime):
        if instant.tzinfo is None:
            raise ValueError("an instant needs an aware datetime (give it a tzinfo)")
        return instant.isoformat()
    raise TypeError(f"an instant is ISO text or an aware datetime, not {instant!r}")
