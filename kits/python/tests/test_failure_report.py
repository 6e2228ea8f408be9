"""A failing test shows the emulator's timeline of its account: a file, named in the failure output."""

import re
from pathlib import Path


def test_a_failing_test_names_its_timeline_file_in_its_output(pytester):
    pytester.makepyfile(
        """
        def test_fails_on_a_status(sms):
            sent = sms.client.send("27831234567", "Are you there?")
            assert sent["status"] == "delivered", sent["id"]

        def test_passes(sms):
            sms.client.send("27831234567", "Fine")
        """
    )
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(failed=1, passed=1)
    output = result.stdout.str()
    match = re.search(r"the emulator's timeline of this test's account: (\S+\.html)", output)
    assert match is not None, output
    page = Path(match.group(1)).read_text(encoding="utf-8")
    message_id = re.search(r"AssertionError: ([0-9a-f-]{36})", output).group(1)
    assert message_id in page
    assert output.count("sms-emulator timeline") == 1
