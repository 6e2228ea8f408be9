"""Every case of test-vectors/segments.json carried to the session's emulator and counted there as the vectors say:
the kit counts no segments itself (docs/cost-checks.md), so a text it mangles on the way (a surrogate pair, NFD, CRLF,
an escape) miscounts a case here."""

import pytest

from pytest_sms_emulator import read_vectors

CASES = read_vectors("segments.json")["cases"]


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_the_emulator_counts_each_segments_vector_as_the_vectors_say(sms_emulator, case):
    why = sms_emulator.control.cost(case["text"])
    first_trigger = why.triggers[0].char if why.triggers else None
    assert (why.encoding, why.units, why.segments, first_trigger) == (
        case["encoding"],
        case["units"],
        case["segments"],
        case["ucs2Trigger"],
    )
    if "credits" in case:
        assert why.credits == case["credits"]
