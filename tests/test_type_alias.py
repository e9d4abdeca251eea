"""A `type` alias's value is evaluated lazily (PEP 695): nothing in it is called at the
statement, so it holds no event (as a lambda's body holds none), and every small
statement libcst knows has a row of its own in the extractor's handler table (no
statement is guessed at by a default that walks its children)."""

import sys
import textwrap

import libcst as cst
import pytest
from checkutil import cl

from ordercheck.frontend import Extractor
from ordercheck.ir import FileFacts

needs_312 = pytest.mark.skipif(sys.version_info < (3, 12), reason="`type` statements are Python 3.12 syntax")


def _small_statement_classes():
    return {c for c in vars(cst).values()
            if isinstance(c, type) and issubclass(c, cst.BaseSmallStatement) and c is not cst.BaseSmallStatement}


def test_every_small_statement_has_its_row():
    ex = Extractor(FileFacts(path="m.py", module="m"), ["x = 1"], {})
    missing = {c.__name__ for c in _small_statement_classes()} - {c.__name__ for c in ex.handlers}
    assert not missing
    assert cst.TypeAlias in ex.handlers


def test_a_small_statement_nobody_handles_fails_loudly():
    ex = Extractor(FileFacts(path="m.py", module="m"), ["x = 1"], {})
    del ex.handlers[cst.TypeAlias]
    line = cst.parse_module("type T = int\n").body[0]
    with pytest.raises(TypeError, match="no handler for the statement TypeAlias"):
        ex.statement(line.body[0], line)


@needs_312
def test_a_call_in_a_type_alias_is_no_event():
    src = textwrap.dedent('''
        class Runner:
            def done(self, run):
                try:
                    type T = self._ledger.append_terminal(run)
                except Exception:
                    pass

            def lost(self, run):
                try:
                    type T = int
                    self._ledger.append_terminal(run)
                except Exception:
                    pass
    ''')
    assert cl(src) == [("OC201", 12)]


def test_a_libcst_without_lazy_imports_still_extracts(monkeypatch):
    """``libcst>=1.1`` is the dependency; ``LazyImport`` came in 1.9 (a review: every
    file was an OC901 under libcst 1.8)."""
    from ordercheck import frontend

    for name in ("LazyImport", "LazyImportFrom"):
        monkeypatch.delattr(cst, name, raising=False)
    facts = frontend.extract("m.py", b"import os\ndef f(store, ledger, run):\n    store.save(run)\n", "m")
    assert facts.error is None, facts.error
    assert "f" in [fn.qualname for fn in facts.functions]
