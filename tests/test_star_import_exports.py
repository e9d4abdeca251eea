"""What ``from m import *`` binds (docs/decisions.md, "What a star import binds"): the
names ``m.__all__`` lists, or, without a literal ``__all__``, the names without a
leading underscore, as Python does. Before, a star import resolved any name of the
module (the differential fuzz of session 46: ``_hidden`` through a star), so a helper
Python never imports carried its effects into the caller."""
from __future__ import annotations

import ast
import json
import textwrap
from pathlib import Path

import pytest
from checkutil import SEQ, run_tree, settings_for, write_tree

from ordercheck import frontend, memos, runner
from ordercheck.frontend.imports import module_exports


def exports(src: str):
    return module_exports(ast.parse(textwrap.dedent(src)))


@pytest.mark.parametrize("src, want", [
    ("x = 1\n", None),
    ("__all__ = ['a', 'b']\n", ["a", "b"]),
    ("__all__ = ('a',)\n__all__ += ['_b']\n", ["a", "_b"]),
    ("__all__: list = ['a']\n__all__.extend(('b', 'c'))\n__all__.append('d')\n", ["a", "b", "c", "d"]),
    ("__all__ = ['a']\n__all__ = ['b']\n", ["b"]),
    ("try:\n    __all__ = ['a']\nexcept ImportError:\n    __all__ = ['a', 'b']\n", ["a", "b"]),
    ("if X:\n    __all__ = ['a']\nelse:\n    __all__ = ['c']\n", ["c"]),
    ("__all__ = []\n", []),
    # built any other way: unknown (the underscore rule applies)
    ("__all__ = base.__all__ + ['a']\n", None),
    ("__all__ = ['a', name]\n", None),
    ("__all__ = ['a']\n__all__ += more\n", None),
    ("__all__ += ['a']\n", None),
    ("__all__ = ['a']\ndel __all__\n", None),
    ("__all__ = ['a']\nfor __all__ in x:\n    pass\n", None),
    ("__all__, other = ['a'], 1\n", None),
    ("__all__ = x = ['a']\n", None),
    # a function's own `__all__` is not the module's
    ("def f():\n    __all__ = ['a']\n", None),
    ("__all__ = ['a']\ndef f():\n    __all__ = ['b']\n", ["a"]),
    # changed any other way, anywhere (a review): unknown
    ("__all__ = []\nfor n in names:\n    __all__.append(n)\n", None),
    ("__all__ = ['a', '_b']\n__all__.remove('_b')\n", None),
    ("__all__ = ['a']\n__all__.insert(0, 'c')\n", None),
    ("__all__ = ['a']\ndel __all__[0]\n", None),
    ("__all__ = ['a']\n__all__[0] = 'c'\n", None),
    ("__all__ = ['a']\nwith x:\n    __all__ += ['c']\n", None),
    ("__all__ = ['a']\ndef f():\n    global __all__\n    __all__ = ['c']\n", None),
    # a plain read changes nothing
    ("__all__ = ['a']\nprint(sorted(__all__))\n", ["a"]),
    ("__all__ = ['a', '_b']\nn = __all__.count('a')\n", ["a", "_b"]),
    # (a second review) changed from a function, a lambda or a class body, or bound by
    # an import, an `except ... as`, a `case` capture
    ("__all__ = []\ndef export(fn):\n    __all__.append(fn.__name__)\n    return fn\n", None),
    ("__all__ = []\nadd = lambda n: __all__.append(n)\n", None),
    ("__all__ = []\nclass C:\n    __all__.append('C')\n", None),
    ("__all__ = ['a']\nimport x as __all__\n", None),
    ("__all__ = ['a']\ntry:\n    pass\nexcept E as __all__:\n    pass\n", None),
    ("__all__ = ['a']\nmatch x:\n    case __all__:\n        pass\n", None),
])
def test_the_names_a_module_exports(src, want):
    assert exports(src) == want


OPS = """
    {head}
    def {name}(store, run):
        store.save(run)
"""
RUN = """
    from .ops import *

    def complete(store, ledger, run):
        {name}(store, run)
        ledger.append(run.id)
"""


@pytest.mark.parametrize("head, name, found", [
    ("", "persist", True),  # a public name, no __all__
    ("", "_persist", False),  # a private name is not bound by the star
    ("__all__ = ['_persist']", "_persist", True),  # unless __all__ lists it
    ("__all__ = ['other']; other = None", "persist", False),  # __all__ leaves it out
    ("__all__ = ['persist']", "persist", True),
    ("__all__ = names()", "persist", True),  # unknown __all__: the underscore rule
    ("__all__ = names()", "_persist", False),
])
def test_a_call_through_a_star_import_carries_only_what_the_star_binds(tmp_path, head, name, found):
    write_tree(tmp_path, {"rt/__init__.py": "", "rt/ops.py": OPS.format(head=head, name=name),
                          "rt/run.py": RUN.format(name=name)})
    assert run_tree(tmp_path, select=SEQ) == ([("rt/run.py", 6, "OC102")] if found else [])


def test_a_re_export_through_a_package_init_keeps_the_rule(tmp_path):
    """``pkg/__init__.py`` star-imports ``ops``; ``from pkg import persist`` reaches it
    only when the star binds it (a qualified lookup follows the same rule)."""
    files = {"pkg/__init__.py": "from .ops import *\n",
             "pkg/ops.py": "__all__ = ['save_all']\n\ndef save_all(store, run):\n    store.save(run)\n\n"
                           "def persist(store, run):\n    store.save(run)\n",
             "app/__init__.py": "",
             "app/main.py": """
                 from pkg import persist, save_all

                 def one(store, ledger, run):
                     persist(store, run)
                     ledger.append(run.id)

                 def two(store, ledger, run):
                     save_all(store, run)
                     ledger.append(run.id)
             """}
    write_tree(tmp_path, files)
    assert run_tree(tmp_path, select=SEQ) == [("app/main.py", 10, "OC102")]


def test_a_class_constructed_through_a_star_import(tmp_path):
    """``called_class``: ``_Saver()`` through a star is no project class; ``Saver()`` is."""
    write_tree(tmp_path, {"rt/__init__.py": "", "rt/ops.py": """
        class Saver:
            def __init__(self, store, run):
                store.save(run)

        class _Saver(Saver):
            pass
    """, "rt/run.py": """
        from .ops import *

        def one(store, ledger, run):
            Saver(store, run)
            ledger.append(run.id)

        def two(store, ledger, run):
            _Saver(store, run)
            ledger.append(run.id)
    """})
    assert run_tree(tmp_path, select=SEQ) == [("rt/run.py", 6, "OC102")]


def test_a_changed_all_reaches_a_one_file_run_on_a_warm_cache(tmp_path):
    """The index stub keeps ``__all__``, and a change of it is a change of what other
    files resolve against: the one-file run of the caller sees it."""
    root = tmp_path / "proj"
    write_tree(root, {"pyproject.toml": "", "rt/__init__.py": "",
                      "rt/ops.py": OPS.format(head="__all__ = ['persist']", name="persist"),
                      "rt/run.py": RUN.format(name="persist")})
    cache = tmp_path / "cache"
    settings = settings_for(select=SEQ)

    def one_file():
        got = runner.run([root / "rt" / "run.py"], settings, cache_dir=cache).findings
        return [(Path(f.path).name, f.span.line, f.code) for f in got]

    assert [f.code for f in runner.run([root], settings, cache_dir=cache).findings] == ["OC102"]
    assert one_file() == [("run.py", 6, "OC102")]
    (root / "rt" / "ops.py").write_text(textwrap.dedent(OPS.format(head="__all__ = ['other']", name="persist")))
    assert one_file() == []
    (root / "rt" / "ops.py").write_text(textwrap.dedent(OPS.format(head="", name="persist")))
    assert one_file() == [("run.py", 6, "OC102")]


def test_a_stub_keeps_the_exports():
    for text, want in (("__all__ = ['a', '_b']\n", ["a", "_b"]), ("x = 1\n", None)):
        facts = frontend.outline("m.py", text.encode(), "pkg.m")
        assert facts.exports == want
        record = json.loads(json.dumps(memos.stub_record(facts)))
        assert memos._record_ok(record)
        assert memos.stub_facts("m.py", record).exports == want
        assert frontend.extract("m.py", text.encode(), "pkg.m").exports == want
