"""Suppression comments read from the regions that can hold one (``comments``'s fast
path with the ``ast``) are exactly those of the whole file's tokens."""
from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import pytest

from ordercheck.frontend import comments
from ordercheck.frontend.comments import find_suppressions

ROOT = Path(__file__).resolve().parent.parent

CASES = {
    "plain": "x = 1  # noqa\n",
    "in a string": 's = "# noqa"\nt = 1  # ordercheck: ignore[OC101] -- why\n',
    "string then comment": 'x = "# noqa: OC101"  # noqa: OC102\n',
    "triple-quoted": 'doc = """\n# noqa\n  # ordercheck: ignore\n"""\ny = 2  # noqa\n',
    "docstring in a method": textwrap.dedent('''\
        class A:
            def f(self):
                """
                # noqa: OC101
                """
                save()  # noqa: OC102
        '''),
    "after a semicolon in a string": 'a = """x\n"""; b = 1  # noqa\nc = """\n# noqa\n"""; d = 2\n',
    "except header nested": textwrap.dedent('''\
        class A:
            def f(self):
                try:
                    x()
                except ValueError:  # noqa: OC201
                    pass
                else:  # noqa
                    y()
                finally:  # noqa
                    z()
        '''),
    "comment lines between statements": textwrap.dedent('''\
        import os  # noqa
        # noqa: OC101 on its own line

        def f():
            # ordercheck: ignore[OC102] -- inside
            return 1
            # noqa after the last statement
        # noqa at module level after a function
        '''),
    "decorators": textwrap.dedent('''\
        @decorate(  # noqa
            "# noqa in a string",
        )
        def f():
            pass

        class B:
            @property  # noqa: OC103
            def g(self):
                pass
        '''),
    "continuation": 'x = 1 + \\\n    2  # noqa\ny = (\n  3,  # noqa: OC101\n  "# noqa",\n)\n',
    "f-strings": 'x = f"{1}# noqa"  # ordercheck: ignore\ny = f"""\n{x}  # noqa\n"""\n',
    "compound on one line": 'if True: y = """\n# noqa\n"""  # noqa: OC101\n',
    "match": textwrap.dedent('''\
        def f(v):
            match v:
                case 1:  # noqa
                    pass
                case _:
                    s = "# noqa"  # noqa: OC102
        '''),
    "elif and while": textwrap.dedent('''\
        def f(v):
            if v:
                pass
            elif not v:  # noqa
                pass
            while v:
                v -= 1
            else:  # noqa
                pass
        '''),
    "tabs and form feeds": "def f():\n\tx = 1  # noqa\n\f\ndef g():\n\ty = '# noqa'  # noqa: OC101\n",
    "nothing": "x = 'noqa'\n",
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_regions_read_as_the_whole_file(name):
    text = CASES[name]
    tree = ast.parse(text)
    whole = find_suppressions(text)
    assert find_suppressions(text, tree) == whole
    assert comments._comments_near(text, tree) is not None  # (not by the whole-file fallback)


def test_the_cases_hold_suppressions_in_strings_and_comments():
    """The cases above can fail: they hold comments the fast path must find and
    look-alikes inside strings it must not take."""
    got = find_suppressions(CASES["triple-quoted"], ast.parse(CASES["triple-quoted"]))
    assert [s.line for s in got] == [5]
    got = find_suppressions(CASES["string then comment"], ast.parse(CASES["string then comment"]))
    assert [(s.line, s.codes, s.col) for s in got] == [(1, ("OC102",), 21)]
    got = find_suppressions(CASES["except header nested"], ast.parse(CASES["except header nested"]))
    assert [s.line for s in got] == [5, 7, 9]


def test_regions_are_small(monkeypatch):
    """The fast path tokenizes the statement that holds a comment, not the file."""
    body = "".join(f"def f{i}():\n    return {i}\n\n" for i in range(200))
    text = body + "def g():\n    x = 1  # noqa\n"
    read = []
    real = comments._comments

    def spy(readline, first_line=1, last_line=None):
        read.append((first_line, last_line))
        return real(readline, first_line, last_line)

    monkeypatch.setattr(comments, "_comments", spy)
    got = find_suppressions(text, ast.parse(text))
    assert [s.line for s in got] == [602]
    assert read == [(602, 602)]


def test_a_region_that_does_not_tokenize_falls_back_to_the_whole_file(monkeypatch):
    text = "x = 1  # noqa\n"
    monkeypatch.setattr(comments, "_comments_near", lambda text, tree: None)
    assert [s.line for s in find_suppressions(text, ast.parse(text))] == [1]


def test_every_file_of_the_repository():
    """Both paths agree on every Python file here (fixtures, tests, the engine)."""
    for path in sorted(ROOT.rglob("*.py")):
        if ".venv" in path.parts or "build" in path.parts:
            continue
        text = path.read_text(encoding="utf-8")
        try:
            tree = ast.parse(text)
        except SyntaxError:
            continue
        assert find_suppressions(text, tree) == find_suppressions(text), path


@pytest.mark.parametrize("comment, codes", [
    ("# noqa: OC102 OC101", ("OC102", "OC101")),
    ("# noqa: OC101, OC102", ("OC101", "OC102")),
    ("# noqa: E501 OC102", ("E501", "OC102")),
    ("# ordercheck: ignore[OC101 OC102]", ("OC101", "OC102")),
    ("# noqa: OC101 because of words", ("OC101",)),
])
def test_codes_are_separated_by_commas_or_spaces(comment, codes):
    """(A review, session 41.) `# noqa: OC102 OC101` read only the first code, so
    OC101 stayed and OC001 never said so; flake8 and ruff take spaces too."""
    [s] = find_suppressions(f"x = 1  {comment}\n")
    assert s.codes == codes


def test_a_space_separated_noqa_suppresses_both_findings(tmp_path):
    from checkutil import check_source
    src = """
        def f(store, ledger, run):
            store.save(run)
            ledger.append_terminal(run)  # noqa: OC102 OC101
            ledger.append(run)  # noqa: OC102
    """
    assert check_source(src, select=["OC101", "OC102"]) == []
