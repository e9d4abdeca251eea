"""How an event pattern reads a rendered callee's subscripts.

A callee is rendered with ``[]`` for a subscript (``task_record['app_fu'].set_result``
is ``task_record[].set_result``; docs/configuration.md, "Event classes"), but in an
``fnmatch`` glob ``[`` opens a character class, so the rendering itself was no valid
pattern (an empty class) and a user had to write ``task_record[[]].set_result``. In an
event pattern ``[]`` is always that literal text (an empty class matches nothing,
and fnmatch's ``[]x]``, a class whose first member is ``]``, is no name a callee
has); every other ``[...]`` is a class as before.
"""
from __future__ import annotations

import re

#: ``[]``, but not the inside of ``[[]]``, the fnmatch spelling a pattern may already use
_SUBSCRIPT = re.compile(r"(?<!\[)\[\]")


def literal_subscripts(pattern: str) -> str:
    """The ``fnmatch`` form of an event pattern: ``task_record[].set_result`` →
    ``task_record[[]].set_result`` (``[[]`` is a class holding ``[``, then ``]``)."""
    return _SUBSCRIPT.sub("[[]]", pattern) if "[]" in pattern else pattern
