"""The README is a front page: short, and every link in it leads somewhere."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"


def test_readme_fits_on_a_few_screens() -> None:
    assert len(README.read_text().splitlines()) <= 200


def test_every_relative_link_of_the_readme_exists() -> None:
    links = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", README.read_text())
    local = [link for link in links if "://" not in link]
    assert local, "the README links no documentation page"
    missing = [link for link in local if not (ROOT / link).exists()]
    assert not missing, missing
