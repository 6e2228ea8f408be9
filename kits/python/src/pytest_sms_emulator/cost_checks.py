"""The cost assertions (a text stays GSM-7, fits N segments, a world spent at most N credits): the emulator counts and
words each answer (`cost`'s `breakdown`, `spend`'s `summary`), so every kit fails with the same text and none counts
segments itself."""

from typing import Any, Optional

from .answers import CostExplanation, Spend
from .control import Control


def text_of(subject: Any) -> str:
    """The text a cost assertion checks: the text itself, or a message's `message` (the API's answer as a dict, or a
    `ControlMessage`)."""
    if isinstance(subject, str):
        return subject
    text = subject.get("message") if isinstance(subject, dict) else getattr(subject, "message", None)
    if isinstance(text, str):
        return text
    raise TypeError(f"a cost assertion takes a text or a message (with its text in `message`), not {type(subject).__name__}")


def _count(value: Any, least: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise ValueError(f"{what} is a whole number from {least}, not {value!r}")
    return value


def plural(count: int, word: str) -> str:
    """`1 credit`, `2 credits`."""
    return f"{count} {word}{'' if count == 1 else 's'}"


def assert_stays_gsm7(control: Control, subject: Any) -> CostExplanation:
    """The text (or the message's text) stays GSM-7; else fails with the emulator's breakdown: each character that
    forced UCS-2, where it stands, and what was meant."""
    explained = control.cost(text_of(subject))
    if explained.encoding != "GSM-7":
        raise AssertionError(f"expected the text to stay GSM-7; it is {explained.breakdown}")
    return explained


def assert_fits_segments(control: Control, subject: Any, segments: int) -> CostExplanation:
    """The text (or the message's text) is sent in at most `segments` parts; else fails with the emulator's
    breakdown."""
    _count(segments, 1, "segments")
    explained = control.cost(text_of(subject))
    if explained.segments > segments:
        raise AssertionError(f"expected the text to fit {plural(segments, 'segment')}; it is {explained.breakdown}")
    return explained


def over_budget(spend: Spend, credits: int, whose: str) -> Optional[str]:
    """Why `spend` is over a budget of `credits` (`expected <whose> to cost at most N credits; it spent …` with the top
    spenders), or None within it."""
    _count(credits, 0, "a budget in credits")
    if spend.credits <= credits:
        return None
    return f"expected {whose} to cost at most {plural(credits, 'credit')}; it {spend.summary}"
