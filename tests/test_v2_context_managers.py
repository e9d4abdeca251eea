"""semantics §Events "Context managers" and "Transactions", §3 ``with``, §4 anchoring:
project context managers carry their events at a ``with``'s entry and exits, and a
transaction's body commits at once at its normal exit. Every case runs through the
engine (``runner.analyse``)."""
import pytest
from checkutil import check_source, codes_lines

from ordercheck import frontend


def codes(src, **kw):
    return codes_lines(check_source(src, **kw))


def only(src, code, **kw):
    return [f for f in check_source(src, **kw) if f.code == code]


# --------------------------------------------------------------------------- facts


def test_decorators_resolve_through_imports():
    src = (
        "import contextlib\nfrom contextlib import asynccontextmanager as acm\n"
        "from contextlib import contextmanager\n"
        "@contextlib.contextmanager\ndef a():\n    yield\n"
        "@acm\nasync def b():\n    yield\n"
        "@contextmanager\ndef c():\n    yield\n"
        "@other.contextmanager\ndef d():\n    yield\n"
        "def e():\n    yield\n"
    )
    ff = frontend.extract("m.py", src.encode(), "m")
    flags = {f.qualname: f.context_manager for f in ff.functions}
    assert flags == {"a": True, "b": True, "c": True, "d": False, "e": False, "<module>": False}
    assert "contextlib.asynccontextmanager" in next(f for f in ff.functions if f.qualname == "b").decorators


def test_bare_contextmanager_name_counts():
    ff = frontend.extract("m.py", b"@contextmanager\ndef a():\n    x = yield 1\n", "m")
    fn = next(f for f in ff.functions if f.qualname == "a")
    assert fn.context_manager and fn.body[0].yields


# --------------------------------------------------------------------------- generators

GEN_SAVE_AFTER = """
from contextlib import contextmanager

class Runtime:
    @contextmanager
    def _finishing(self, run):
        yield
        self._store.save(run)

    def finish(self, run):
        with self._finishing(run):
            self._ledger.append(run)
"""


def test_events_after_the_yield_stand_at_the_exit_not_the_entry():
    # the body's append runs before the generator's save: nothing to report (were
    # the whole summary at the entry, the append would follow a save: OC102)
    assert codes(GEN_SAVE_AFTER) == []


def test_events_before_the_yield_stand_at_the_entry():
    src = GEN_SAVE_AFTER.replace("        yield\n        self._store.save(run)", "        self._store.save(run)\n        yield")
    assert codes(src) == [("OC102", 12)]


def test_events_after_the_yield_at_the_exit_are_anchored_at_the_with_call():
    src = """
import contextlib

@contextlib.contextmanager
def recording(ledger, run):
    yield
    ledger.append(run)

def finish(store, ledger, run):
    with recording(ledger, run):
        store.save(run)
"""
    [f] = only(src, "OC102")
    assert (f.span.line, f.span.col) == (10, 9)  # `recording(ledger, run)`
    texts = [s.text for s in f.witness]
    assert "`recording(ledger, run)` exits: append" in texts
    assert any(s.via.startswith("recording → ledger.append(run)") for s in f.witness if s.via)


THROWN = """
import contextlib

@contextlib.contextmanager
def saving(store, run):
{body}

def step(store, ledger, run):
    try:
        with saving(store, run):
            risky(run)
    except Exception:
        ledger.append(run)
        logger.warning("step failed")
"""


def test_after_the_yield_does_not_run_when_the_body_raises():
    body = "    yield\n    store.save(run)"
    assert codes(THROWN.format(body=body)) == []


def test_a_finally_around_the_yield_runs_on_every_way_out():
    body = "    try:\n        yield\n    finally:\n        store.save(run)"
    assert codes(THROWN.format(body=body)) == [("OC102", 16)]


def test_a_handler_around_the_yield_runs_on_the_exception_way_out():
    body = "    try:\n        yield\n    except Exception:\n        store.save(run)\n        raise"
    assert codes(THROWN.format(body=body)) == [("OC102", 17)]


def test_a_handler_around_the_yield_does_not_run_on_the_normal_way_out():
    src = """
import contextlib

@contextlib.contextmanager
def saving_on_error(store, run):
    try:
        yield
    except Exception:
        store.save(run)
        raise

def step(store, ledger, run):
    with saving_on_error(store, run):
        pass
    ledger.append(run)
"""
    assert codes(src) == []


def test_return_in_the_body_runs_the_code_after_the_yield():
    src = """
import contextlib

@contextlib.contextmanager
def recording(ledger, run):
    yield
    ledger.append(run)

def finish(store, ledger, run):
    with recording(ledger, run):
        store.save(run)
        return run
"""
    assert codes(src) == [("OC102", 10)]


SWALLOWING_GEN = """
import contextlib

@contextlib.contextmanager
def quietly():
    try:
        yield
    except Exception:
{handler}

def tick(store, run):
    with quietly():
        store.save(run)
"""


def test_a_generator_that_catches_and_does_not_reraise_suppresses():
    found = only(SWALLOWING_GEN.format(handler="        pass"), "OC203")
    assert [(f.span.line) for f in found] == [13]
    assert any(s.kind == "suppress" for s in found[0].witness)


def test_a_generator_that_reraises_does_not_suppress():
    assert only(SWALLOWING_GEN.format(handler="        raise"), "OC203") == []


def test_a_suppressing_generator_that_warns_is_loud():
    assert only(SWALLOWING_GEN.format(handler="        logger.warning('tick failed')"), "OC203") == []


def test_a_suppressing_generator_lets_code_after_the_with_run():
    src = SWALLOWING_GEN.format(handler="        pass").replace(
        "        store.save(run)\n", "        raise ValueError(run)\n    store.save(run)\n    ledger.append(run)\n")
    assert ("OC102", 15) in codes(src)


def test_an_undecorated_generator_is_a_plain_call():
    # no @contextmanager: the call carries its whole summary where it stands
    src = GEN_SAVE_AFTER.replace("    @contextmanager\n", "")
    assert codes(src) == [("OC102", 11)]


def test_async_context_manager_generator():
    src = """
from contextlib import asynccontextmanager

@asynccontextmanager
async def recording(ledger, run):
    yield
    await ledger.append(run)

async def finish(store, ledger, run):
    async with recording(ledger, run):
        await store.save(run)
"""
    assert codes(src) == [("OC102", 10)]


def test_nested_project_managers_compose():
    src = """
import contextlib

@contextlib.contextmanager
def recording(ledger, run):
    yield
    ledger.append(run)

@contextlib.contextmanager
def outer(ledger, run):
    with recording(ledger, run):
        yield

def finish(store, ledger, run):
    with outer(ledger, run):
        store.save(run)
"""
    assert codes(src) == [("OC102", 15)]


def test_a_manager_that_uses_itself_does_not_loop():
    src = """
import contextlib

@contextlib.contextmanager
def again(ledger, run):
    with again(ledger, run):
        yield
    ledger.append(run)

def finish(store, ledger, run):
    with again(ledger, run):
        store.save(run)
"""
    check_source(src)  # terminates, whatever it finds


# --------------------------------------------------------------------------- classes

CLASS_MGR = """
class Recording:
    def __init__(self, ledger, run):
{init}

    def __enter__(self):
{enter}

    def __exit__(self, *exc):
{exit}

def finish(store, ledger, run):
    with Recording(ledger, run):
        store.save(run)
"""


def _cls(init="        self.run = run", enter="        return self", exit="        return None"):
    return CLASS_MGR.format(init=init, enter=enter, exit=exit)


def test_class_exit_events_at_the_exit():
    src = _cls(exit="        ledger.append(self.run)")
    assert codes(src) == [("OC102", 13)]
    [f] = only(src, "OC102")
    assert f.span.col == 9 and "`Recording(ledger, run)` exits: append" in [s.text for s in f.witness]


def test_class_enter_and_constructor_events_at_the_entry():
    enter_appends = _cls(enter="        ledger.append(self.run)\n        return self")
    init_appends = _cls(init="        ledger.append(run)")
    assert codes(enter_appends) == []  # append at the entry, before the body's save
    assert codes(init_appends) == []
    saving_enter = _cls(enter="        store.save(self.run)\n        return self").replace(
        "        store.save(run)\n", "        ledger.append(run)\n")
    assert codes(saving_enter) == [("OC102", 15)]


def test_class_exit_runs_on_the_exception_way_out_too():
    src = """
class Saving:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        store.save(None)

def step(store, ledger, run):
    try:
        with Saving():
            risky(run)
    except Exception:
        ledger.append(run)
        logger.warning("failed")
"""
    assert codes(src) == [("OC102", 14)]


SILENT_AROUND = """
class Commit:
    def __init__(self, store, ledger, run):
        self.store, self.ledger, self.run = store, ledger, run

    {a}def {enter}(self):
{enter_body}
        return self

    {a}def {exit}(self, *exc):
{exit_body}

{a}def step(store, ledger, run):
    try:
        {a}with Commit(store, ledger, run):
            pass
    except Exception:
        pass
"""


def _around(enter_body="        pass", exit_body="        pass", asynchronous=False):
    a = "async " if asynchronous else ""
    return SILENT_AROUND.format(a=a, enter="__aenter__" if asynchronous else "__enter__",
                                exit="__aexit__" if asynchronous else "__exit__",
                                enter_body=enter_body, exit_body=exit_body)


def test_a_class_managers_enter_or_exit_failure_raises_into_the_handler_around_the_with():
    """A save or append in ``__enter__``/``__exit__`` can fail, and its exception leaves
    the ``with`` into the handler around it: swallowed silently there, it is found at
    the manager's call (semantics §Events "Context managers", §Contracts swallowed and
    anchoring)."""
    def loud(src):  # (the silent broad handler is an OC204 of its own)
        return [c for c in codes(src) if c[0] != "OC204"]

    assert loud(_around(exit_body="        self.store.save(self.run)")) == [("OC203", 15)]
    assert loud(_around(exit_body="        self.ledger.append(self.run)")) == [("OC202", 15)]
    assert loud(_around(enter_body="        self.ledger.append(self.run)")) == [("OC202", 15)]
    assert loud(_around(exit_body="        self.ledger.append_terminal(self.run)")) == [("OC201", 15)]
    assert loud(_around(exit_body="        await self.store.save(self.run)", asynchronous=True)) == [("OC203", 15)]
    # a failure the method catches itself does not leave it; a loud handler is no finding
    assert loud(_around(exit_body="        try:\n            self.store.save(self.run)\n"
                                   "        except Exception:\n            logger.warning('x')")) == []
    assert loud(_around(exit_body="        self.store.save(self.run)").replace(
        "    except Exception:\n        pass", "    except Exception:\n        raise")) == []


def test_exit_returning_true_suppresses():
    assert only(_cls(exit="        return True"), "OC203") != []
    # true only under a test of the exception's type: it swallows that type (session 29)
    guarded = _cls(exit="        if exc[0] is KeyError:\n            return 1\n        return False")
    assert only(guarded, "OC203") == []
    assert only(guarded, "OC203", table={"swallow-types": ["KeyError"]}) != []


def test_exit_returning_false_or_none_does_not_suppress():
    assert only(_cls(exit="        return False"), "OC203") == []
    assert only(_cls(exit="        pass"), "OC203") == []
    assert only(_cls(exit="        raise RuntimeError()\n        return True"), "OC203") == []  # unreachable


def test_async_class_manager():
    src = """
class Recording:
    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc):
        await ledger.append(None)

async def finish(store, ledger, run):
    async with Recording():
        await store.save(run)
"""
    assert codes(src) == [("OC102", 10)]


def test_a_class_inherits_its_exit_from_a_project_base():
    src = """
class Base:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return True

class Guard(Base):
    pass

def tick(store, run):
    with Guard():
        store.save(run)
"""
    assert only(src, "OC203") != []


# --------------------------------------------------------------------------- transactions


def test_save_and_append_in_one_transaction_are_not_ordered():
    src = """
def settle(session, store, ledger, run):
    with session.begin():
        store.save(run)
        ledger.append(run)
"""
    assert codes(src) == []
    # the same calls outside a transaction are
    assert codes(src.replace("    with session.begin():\n", "    if True:\n")) == [("OC102", 5)]


def test_a_transaction_is_ordered_against_what_comes_before():
    src = """
def settle(session, store, ledger, run):
    store.save(run)
    with session.begin():
        ledger.append(run)
        notify(run)
"""
    [f] = only(src, "OC102")
    assert (f.span.line, f.span.col) == (4, 9)  # `session.begin()`
    # the step names the body's call the commit stands for (held-out sets 97, 98);
    # fingerprints read the step as it was (``Step.key``)
    step = next(s for s in f.witness if s.text.startswith("`session.begin()` commits"))
    assert (step.text, step.key) == ("`session.begin()` commits: append `ledger.append(run)` at line 5",
                                     "`session.begin()` commits: append")


def test_a_transaction_is_ordered_against_what_comes_after():
    src = """
def settle(session, store, ledger, run):
    with session.begin():
        store.save(run)
        audit(run)
    ledger.append(run)
"""
    assert codes(src) == [("OC102", 6)]


def test_an_exception_out_of_the_body_rolls_back():
    src = """
def settle(session, store, ledger, run):
    try:
        with session.begin():
            store.save(run)
            risky(run)
    except Exception:
        ledger.append(run)
        logger.warning("rolled back")
"""
    assert codes(src) == []
    # without the transaction the save took effect before the handler's append
    assert codes(src.replace("        with session.begin():\n", "        if True:\n")) == [("OC102", 8)]


def test_return_inside_a_transaction_commits():
    src = """
def settle(session, store, ledger, run):
    store.save(run)
    with session.begin():
        ledger.append(run)
        return run
"""
    assert codes(src) == [("OC102", 4)]


def test_a_way_out_commits_only_what_its_walks_did():
    # the save runs only on the way that returns: falling through commits nothing
    src = """
def settle(session, store, ledger, run, done):
    with session.begin():
        if done:
            store.save(run)
            return
    ledger.append(run)
"""
    assert codes(src) == []
    # a save on the way that falls through is committed there
    assert codes(src.replace("            return\n", "")) == [("OC102", 6)]


def test_a_commit_follows_the_correlated_tests_of_its_body():
    src = """
def settle(session, store, ledger, run, dry):
    with session.begin():
        if not dry:
            store.save(run)
    if dry:
        ledger.append(run)
"""
    assert codes(src) == []  # as without the transaction (semantics §Contracts, correlated tests)
    assert codes(src.replace("    if dry:\n", "    if run:\n")) == [("OC102", 7)]


def test_a_commit_follows_a_conditional_effect_of_its_body():
    src = """
def revoked(store, run):
    if run.revoked:
        store.save(run)
        return True
    return False

def settle(session, store, ledger, run):
    with session.begin():
        if revoked(store, run):
            return
    ledger.append(run)
"""
    assert codes(src) == []  # the save travels only to the `return`, which commits it
    assert codes(src.replace("        if revoked(store, run):\n            return\n",
                             "        revoked(store, run)\n")) == [("OC102", 11)]


def test_two_terminal_appends_in_one_transaction_are_one_commit():
    one = """
def settle(ledger, run):
    with transaction.atomic():
        ledger.append_terminal(run)
        ledger.append_terminal(run)
"""
    two = """
def settle(ledger, run):
    with transaction.atomic():
        ledger.append_terminal(run)
    with transaction.atomic():
        ledger.append_terminal(run)
"""
    assert only(one, "OC103") == []
    assert [f.span.line for f in only(two, "OC103")] == [5]


def test_for_swallowed_the_body_still_raises_where_it_stands():
    src = """
def settle(session, store, run):
    try:
        with session.begin():
            store.save(run)
    except Exception:
        pass
"""
    assert [f.span.line for f in only(src, "OC203")] == [5]


def test_transaction_patterns_of_real_libraries():
    for head in ("with transaction.atomic():", "with self.session.begin_nested():", "with conn.begin():",
                 "async with conn.transaction():", "with db.atomic():"):
        src = f"""
async def settle(conn, store, ledger, run):
    {head}
        store.save(run)
        ledger.append(run)
"""
        assert codes(src) == [], head


def test_a_transaction_pattern_counts_only_inside_a_with_item():
    src = """
def settle(session, store, ledger, run):
    session.begin()
    store.save(run)
    ledger.append(run)
    session.commit()
"""
    assert codes(src) == [("OC102", 5)]


def test_nested_transactions_commit_into_the_outer_one():
    src = """
def settle(session, store, ledger, run):
    with session.begin():
        store.save(run)
        with session.begin_nested():
            ledger.append(run)
    notify(run)
"""
    assert codes(src) == []


def test_transaction_class_replaced_in_config():
    src = """
def settle(uow, store, ledger, run):
    with uow.committing():
        store.save(run)
        ledger.append(run)
"""
    assert codes(src) == [("OC102", 5)]
    assert codes(src, table={"extend-events": {"transaction": ["*.committing"]}}) == []



def test_a_caller_of_a_function_using_a_class_manager_carries_its_exit():
    src = """
class Recorded:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        ledger.append(None)

def step(store, run):
    with Recorded():
        pass

def outer(store, run):
    store.save(run)
    step(store, run)
"""
    assert codes(src) == [("OC102", 15)]


# --------------------------------------------------------------------------- re-hooked onto the split summaries


def test_a_caller_of_a_function_using_a_generator_manager_carries_its_exit():
    src = """
import contextlib

@contextlib.contextmanager
def recording(ledger, run):
    yield
    ledger.append(run)

def step(ledger, run):
    with recording(ledger, run):
        pass

def outer(store, ledger, run):
    store.save(run)
    step(ledger, run)
"""
    assert codes(src) == [("OC102", 15)]


def test_events_carried_by_calls_in_a_transaction_commit_with_it():
    src = """
def _persist(store, run):
    store.save(run)

def settle(session, store, ledger, run):
    with session.begin():
        _persist(store, run)
        ledger.append(run)
"""
    assert codes(src) == []
    assert codes(src.replace("    with session.begin():\n", "    if run:\n")) == [("OC102", 8)]


def test_a_transaction_that_raised_rolled_back_in_the_callers_summary():
    # on the way out by an exception the callee performed nothing of its transaction
    src = """
def _settle(session, store, run):
    with session.begin():
        store.save(run)
        risky(run)

def tick(session, store, ledger, run):
    try:
        _settle(session, store, run)
    except Exception:
        ledger.append(run)
        logger.warning("settle failed")
"""
    assert codes(src) == []
    assert codes(src.replace("    with session.begin():\n", "    if run:\n")) == [("OC102", 11)]


def test_a_transaction_as_the_second_item_of_one_with():
    src = """
def settle(lock, session, store, ledger, run):
    store.save(run)
    with lock, session.begin():
        ledger.append(run)
"""
    [f] = only(src, "OC102")
    assert (f.span.line, f.span.col) == (4, 15)  # `session.begin()`


def test_the_transaction_commit_is_one_site_for_at_most_once():
    src = """
def settle(session, ledger, run):
    with session.begin():
        if run.ok:
            ledger.append_terminal(run)
            return
        ledger.append_terminal(run)
"""
    assert only(src, "OC103") == []


def test_a_handler_around_a_transaction_still_swallows_the_save_silently():
    src = """
async def settle(conn, store, run):
    try:
        async with conn.transaction():
            await store.save(run)
    except Exception:
        pass
"""
    assert [f.span.line for f in only(src, "OC203")] == [5]


def test_an_async_generator_that_swallows_suppresses():
    src = """
from contextlib import asynccontextmanager

@asynccontextmanager
async def quietly():
    try:
        yield
    except Exception:
        pass

async def tick(store, run):
    async with quietly():
        await store.save(run)
"""
    assert [f.span.line for f in only(src, "OC203")] == [13]


def test_manager_effects_are_on_the_summaries():
    from ordercheck import effects
    from ordercheck import frontend as fm
    from ordercheck.vocabulary import Vocabulary

    src = """
import contextlib

@contextlib.contextmanager
def guarded(store, ledger, run):
    ledger.append(run)
    try:
        yield
    finally:
        store.save(run)

class Quiet:
    def __enter__(self):
        return self
    def __exit__(self, *exc):
        return True

def use(store, ledger, run):
    with guarded(store, ledger, run):
        pass
    with Quiet():
        pass
"""
    ff = fm.extract("m.py", src.encode(), "m")
    summ = effects.build([ff], Vocabulary.build())
    gen = summ.managers["m.py::guarded"]
    assert (gen.kind, gen.entry, gen.normal, gen.raised, gen.suppress) == (
        "generator", frozenset({"append"}), frozenset({"save"}), frozenset({"save"}), False)
    cls = summ.managers["m.py::Quiet"]
    assert cls.kind == "class" and cls.suppress
    assert summ.effects["m.py::use"].on_return == frozenset({"append", "save"})


def test_a_raise_through_a_with_exit_inside_a_handler_is_no_silent_way_out():
    # the exit's onward edges are normal edges that carry the exception: they must not
    # read as leaving the handler normally
    src = """
def tick(store, lock, run):
    try:
        store.save(run)
    except Exception:
        with lock.held():
            raise
"""
    assert codes(src) == []
    assert [c for c, _ in codes(src.replace("            raise", "            pass"))] == ["OC203", "OC204"]


def test_the_witness_of_an_exit_points_at_the_code_after_the_yield():
    src = """
import contextlib

@contextlib.contextmanager
def bracketed(ledger, run):
    ledger.append(run, "started")
    yield
    ledger.append(run, "left")

def step(store, ledger, run):
    with bracketed(ledger, run):
        store.save(run)
"""
    [f] = only(src, "OC102")
    assert f.span.line == 11
    [exit_step] = [s for s in f.witness if s.text.startswith("`bracketed(ledger, run)` exits")]
    assert exit_step.via.endswith("at example.py:8"), exit_step.via  # after the yield, not line 6


def test_a_failure_of_the_exit_code_shows_its_event_in_the_witness():
    """A manager whose save runs after its ``yield`` (or in ``__exit__``) fails out of
    the ``with`` into a silent handler: the witness names the save, at the ``with``."""
    src = """
    from contextlib import contextmanager

    @contextmanager
    def committing(store, run):
        yield
        store.save(run)

    class Closing:
        def __init__(self, store, run):
            self._store, self._run = store, run
        def __enter__(self):
            return self
        def __exit__(self, *exc):
            self._store.save(self._run)

    def go(store, run):
        try:
            with committing(store, run):
                pass
        except Exception:
            pass

    def stop(store, run):
        try:
            with Closing(store, run):
                pass
        except Exception:
            pass
    """
    found = sorted(check_source(src, select=["OC203"]), key=lambda f: f.span.line)
    assert codes_lines(found) == [("OC203", 19), ("OC203", 26)]
    for f in found:
        first = f.witness[0]
        assert (first.kind, first.span.line) == ("save", f.span.line), [(s.kind, s.text) for s in f.witness]
        assert first.text.endswith("(raises)")
        assert [s.kind for s in f.witness[1:]] == ["except", "silent"]
    assert found[0].witness[0].via.startswith("committing → store.save(run)")


@pytest.mark.parametrize("returned,swallows", [
    ("True", "all"),
    ("exc_type is not None and issubclass(exc_type, KeyError)", "KeyError"),
    ("isinstance(exc, KeyError)", "KeyError"),
    ("exc_type is KeyError", "KeyError"),
    ("issubclass(exc_type, (KeyError, errors.Missing))", "KeyError"),
    ("issubclass(exc_type, self.expected)", "all"),   # no class named: any type may be
    ("not self.strict", "all"),
    ("False", None),
    ("None", None),
    ("exc_type is None", None),                     # true only when nothing was raised
    ("self._inner.__exit__(exc_type, exc, tb)", None),  # passed on from elsewhere
    ("self.retval", None),
])
def test_an_exit_that_may_return_true_suppresses(returned, swallows):
    """"an ``__exit__`` that may return ``True``, suppresses like a ``suppressor``": a
    truthy constant or a test may; a value passed on from elsewhere counts as not. One
    that is true only for named exception classes swallows those, judged by its types
    as ``contextlib.suppress(KeyError)`` is: a swallowing handler only when one is
    listed in ``swallow-types`` (docs/decisions.md, "A project manager that catches a
    narrow type")."""
    src = f"""
class Picky:
    def __enter__(self):
        return self
    def __exit__(self, exc_type, exc, tb):
        return {returned}

def step(ledger, run):
    with Picky():
        ledger.append(run)
"""
    found = codes_lines(check_source(src, select=["OC202"], dedent=False))
    assert found == ([("OC202", 10)] if swallows == "all" else [])
    listed = codes_lines(check_source(src, {"swallow-types": ["KeyError"]}, select=["OC202"], dedent=False))
    assert listed == ([("OC202", 10)] if swallows is not None else [])
