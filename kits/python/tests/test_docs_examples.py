"""Every Python example of docs/python.md runs as written, as a user's test file."""

import re
from pathlib import Path

DOCS = Path(__file__).resolve().parents[3] / "docs" / "python.md"


def test_the_examples_of_the_guide_pass_as_written(pytester):
    blocks = re.findall(r"```python\n(.*?)```", DOCS.read_text(encoding="utf-8"), re.S)
    tests = [block for block in blocks if "def test_" in block]
    assert tests, "docs/python.md shows no test"
    for index, block in enumerate(tests):
        pytester.makepyfile(**{f"test_guide_{index}": block})
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=sum(block.count("def test_") for block in tests))
