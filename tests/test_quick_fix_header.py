"""The editor's quick fix for a finding in a decorator or a class header whose logical
line ends on neither line a suppression is read on (session 37): the comment goes to the
end of the statement's header, read from the diagnostic's ``data.statement``."""
from __future__ import annotations

import json

import pytest
from cliutil import oc, write

from ordercheck import lsp

CONFIG = '[extend-events]\nsave = ["*.save_run"]\nappend = ["*.append_event"]\n'

DECORATOR = '''def f(store, ledger, register):
    store.save_run(1)
    @register(ledger.append_event("""x
        y"""))
    def g():
        pass
    return g
'''

CLASS_HEADER = '''def f(store, ledger, make):
    store.save_run(1)
    class C(make(ledger.append_event("""x
        y""")), object):
        pass
    return C
'''


def _diagnostic(tmp_path, source):
    write(tmp_path, "ordercheck.toml", CONFIG)
    (tmp_path / "q.py").write_text(source)
    r = oc(tmp_path, "--no-cache", "--select", "OC102", "--format", "json", "q.py")
    [d] = [d for f in json.loads(r.out)["files"] for d in f["diagnostics"]]
    return d


@pytest.mark.parametrize("source, header_row, logical_end", [(DECORATOR, 4, 3), (CLASS_HEADER, 3, 3)])
def test_the_quick_fix_for_a_finding_in_a_header_suppresses_it(tmp_path, source, header_row, logical_end):
    d = _diagnostic(tmp_path, source)
    assert d["data"]["statement"][-1] == header_row
    lines = source.splitlines(True)
    anchor = d["range"]["start"]["line"]
    at = lsp.comment_line(lines, anchor, d["data"]["statement"])
    assert at == header_row
    start, end, text = lsp.suppression_edit(lines[at], "OC102", lsp.comment_column(lines, at))
    body = lines[at].rstrip("\n")
    fixed = "".join(lines[:at]) + body[:start] + text + body[end:] + "\n" + "".join(lines[at + 1:])
    (tmp_path / "q.py").write_text(fixed)
    assert oc(tmp_path, "--no-cache", "--select", "OC102", "q.py").code == 0
    # a decorator's logical line ends before the header: without the statement the
    # comment would go there; a class header's logical line is the header
    assert lsp.comment_line(lines, anchor) == logical_end


def test_a_comment_at_the_end_of_a_multiline_header_suppresses(tmp_path):
    source = ('def f(store, ledger):\n    store.save_run(1)\n'
              '    def g(x=ledger.append_event("""a\n        b"""),\n          y=2):  # ordercheck: ignore[OC102]\n'
              '        pass\n    return g\n')
    write(tmp_path, "ordercheck.toml", CONFIG)
    (tmp_path / "q.py").write_text(source)
    assert oc(tmp_path, "--no-cache", "--select", "OC102", "q.py").code == 0
    (tmp_path / "q.py").write_text(source.replace("  # ordercheck: ignore[OC102]", ""))
    assert oc(tmp_path, "--no-cache", "--select", "OC102", "q.py").code == 1


def test_a_statement_that_holds_the_logical_line_keeps_it():
    lines = ['def a(store, ledger, run):\n', '    store.save(run)\n', '    ledger.append("""\n', '    text""")\n']
    assert lsp.comment_line(lines, 2, [2, 3]) == 3
    assert lsp.comment_line(lines, 2, ["x", None]) == 3  # a client's garbage is ignored


def test_a_comment_on_the_def_or_class_line_of_a_decorated_multiline_header_suppresses(tmp_path):
    # (a second review) the statement of a finding in a header runs from the `def` or
    # `class` line to the header's end, decorated or not
    write(tmp_path, "ordercheck.toml", CONFIG)
    for header in ('def f(  # ordercheck: ignore[OC102] -- reviewed\n        a,\n'
                   '        b=ledger.append_event("x"),\n    ):\n        pass\n',
                   'class C(  # ordercheck: ignore[OC102] -- reviewed\n        make(ledger.append_event("x")),\n'
                   '    ):\n        pass\n'):
        source = ("def outer(store, ledger, deco, make):\n    store.save_run(1)\n\n    @deco\n    "
                  + header + "    return 1\n")
        (tmp_path / "q.py").write_text(source)
        r = oc(tmp_path, "--no-cache", "--select", "OC102,OC001", "q.py")
        assert r.code == 0, (source, r)
        (tmp_path / "q.py").write_text(source.replace("  # ordercheck: ignore[OC102] -- reviewed", ""))
        assert oc(tmp_path, "--no-cache", "--select", "OC102", "q.py").code == 1


IF_HEADER_STRING_BODY = '''def k(store, ledger, run, foo):
    store.save_run(run)
    if (
        ledger.append_event("""a
b""")
    ): foo("""x
y""")
'''


def test_the_quick_fix_goes_to_the_headers_first_line_when_its_colon_line_ends_in_a_string(tmp_path):
    """(A session-38 review.) The header of `if (` ... `):` runs to its colon, and that
    line starts a one-line body whose string goes on: a comment cannot end that line,
    and after the string it is on no line of the statement; the header's first line
    takes it."""
    d = _diagnostic(tmp_path, IF_HEADER_STRING_BODY)
    assert d["data"]["statement"] == [2, 5]
    lines = IF_HEADER_STRING_BODY.splitlines(True)
    at = lsp.comment_line(lines, d["range"]["start"]["line"], d["data"]["statement"])
    assert at == 2
    start, end, text = lsp.suppression_edit(lines[at], "OC102", lsp.comment_column(lines, at))
    body = lines[at].rstrip("\n")
    fixed = "".join(lines[:at]) + body[:start] + text + body[end:] + "\n" + "".join(lines[at + 1:])
    (tmp_path / "q.py").write_text(fixed)
    assert oc(tmp_path, "--no-cache", "--select", "OC102", "q.py").code == 0


@pytest.mark.parametrize("comment, expected", [
    ("  # noqa: OC202 -- legacy", "  # noqa: OC202, OC102 -- legacy"),
    ("  # noqa: E501, OC202", "  # noqa: E501, OC202, OC102"),
    ("  # noqa: E501 -- long  # noqa: OC202 -- legacy", "  # noqa: E501 -- long  # noqa: OC202, OC102 -- legacy"),
    ("  # noqa: E501 -- long", "  # noqa: E501 -- long  # ordercheck: ignore[OC102] -- "),
])
def test_the_quick_fix_beside_a_directive_of_ours_adds_its_code_to_it(tmp_path, comment, expected):
    """(A session-38 probe.) Beside `# noqa: OC202 -- legacy` the quick fix appended
    `  # ordercheck: ignore[OC102] -- `, which the reason before it swallows: the
    finding stayed. It now adds the code to the directive of ours; another tool's
    directive still gets one of ours after it."""
    write(tmp_path, "ordercheck.toml", CONFIG)
    source = f"def f(store, ledger):\n    store.save_run(1)\n    ledger.append_event(2){comment}\n"
    (tmp_path / "q.py").write_text(source)
    r = oc(tmp_path, "--no-cache", "--select", "OC102", "--format", "json", "q.py")
    [d] = [d for f in json.loads(r.out)["files"] for d in f["diagnostics"]]
    lines = source.splitlines(True)
    at = lsp.comment_line(lines, d["range"]["start"]["line"], d["data"]["statement"])
    start, end, text = lsp.suppression_edit(lines[at], "OC102", lsp.comment_column(lines, at))
    body = lines[at].rstrip("\n")
    fixed_line = body[:start] + text + body[end:]
    assert fixed_line == "    ledger.append_event(2)" + expected
    (tmp_path / "q.py").write_text("".join(lines[:at]) + fixed_line + "\n")
    assert oc(tmp_path, "--no-cache", "--select", "OC102", "q.py").code == 0
