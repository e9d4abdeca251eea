"""A project class manager whose ``__enter__`` and ``__exit__`` perform events is
ordered at the ``with`` that enters it (semantics §Events Context managers: "the
constructor's and ``__enter__``'s events stand at the entry, ``__exit__``'s at the
exit"). The two methods are two functions, so no callee's graph shows their order;
until session 20 the exit counted as the entry's own call site and the pair was
checked nowhere (two session-19 conformance probes). A ``@contextmanager``
generator's own order is still checked in the generator, where its ``yield`` stands
between the two, and not again in every caller."""
import pytest
from checkutil import check_source
from conformance import run_case

TERMINAL = {"extend-events": {"terminal-append": ["ledger.append_terminal"]}}

CLASS = """\
class Finishing:
    def __init__(self, run):
        self.run = run

    def __enter__(self):
        {enter}
        return self

    def __exit__(self, *exc):
        {exit}
        return False


def finish(run):
    with Finishing(run):{mark}
        run.status = "done"
"""


@pytest.mark.parametrize("is_async", [False, True])
@pytest.mark.parametrize("enter, exit_, mark", [
    # saved on the way in, the terminal record appended on the way out: the crash window
    ("store.save(self.run)", "ledger.append_terminal(self.run)", "  # !OC101"),
    # a plain append on the way out
    ("store.save(self.run)", "ledger.append(self.run)", "  # !OC102"),
    # the record first, then the save: the contract's order
    ("ledger.append_terminal(self.run)", "store.save(self.run)", ""),
    # both in ``__exit__``: its own order, checked in ``__exit__`` (the finding is there)
    ("pass", "store.save(self.run); ledger.append(self.run)", ""),
    # nothing on the way in
    ("pass", "ledger.append_terminal(self.run)", ""),
])
def test_entry_and_exit_are_ordered_at_the_with(is_async, enter, exit_, mark):
    src = CLASS.format(enter=enter, exit=exit_, mark=mark)
    if is_async:
        src = src.replace("def __enter__", "async def __aenter__").replace("def __exit__", "async def __aexit__")
        src = src.replace("def finish", "async def finish").replace("    with Finishing", "    async with Finishing")
    if "save(self.run); ledger.append(self.run)" in exit_:
        # the exit's own pair is reported inside ``__exit__`` (its ledger line)
        src = src.replace("ledger.append(self.run)\n", "ledger.append(self.run)  # !OC102\n", 1)
    got, want, detail = run_case(src, table=TERMINAL)
    assert got == want, detail


def test_a_generator_manager_order_is_reported_once_in_the_generator():
    src = """\
from contextlib import contextmanager


@contextmanager
def finishing(run):
    store.save(run)
    yield
    ledger.append_terminal(run)  # !OC101


def finish(run):
    with finishing(run):
        run.status = "done"
"""
    got, want, detail = run_case(src, table=TERMINAL)
    assert got == want, detail


def test_the_witness_names_enter_and_exit():
    src = CLASS.format(enter="store.save(self.run)", exit="ledger.append_terminal(self.run)", mark="")
    (f,) = check_source(src, table=TERMINAL, select=["OC101"], dedent=False)
    assert (f.code, f.span.line) == ("OC101", 15)
    vias = [s.via for s in f.witness]
    assert vias[0].startswith("Finishing.__enter__ → store.save(self.run)"), vias
    assert "Finishing.__exit__" in vias[1], vias


def test_entry_and_exit_with_one_class_are_one_finding():
    # both `__enter__` and `__exit__` append after the caller's save: one anchor, one finding
    src = CLASS.format(enter="ledger.append(self.run)", exit="ledger.append(self.run)", mark="")
    src = src.replace("def finish(run):\n", "def finish(run):\n    store.save(run)\n")
    findings = check_source(src, select=["OC102"], dedent=False)
    assert [(f.code, f.span.line) for f in findings] == [("OC102", 16)], findings


def test_the_constructor_keeps_its_via_when_enter_adds_another_class():
    src = CLASS.replace("        self.run = run\n", "        self.run = run\n        ledger.append_terminal(run)\n")
    src = src.format(enter='self.fh.write("x")', exit="pass", mark="")
    src = src.replace("def finish(run):\n", "def finish(run):\n    ledger.append_terminal(run)\n")
    findings = check_source(src, table=TERMINAL, select=["OC103"], dedent=False)
    assert len(findings) == 1, findings
    assert findings[0].witness[-1].via.startswith("Finishing.__init__ → ledger.append_terminal(run)"), findings[0].witness


DUAL = """\
class Dual:
    def __init__(self, run):
        self.run = run

    def __enter__(self):
        {sync_enter}
        return self

    def __exit__(self, *exc):
        {sync_exit}

    async def __aenter__(self):
        {async_enter}
        return self

    async def __aexit__(self, *exc):
        {async_exit}


def sync_use(run):
    with Dual(run):{sync_mark}
        pass


async def async_use(run):
    async with Dual(run):{async_mark}
        pass
"""


@pytest.mark.parametrize("sync_first_saves", [True, False])
def test_a_class_with_both_protocols_is_entered_by_the_one_python_calls(sync_first_saves):
    # (a session-20 review: `async with` read `__enter__`/`__exit__` when both exist)
    save, append = "store.save(self.run)", "ledger.append(self.run)"
    order_sync = (save, append) if sync_first_saves else (append, save)
    order_async = order_sync[::-1]
    src = DUAL.format(sync_enter=order_sync[0], sync_exit=order_sync[1],
                      async_enter=order_async[0], async_exit=order_async[1],
                      sync_mark="  # !OC102" if sync_first_saves else "",
                      async_mark="" if sync_first_saves else "  # !OC102")
    got, want, detail = run_case(src)
    assert got == want, detail


@pytest.mark.parametrize("is_async", [False, True])
def test_the_message_names_the_exit_method_not_the_constructor(is_async):
    # held-out set 82: "ledger append `AutoCommit(ledger)` after the state save" read as
    # if the constructor appended; the exit's method is what runs there
    src = CLASS.format(enter="store.save(self.run)", exit="ledger.append(self.run)", mark="")
    if is_async:
        src = src.replace("def __enter__", "async def __aenter__").replace("def __exit__", "async def __aexit__")
        src = src.replace("def finish", "async def finish").replace("with Finishing", "async with Finishing")
    found = check_source(src, select=["OC102"])
    method = "__aexit__" if is_async else "__exit__"
    assert [f.message.split(" after ")[0] for f in found] == [f"ledger append `Finishing(run).{method}`"], found
    assert found[0].anchor_text == "Finishing(run)"  # (what fingerprints and baselines read is as before)


def test_a_long_manager_keeps_the_exit_method_when_shortened():
    src = CLASS.format(enter="store.save(self.run)", exit="ledger.append(self.run)", mark="").replace(
        "Finishing(run)", "Finishing(run, " + ", ".join(f"option_{i}=True" for i in range(8)) + ")")
    src = src.replace("def __init__(self, run):", "def __init__(self, run, **kw):")
    found = check_source(src, select=["OC102"])
    assert found[0].message.split("`")[1] == "Finishing(...).__exit__", found[0].message
