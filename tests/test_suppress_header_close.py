"""A suppression comment on the closing line of a compound statement's header (``):``
of ``if (``, ``while (``, ``for x in (``, ``with (``, ``match (``, ``case _ if (``, a
``def`` whose parameters close on their own line) suppresses a finding in that header:
the header runs to its colon (a session-38 probe: the closing line was read as the
body's, so neither it nor any other line but the first suppressed). A comment on the
body's first line still does not: that line is another statement."""
from __future__ import annotations

import json

import pytest
from cliutil import oc

CASES = {
    "if": ('def k(store, ledger, run):\n    store.save(run)\n    if (\n        ledger.append("step")\n'
           '    ):{c}\n        pass{b}\n', 4),
    "while": ('def w(store, ledger, run):\n    store.save(run)\n    while (\n        ledger.append("step")\n'
              '    ):{c}\n        break{b}\n', 4),
    "for": ('def f(store, ledger, run):\n    store.save(run)\n    for x in (\n        ledger.append("step")\n'
            '    ):{c}\n        pass{b}\n', 4),
    "for-nested-parens": ('def f(store, ledger, run):\n    store.save(run)\n    for x in ((\n        ledger.append("step")\n'
                          '    )\n    ):{c}\n        pass{b}\n', 4),
    "with": ('def t(store, ledger, run):\n    store.save(run)\n    with (\n        ledger.append("step") as h,\n'
             '    ):{c}\n        pass{b}\n', 4),
    "case-guard": ('def g(store, ledger, run):\n    store.save(run)\n    match run:\n        case _ if (\n'
                   '            ledger.append("step")\n        ):{c}\n            pass{b}\n', 5),
    "match": ('def m(store, ledger, run):\n    store.save(run)\n    match (\n        ledger.append("step")\n'
              '    ):{c}\n        case _:\n            pass{b}\n', 4),
    "elif-backslash": ('def k(store, ledger, run, a):\n    store.save(run)\n    if a:\n        pass\n'
                       '    elif ledger.append("step") \\\n        :{c}\n        pass{b}\n', 5),
    "def": ('def outer(store, ledger, run):\n    store.save(run)\n    def g(\n        x=ledger.append("step"),\n'
            '    ):{c}\n        pass{b}\n    return g\n', 4),
}


def _findings(tmp_path, source):
    (tmp_path / "m.py").write_text(source)
    r = oc(tmp_path, "--no-cache", "--isolated", "--select", "OC102", "--format", "json", "m.py")
    return [(d["code"], d["range"]["start"]["line"] + 1) for f in json.loads(r.out)["files"] for d in f["diagnostics"]]


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_comment_on_the_headers_closing_line_suppresses(tmp_path, name):
    template, line = CASES[name]
    assert _findings(tmp_path, template.format(c="", b="")) == [("OC102", line)]
    assert _findings(tmp_path, template.format(c="  # noqa: OC102", b="")) == []


@pytest.mark.parametrize("name", ["if", "with", "for"])
def test_a_comment_on_the_bodys_line_does_not(tmp_path, name):
    template, line = CASES[name]
    assert _findings(tmp_path, template.format(c="", b="  # noqa: OC102")) == [("OC102", line)]


def test_a_def_whose_return_annotation_follows_keeps_the_last_read_part(tmp_path):
    """A part before the colon that the front end does not read (a return annotation)
    stops the header at the last part it does read: that line still suppresses."""
    src = ('def outer(store, ledger, run):\n    store.save(run)\n    def g(\n        x=ledger.append("step"),{c}\n'
           '    ) -> int:\n        return 1\n    return g\n')
    assert _findings(tmp_path, src.format(c="")) == [("OC102", 4)]
    assert _findings(tmp_path, src.format(c="  # noqa: OC102")) == []
