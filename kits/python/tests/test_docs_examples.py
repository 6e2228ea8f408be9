"""Every Python block of docs/python.md, docs/cost-checks.md and the kit's README runs as pasted, as a user's test file; a fragment says so."""

import re
from pathlib import Path

KIT = Path(__file__).resolve().parents[1]
PAGES = [KIT.parents[1] / "docs" / "python.md", KIT.parents[1] / "docs" / "cost-checks.md", KIT / "README.md"]
# A fenced block and the line above it, where `<!-- not run: reason -->` exempts a fragment (as test/support/codeBlocks.ts).
BLOCK = re.compile(r"^([^\n]*)\n```(\w*)\n(.*?)^```$", re.M | re.S)


def python_blocks():
    for page in PAGES:
        for above, language, code in BLOCK.findall(page.read_text(encoding="utf-8")):
            if language == "python" and not above.startswith("<!-- not run: "):
                yield page.name, code


def test_every_python_block_of_the_guide_and_readme_passes_as_pasted(pytester):
    blocks = list(python_blocks())
    assert blocks, "docs/python.md shows no Python"
    for index, (page, code) in enumerate(blocks):
        assert "def test_" in code, f"a block of {page} runs no test: mark it <!-- not run: why --> or make it a test file"
        pytester.makepyfile(**{f"test_guide_{index}": code})
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=sum(code.count("def test_") for _, code in blocks))
