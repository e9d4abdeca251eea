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


# An alias bound in another module (session 15): `keep = persist` in the helpers'
# module, `from pkg.helpers import keep` in the caller. Python calls `persist`; the
# contract's alias rule (§2) speaks of calls in the binding module and is silent on
# an import of the alias, so the engine follows Python (docs/decisions.md, "An alias
# imported from another module").
@pytest.mark.parametrize("binding, imported", [
    ("keep = persist", "from pkg.helpers import keep"),
    ("keep = persist", "import pkg.helpers as h\nkeep = h.keep"),  # an alias of the imported alias
    ("from pkg import store_ops\nkeep = store_ops.persist", "from pkg.helpers import keep"),  # to another module
    ("keep = persist\nagain = keep", "from pkg.helpers import again"),  # an alias of an alias
])
def test_an_alias_imported_from_another_module_carries_the_effects(tmp_path, binding, imported):
    name = "again" if "again" in imported else "keep"
    write_tree(tmp_path, {
        "pyproject.toml": "", "app/__init__.py": "", "pkg/__init__.py": "",
        "pkg/store_ops.py": "def persist(store, run):\n    store.save(run)\n",
        "pkg/helpers.py": "from pkg.store_ops import persist\n" + binding + "\n",
        "app/main.py": f"{imported}\n\ndef complete(store, ledger, run):\n    {name}(store, run)\n"
                       "    ledger.append_terminal(run)\n",
    })
    line = len(imported.splitlines()) + 4
    assert run_tree(tmp_path) == [("app/main.py", line, "OC101")]
    assert one_file(tmp_path, "app/main.py") == [("app/main.py", line, "OC101")]


# A module variable of a known class, imported from another module (session 17,
# from a conformance probe): `from pkg.runtime import STORE` then `STORE.persist(run)`
# is `RunStore.persist`, as it is in the module that binds `STORE`.
@pytest.mark.parametrize("binding, call", [
    ("STORE = RunStore()", "STORE.persist(store, run)"),
    ("STORE: RunStore = make_store()", "STORE.persist(store, run)"),
    ("STORE: 'Optional[RunStore]' = None", "STORE.persist(store, run)"),
    ("_default = RunStore()\npersist = _default.persist", "persist(store, run)"),  # a bound method
])
def test_a_module_variables_type_crosses_an_import(tmp_path, binding, call):
    name = call.split(".")[0].split("(")[0]
    write_tree(tmp_path, {
        "pyproject.toml": "", "app/__init__.py": "", "pkg/__init__.py": "",
        "pkg/stores.py": "class RunStore:\n    def persist(self, store, run):\n        store.save(run)\n",
        "pkg/runtime.py": "from typing import Optional\nfrom pkg.stores import RunStore\n\n"
                          "def make_store():\n    return RunStore()\n\n" + binding + "\n",
        "app/main.py": f"from pkg.runtime import {name}\n\ndef complete(store, ledger, run):\n    {call}\n"
                       "    ledger.append_terminal(run)\n",
    })
    assert run_tree(tmp_path) == [("app/main.py", 5, "OC101")]
    assert one_file(tmp_path, "app/main.py") == [("app/main.py", 5, "OC101")]


def test_a_module_variable_of_no_single_class_or_called_itself_carries_nothing(tmp_path):
    write_tree(tmp_path, {
        "pyproject.toml": "", "app/__init__.py": "", "pkg/__init__.py": "",
        "pkg/runtime.py": """
            class RunStore:
                def __init__(self, store=None, run=None):
                    if store is not None:
                        store.save(run)  # (what `RunStore(store, run)` would carry)

                def persist(self, store, run):
                    store.save(run)

            class Other:
                def persist(self, store, run):
                    return run

            STORE = RunStore()
            STORE = Other()
            ONE = RunStore()
        """,
        "app/main.py": """
            from pkg.runtime import STORE, ONE

            def complete(store, ledger, run):
                STORE.persist(store, run)
                ONE(store, run)
                ledger.append_terminal(run)
        """,
    })
    assert run_tree(tmp_path) == []


def test_an_alias_rebound_twice_or_to_no_function_carries_nothing(tmp_path):
    write_tree(tmp_path, {
        "pyproject.toml": "", "app/__init__.py": "", "pkg/__init__.py": "",
        "pkg/helpers.py": """
            def persist(store, run):
                store.save(run)

            def other(store, run):
                return run

            keep = persist
            keep = other
            ext = json.dumps
        """,
        "app/main.py": """
            from pkg.helpers import keep, ext

            def complete(store, ledger, run):
                keep(store, run)
                ext(run)
                ledger.append_terminal(run)
        """,
    })
    assert run_tree(tmp_path) == []


def test_editing_the_alias_changes_a_cached_run(tmp_path):
    write_tree(tmp_path, {
        "pyproject.toml": "", "app/__init__.py": "", "pkg/__init__.py": "",
        "pkg/helpers.py": "def persist(store, run):\n    store.save(run)\n\ndef other(store, run):\n    return run\n\n"
                          "keep = other\n",
        "app/main.py": "from pkg.helpers import keep\n\ndef complete(store, ledger, run):\n    keep(store, run)\n"
                       "    ledger.append_terminal(run)\n",
    })
    cache = tmp_path / ".cache"
    s = settings_for(select=list(ALL_DEFAULT))
    assert runner.run([tmp_path], s, cache_dir=cache).findings == []
    helpers = tmp_path / "pkg" / "helpers.py"
    helpers.write_text(helpers.read_text().replace("keep = other", "keep = persist"))
    warm = runner.run([tmp_path], s, cache_dir=cache).findings
    cold = runner.run([tmp_path], s).findings
    assert [(f.code, f.span.line) for f in warm] == [(f.code, f.span.line) for f in cold] == [("OC101", 5)]
