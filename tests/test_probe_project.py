"""Project-level resolution found by a conformance probe written from the contract
alone (session 14): a function re-exported by ``from .helpers import *`` in a
package ``__init__`` (or through a chain of star imports) carries its effects, in a
whole-project run and in a one-file run alike."""
from pathlib import Path

import pytest
from checkutil import ALL_DEFAULT, run_tree, settings_for, write_tree

from ordercheck import runner

HELPERS = {
    "pyproject.toml": "",
    "app/__init__.py": "",
    "pkg/helpers.py": """
        def persist(store, run):
            store.save(run)
    """,
}


def one_file(root: Path, name: str):
    """``ordercheck <root>/<name>``: the findings in that file, root-relative."""
    got = runner.run([root / name], settings_for(select=list(ALL_DEFAULT))).findings
    return sorted((Path(f.path).resolve().relative_to(root.resolve()).as_posix(), f.span.line, f.code) for f in got)


@pytest.mark.parametrize("init, imported", [
    ("from .helpers import *", "from pkg import persist"),  # a star re-export
    ("from pkg.helpers import *", "from pkg import persist"),  # spelled absolute
    ("from .helpers import persist", "from pkg import persist"),  # named
    ("", "from pkg.helpers import persist"),  # direct
])
def test_a_star_re_export_carries_the_helpers_effects(tmp_path, init, imported):
    write_tree(tmp_path, {**HELPERS, "pkg/__init__.py": init, "app/main.py": f"""
        {imported}

        def complete(store, ledger, run):
            persist(store, run)
            ledger.append_terminal(run)
    """})
    assert run_tree(tmp_path) == [("app/main.py", 6, "OC101")]
    assert one_file(tmp_path, "app/main.py") == [("app/main.py", 6, "OC101")]


def test_a_chain_of_star_imports(tmp_path):
    write_tree(tmp_path, {**HELPERS, "pkg/__init__.py": "", "pkg/mid.py": "from pkg.helpers import *\n",
                          "app/main.py": """
        from pkg.mid import *

        def complete(store, ledger, run):
            try:
                persist(store, run)
            except Exception:
                pass
            ledger.append_terminal(run)
    """})
    expected = [("app/main.py", 6, "OC203"), ("app/main.py", 9, "OC101")]
    assert run_tree(tmp_path) == expected
    assert one_file(tmp_path, "app/main.py") == expected


def test_a_name_the_star_module_does_not_define_resolves_to_nothing(tmp_path):
    write_tree(tmp_path, {**HELPERS, "pkg/__init__.py": "from .helpers import *\n", "app/main.py": """
        from pkg import keep

        def complete(store, ledger, run):
            keep(store, run)
            ledger.append_terminal(run)
    """})
    assert run_tree(tmp_path) == []
