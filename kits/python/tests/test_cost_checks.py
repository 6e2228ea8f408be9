"""The cost assertions and budgets, from the user's side: a UCS-2 text fails each assertion with the emulator's
breakdown (the trigger's position, code point and suggestion) and its GSM-7 fix passes; a test over its
`sms_budget` marker and a run over its suite budget fail naming the top spenders."""

import pytest

TRIGGER = "position 3: \"’\" U+2019 RIGHT SINGLE QUOTATION MARK, use \"'\""
SPENDER = '2 credits: to 27831234567, 27831234568: "It’s ready" (UCS-2, 1 segment × 2 recipients; UCS-2 forced by "’" at 3)'


def test_a_ucs2_text_fails_each_cost_assertion_with_the_breakdown_and_its_gsm7_fix_passes(sms):
    with pytest.raises(AssertionError) as failed:
        sms.assert_stays_gsm7("It’s ready")
    said = str(failed.value)
    assert said.startswith('expected the text to stay GSM-7; it is UCS-2, 10 UTF-16 units, 1 segment: "It’s ready"')
    assert TRIGGER in said and "with those replaced: GSM-7, 1 segment" in said
    long = "It’s ready: " + "a" * 60
    sent = sms.client.send("27831234567", long)
    for subject in (sent, sms.control_messages()[0]):
        with pytest.raises(AssertionError) as failed:
            sms.assert_fits_segments(subject, 1)
        assert str(failed.value).startswith("expected the text to fit 1 segment; it is UCS-2, 72 UTF-16 units, 2 segments")
        assert TRIGGER in str(failed.value)
    fixed = long.replace("’", "'")
    assert sms.assert_stays_gsm7("It's ready").encoding == "GSM-7"
    assert sms.assert_fits_segments(fixed, 1).segments == 1
    assert sms.assert_fits_segments({"message": fixed}, 1).segments == 1


def test_a_worlds_spend_over_assert_cost_at_most_fails_naming_the_top_spenders(sms):
    sms.client.send(["27831234567", "27831234568"], "It’s ready")
    with pytest.raises(AssertionError) as failed:
        sms.assert_cost_at_most(1)
    said = str(failed.value)
    assert said.startswith(
        f"expected the world's account {sms.api_key} to cost at most 1 credit; it spent 2 credits on 1 message. Top spenders:"
    )
    assert SPENDER in said
    assert sms.assert_cost_at_most(2).credits == 2


@pytest.fixture
def shared(monkeypatch, sms_emulator):
    """The inner runs share this session's emulator, as a team's CI would (SMS_EMULATOR_URL): none starts its own."""
    monkeypatch.setenv("SMS_EMULATOR_URL", sms_emulator.origin)


SPENDERS = """
import pytest

@pytest.mark.sms_budget(1)
def test_spender(sms):
    sms.client.send("27831234567", "It’s ready")

@pytest.mark.sms_budget(1)
def test_big_spender(sms):
    sms.client.send(["27831234567", "27831234568"], "It’s ready")
"""


def test_a_test_over_its_sms_budget_marker_fails_naming_the_top_spenders(pytester, shared):
    pytester.makepyfile(test_spenders=SPENDERS)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, failed=1)
    output = result.stdout.str()
    assert "FAILED test_spenders.py::test_big_spender" in output
    assert "expected this test to cost at most 1 credit; it spent 2 credits on 1 message. Top spenders:" in output
    assert SPENDER in output and "(@pytest.mark.sms_budget(1))" in output


def test_an_sms_budget_marker_that_is_negative_fractional_or_text_fails_the_test_naming_what_it_takes(pytester, shared):
    pytester.makepyfile(
        test_budgets="""
import pytest

@pytest.mark.parametrize("credits", [-1, 2.5, "3", True])
def test_budget(request, sms, credits):
    request.node.add_marker(pytest.mark.sms_budget(credits))
"""
    )
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(failed=4)
    output = result.stdout.str()
    for given in ["(-1,)", "(2.5,)", "('3',)", "(True,)"]:
        assert f"@pytest.mark.sms_budget takes a whole number of credits from 0, as sms_budget(3), not {given}" in output


@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["one process", "under pytest-xdist"])
def test_a_run_over_its_suite_budget_fails_naming_the_tests_that_spent_most(pytester, shared, workers):
    pytester.makepyfile(test_spenders=SPENDERS.replace("@pytest.mark.sms_budget(1)\n", ""))
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--sms-suite-budget=2", *workers)
    result.assert_outcomes(passed=2)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    output = result.stdout.str()
    assert (
        "expected the run to cost at most 2 credits (sms_suite_budget); it spent 3 credits in 2 tests. Top spenders:\n"
        f"  - test_spenders.py::test_big_spender: 2 credits; its costliest message: {SPENDER}\n"
        "  - test_spenders.py::test_spender: 1 credit; its costliest message: 1 credit: to 27831234567:"
    ) in output


def test_the_ini_sets_the_suite_budget_and_the_option_overrides_it(pytester, shared):
    pytester.makepyfile(test_spenders=SPENDERS.replace("@pytest.mark.sms_budget(1)\n", ""))
    pytester.makeini("[pytest]\nsms_suite_budget = 2\n")
    over = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    assert over.ret == pytest.ExitCode.TESTS_FAILED and "it spent 3 credits in 2 tests" in over.stdout.str()
    within = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--sms-suite-budget=3")
    assert within.ret == pytest.ExitCode.OK and "sms-emulator suite budget" not in within.stdout.str()


@pytest.mark.sms_budget(0)
def test_a_budget_is_not_judged_on_a_world_the_test_deleted_itself(sms):
    sms.client.send("27831234567", "Hello")
    sms.control.clocks_delete(sms.clock.id)
