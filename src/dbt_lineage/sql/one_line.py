"""Messages from sqlglot as one plain line: no terminal colour codes, no line breaks."""

from __future__ import annotations

import re

_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def one_line(error: BaseException | str) -> str:
    """``error``'s text on one line, without the ANSI escapes sqlglot underlines with.

    >>> one_line("Invalid expression \\x1b[4mfrom\\x1b[0m.\\n  Line 1")
    'Invalid expression from. Line 1'
    """
    return " ".join(_ANSI.sub("", str(error)).split())
