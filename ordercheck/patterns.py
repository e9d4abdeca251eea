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


#: ``["key"]`` or ``['key']``: a subscript's string key, as a call's keyed name holds it
_KEYED = re.compile(r"""\[(["'])([^"'\[\]]*)\1\]""")


def literal_subscripts(pattern: str) -> str:
    """The ``fnmatch`` form of an event pattern: ``task_record[].set_result`` →
    ``task_record[[]].set_result`` (``[[]`` is a class holding ``[``, then ``]``);
    ``env["mail.message"].create`` (or ``env['mail.message']``) → ``env[[]"mail.message"[]].create``,
    which matches a call's keyed name (``expressions.render_callee``, keyed; a ``*`` in the key
    still matches any text)."""
    if "[" not in pattern:
        return pattern
    if "[]" in pattern:
        pattern = _SUBSCRIPT.sub("[[]]", pattern)
    return _KEYED.sub(lambda m: f'[[]"{m.group(2)}"[]]', pattern)
