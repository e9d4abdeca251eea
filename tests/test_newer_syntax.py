"""Code written for a newer Python than the one running ordercheck.

ordercheck reads a file with the running Python's ``ast.parse``: on 3.11, a PEP 695
``type`` statement, a generic ``def f[T]()`` or a PEP 701 f-string (quotes of the
same kind inside the braces) is a syntax error. The file is then one OC900, and its
message says the grammar of a newer Python reads it (docs/decisions.md, "Syntax of a
newer Python"), so nobody looks for a typo that is not there. Under a Python that
reads the syntax, the file is checked like any other.
"""
from __future__ import annotations

import json
import sys

import pytest
from cliutil import oc, write

NEWER = {
    "type_alias.py": """\
        type Runs = list[int]

        def finish(store, ledger, run):
            store.save(run)
            ledger.append_record({"status": "failed"})
        """,
    "generic_def.py": """\
        def finish[T](store, ledger, run: T) -> None:
            store.save(run)
            ledger.append_record({"status": "failed"})
        """,
    "pep701.py": """\
        def finish(store, ledger, run):
            store.save(run)
            ledger.append_record(f"{run["id"]}:failed")
        """,
    # (the thirtieth held-out set's openhands-sdk: a line break in a one-line string's braces)
    "pep701_multiline.py": """\
        def finish(store, ledger, run):
            store.save(run)
            ledger.append_record(f"{
                run.id
            }:failed")
        """,
}

READS_NEWER = sys.version_info >= (3, 12)


def _diagnostics(run):
    data = json.loads(run.out)
    return {(f["path"], d["code"], d["range"]["start"]["line"] + 1, d["message"])
            for f in data["files"] for d in f["diagnostics"]}


@pytest.mark.parametrize("name", sorted(NEWER))
def test_newer_syntax_is_named_or_read(tmp_path, name):
    write(tmp_path, name, NEWER[name])
    run = oc(tmp_path, "--no-cache", "--format", "json", name)
    assert run.code == 1, run
    found = _diagnostics(run)
    if READS_NEWER:
        # this Python reads the file: its terminal append after the save is found
        assert {(p, c) for p, c, _, _ in found} == {(name, "OC101")}, run
    else:
        [(path, code, _, message)] = found
        assert (path, code) == (name, "OC900")
        assert "cannot read this file, but the grammar of a newer Python can" in message
        assert f"Python {sys.version_info[0]}.{sys.version_info[1]}," in message


def test_a_real_syntax_error_has_no_hint(tmp_path):
    write(tmp_path, "broken.py", "def finish(:\n    pass\n")
    run = oc(tmp_path, "--no-cache", "--format", "json", "broken.py")
    [(_, code, line, message)] = _diagnostics(run)
    assert (code, line) == ("OC900", 1)
    assert "SyntaxError" in message
    assert "newer Python" not in message


def test_the_hint_comes_from_the_cache_too(tmp_path):
    """A warm run reads the finding from the cache: the same message."""
    write(tmp_path, "pep701.py", NEWER["pep701.py"])
    cold = oc(tmp_path, "--format", "json", "pep701.py")
    warm = oc(tmp_path, "--format", "json", "pep701.py")
    assert _diagnostics(cold) == _diagnostics(warm)
    assert cold.code == warm.code == 1


@pytest.mark.parametrize("text", [
    'data = b"café"\n',
    'data = "\\x4"\n',
    "def flat(xss):\n    return [*xs for xs in xss]\n",
    'name = "\\N{NO SUCH NAME}"\n',
])
def test_an_error_no_python_accepts_has_no_hint_though_libcst_reads_it(tmp_path, text):
    """libcst's parser takes these; no Python does. The hint asks for a newer
    construct on the line CPython refused."""
    (tmp_path / "bad.py").write_text(text, encoding="utf-8")
    run = oc(tmp_path, "--no-cache", "--format", "json", "bad.py")
    [(_, code, _, message)] = _diagnostics(run)
    assert code == "OC900"
    assert "newer Python" not in message


PEP758 = """\
    def finish(store, ledger, run):
        try:
            store.save(run)
        except ValueError, TypeError:
            ledger.append_record({"status": "failed"})
    """


@pytest.mark.parametrize("clause, hinted", [
    ("except ValueError, TypeError:", True),
    ("except errors.Timeout, OSError:", True),
    ("except Exception, e:", False),  # Python 2's binding: no newer grammar
    ("except Exception, Err:", False),  # ... whose bound name the body reads (a review)
    ("except Exception, Err:\n            raise Wrapped(Err)\n        except ValueError, Wrapped:", False),
])
def test_unparenthesized_exception_types_are_named(tmp_path, clause, hinted):
    # (held-out set 181, bengal: 92 bare OC900s on Python 3.14's `except A, B:`)
    text = PEP758.replace("except ValueError, TypeError:", clause)
    if "Err:" in clause:
        text = text.replace('ledger.append_record({"status": "failed"})', 'ledger.append_record(Err)')
    write(tmp_path, "m.py", text)
    run = oc(tmp_path, "--no-cache", "--format", "json", "m.py")
    found = _diagnostics(run)
    if sys.version_info >= (3, 14) and hinted:  # this Python reads `except A, B:` (PEP 758)
        assert "OC900" not in {c for _, c, _, _ in found}, run
        return
    [(_, code, line, message)] = found
    assert (code, line) == ("OC900", 4)
    assert ("grammar of a newer Python can" in message) == hinted, message
