"""Benchmarks write what they print into the performance page (or, for ``bench_diff``, the
diff page), with machine and date; every figure block on those pages was written by a script
that exists."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "benchmarks"))

from benchkit.docs_figures import PAGE, docs_figures  # noqa: E402

_MARKERS = re.compile(r"<!-- benchmark (\S+): start -->\n(.*?)<!-- benchmark \1: end -->", re.S)


def _page(tmp_path: Path) -> Path:
    page = tmp_path / "performance.md"
    page.write_text(
        "# Performance\n\n<!-- benchmark bench_x: start -->\nold figures\n"
        "<!-- benchmark bench_x: end -->\n\nafter\n"
    )
    return page


def test_with_docs_the_printed_figures_replace_the_block(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    page = _page(tmp_path)
    monkeypatch.setattr(sys, "argv", ["bench_x.py", "--repeat", "3", "--docs"])
    seen: list[list[str]] = []

    def main() -> int:
        seen.append(list(sys.argv))
        print("| figure | median |\n|---|---|\n| cold | 1.5 s |")
        return 0

    assert docs_figures("bench_x", main, page) == 0
    assert seen == [["bench_x.py", "--repeat", "3"]]  # the script never sees --docs
    assert "| cold | 1.5 s |" in capsys.readouterr().out  # still printed
    text = page.read_text()
    assert "old figures" not in text and text.endswith("\nafter\n")
    block = _MARKERS.search(text)[2]
    assert "by `python bench_x.py --repeat 3 --docs`" in block
    assert re.search(r"Measured \d{4}-\d\d-\d\d \d\d:\d\d UTC .* \d+ cores, \d+ GiB", block)
    assert "load average" in block and "| cold | 1.5 s |" in block


def test_a_run_over_budget_is_written_with_its_exit_code_and_no_flag_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = _page(tmp_path)
    before = page.read_text()
    monkeypatch.setattr(sys, "argv", ["bench_x.py"])
    assert docs_figures("bench_x", lambda: print("figures") or 0, page) == 0
    assert page.read_text() == before
    monkeypatch.setattr(sys, "argv", ["bench_x.py", "--docs"])
    assert docs_figures("bench_x", lambda: print("9 s, OVER the 5 s budget") or 1, page) == 1
    block = _MARKERS.search(page.read_text())[2]
    assert "exited with code 1" in block and "OVER the 5 s budget" in block


def test_a_run_that_raises_leaves_the_page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    page = _page(tmp_path)
    before = page.read_text()
    monkeypatch.setattr(sys, "argv", ["bench_x.py", "--docs"])

    def broken() -> int:
        print("half the figures")
        raise RuntimeError("the build failed")

    with pytest.raises(RuntimeError):
        docs_figures("bench_x", broken, page)
    assert page.read_text() == before


def test_a_page_without_the_markers_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = tmp_path / "performance.md"
    page.write_text("# Performance\n")
    monkeypatch.setattr(sys, "argv", ["bench_y.py", "--docs"])
    with pytest.raises(SystemExit, match="no markers for bench_y"):
        docs_figures("bench_y", lambda: 0, page)


@pytest.mark.parametrize(("page", "least"), [(PAGE, 4), (REPO / "docs" / "diff.md", 1)])
def test_every_figure_block_of_the_page_was_written_by_a_script(page: Path, least: int) -> None:
    blocks = _MARKERS.findall(page.read_text())
    assert len(blocks) >= least
    for name, block in blocks:
        assert (REPO / "benchmarks" / f"{name}.py").is_file(), name
        stamp = rf"Measured \d{{4}}-\d\d-\d\d \d\d:\d\d UTC by `python {name}\.py.*--docs` on \d+ "
        written = f"the {name} block was not written by `python benchmarks/{name}.py --docs`"
        assert re.match(stamp, block), written


def test_a_script_writes_its_table_end_to_end(tmp_path: Path) -> None:
    """The real script, through its ``__main__``: ``--docs`` reaches the page, not argparse."""
    script = tmp_path / "bench_engine_copy.py"
    page = _page(tmp_path)
    script.write_text(
        f"import sys, argparse, pathlib\nsys.path.insert(0, {str(REPO / 'benchmarks')!r})\n"
        "from benchkit.docs_figures import docs_figures\n"
        "def main():\n"
        "    argparse.ArgumentParser().parse_args()\n"
        "    print('| case | s |')\n"
        "    return 0\n"
        f"raise SystemExit(docs_figures('bench_x', main, pathlib.Path({str(page)!r})))\n"
    )
    done = subprocess.run([sys.executable, str(script), "--docs"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "| case | s |" in page.read_text()
