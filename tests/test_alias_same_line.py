"""An alias bound and used on the same line (``save = store.save; save(run)``): the
contract's "bound once ... before its use" is judged by where the assignment ends and
the call starts, not by line alone (docs/decisions.md "Aliases of aliases, annotated
aliases, ..."). Both front ends (the outline pre-pass and the libcst pass) must agree,
so each case runs with the pre-pass on and off."""
import pytest
from conformance import run_files

from ordercheck import runner

TYPES = """\
class RunStore:
    def save(self, run): ...


class Ledger:
    def append(self, rec): ...


"""
TABLE = {"events": {"save": ["*.RunStore.save"], "append": ["*.Ledger.append"]}}


@pytest.mark.parametrize("prepass", [True, False])
@pytest.mark.parametrize("body", [
    # bound, then used, on one line: the alias applies
    """\
def finish(store: RunStore, ledger: Ledger, run):
    save = store.save; save(run)
    ledger.append("run_completed")   # !OC101
""",
    # a non-ASCII string before them: columns are compared in the ast's bytes
    """\
def finish(store: RunStore, ledger: Ledger, run):
    note = "é→ü"; save = store.save; save(run)
    ledger.append("run_completed")   # !OC101
""",
    # the module's alias, bound and used on one line of a function's caller
    """\
def finish(store: RunStore, ledger: Ledger, run):
    put = ledger.append; store.save(run); put("run_failed")   # !OC101
""",
    # used before it is bound on the same line: no alias yet (a NameError at run time)
    """\
def finish(store: RunStore, ledger: Ledger, run):
    save(run); save = store.save
    ledger.append("run_completed")
""",
    # bound twice (once after a use inside the first binding's value): no alias
    """\
def finish(store: RunStore, ledger: Ledger, run):
    save = wrap(save(run)); save = store.save
    ledger.append("run_completed")
""",
])
def test_same_line_alias(tmp_path, monkeypatch, prepass, body):
    monkeypatch.setattr(runner, "PREPASS", prepass)
    got, want, detail = run_files(tmp_path, {"m.py": TYPES + body}, table=TABLE)
    assert got == want, detail
