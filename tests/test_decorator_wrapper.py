"""A project decorator's wrapper runs around the function it decorates: a call of the
decorated function carries what the wrapper does (docs/decisions.md "A project
decorator's wrapper"; held-out set 186, django-fsm-ticket's ``@action``, which saves a
ticket's update after every transition method)."""
from __future__ import annotations

from pathlib import Path

import pytest
from checkutil import check_source, cl, write_tree
from cliutil import oc

from ordercheck import frontend, runner

TABLE = {"extend-events": {"save": ["*store.save"], "append": ["*history.append"]}}
SEQ = ["OC101", "OC102"]

ACTION = '''
import functools


def action(fn):
    @functools.wraps(fn)
    def wrapper(self, *args, **kwargs):
        result = fn(self, *args, **kwargs)
        self.history.append({"event": "ticket_changed"})
        return result
    return wrapper


class Ticket:
    @action
    def close(self):
        self.status = "closed"


def finish(t: Ticket, store):
    store.save(t)
    t.close()
'''


def test_a_call_of_the_decorated_method_carries_its_wrappers_append():
    assert cl(ACTION, select=SEQ, table=TABLE) == [("OC102", 22)]


def test_the_witness_goes_through_the_wrapper():
    found = [f for f in check_source(ACTION, table=TABLE, select=SEQ) if f.code == "OC102"]
    assert len(found) == 1
    steps = {s.span.line: s for s in found[0].witness}
    assert "action.<locals>.wrapper" in steps[22].via and "self.history.append" in steps[22].via


def test_a_decorator_factory_carries_its_inner_wrapper():
    src = '''
    def transition(name):
        def deco(fn):
            def inner(self, *a):
                out = fn(self, *a)
                self.store.save(self)
                return out
            return inner
        return deco


    class Ticket:
        @transition("open")
        def reopen(self):
            self.status = "open"


    def again(t: Ticket):
        t.reopen()
        t.history.append({"event": "reopened"})
    '''
    assert cl(src, select=SEQ, table=TABLE) == [("OC102", 20)]


def test_a_decorator_defined_in_the_class_body():
    src = '''
    class Ticket:
        def _saving(fn):
            def go(self, *a):
                fn(self, *a)
                self.store.save(self)
            return go

        @_saving
        def reopen(self):
            self.status = "open"

        def again(self):
            self.reopen()
            self.history.append({"event": "reopened"})
    '''
    assert cl(src, select=SEQ, table=TABLE) == [("OC102", 15)]


@pytest.mark.parametrize("decorator", [
    # registers the function and returns it: nothing runs around it
    "def action(fn):\n    REGISTRY.append(fn)\n    return fn",
    # returns a function that never calls the one it decorates
    "def action(fn):\n    def stub(self):\n        self.history.append({'event': 'x'})\n    return fn",
    # its nested function calls the decorated one but is not what it returns
    "def action(fn):\n    def later(self):\n        fn(self)\n        self.history.append({'event': 'x'})\n"
    "    HOOKS.append(later)\n    return fn",
])
def test_a_decorator_that_puts_nothing_around_the_function_carries_nothing(decorator):
    src = decorator + '''


class Ticket:
    @action
    def close(self):
        self.status = "closed"


def finish(t: Ticket, store):
    store.save(t)
    t.close()
'''
    assert cl(src, select=SEQ, table=TABLE) == []


def test_what_the_wrapper_always_does_is_no_conditional_effect_of_the_body():
    # the body saves only when it returns True; its wrapper saves whatever it returns,
    # so the false branch holds a save too
    src = '''
    def saving(fn):
        def go(self, *a):
            ok = fn(self, *a)
            self.store.save(self)
            return ok
        return go


    class Ticket:
        @saving
        def try_close(self) -> bool:
            if self.open:
                self.store.save(self)
                return True
            return False


    def close_or_log(t: Ticket):
        if not t.try_close():
            t.history.append({"event": "close_refused"})
    '''
    assert cl(src, select=SEQ, table=TABLE) == [("OC102", 21)]
    plain = src.replace("        @saving\n", "")
    assert cl(plain, select=SEQ, table=TABLE) == []


def test_the_outline_and_the_whole_read_agree_on_the_wrapper():
    src = ACTION + '''

def transition(name):
    def deco(fn):
        def inner(self, *a):
            return fn(self, *a)
        return functools.update_wrapper(inner, fn)
    return deco


def register(fn):
    def unused():
        fn()
    return fn
'''
    whole = runner.read_facts(Path("m.py"), src.encode(), "m.py")
    out = frontend.outline("m.py", src.encode())
    got = {f.qualname: f.wrapper for f in whole.functions}
    assert got == {f.qualname: f.wrapper for f in out.functions}
    assert got["action"] == "action.<locals>.wrapper"
    assert got["transition"] == "transition.<locals>.deco.<locals>.inner"
    assert got["register"] is None and got["Ticket.close"] is None


FILES = {
    "ordercheck.toml": '[extend-events]\nsave = ["*store.save"]\nappend = ["*history.append"]\n',
    "pkg/__init__.py": "",
    "pkg/util.py": """\
        import functools


        def action(fn):
            @functools.wraps(fn)
            def wrapper(self, *args, **kwargs):
                result = fn(self, *args, **kwargs)
                self.history.append({"event": "ticket_changed"})
                return result
            return wrapper
        """,
    "pkg/models.py": """\
        from .util import action


        class Ticket:
            @action
            def close(self):
                self.status = "closed"
        """,
    "pkg/service.py": """\
        from .models import Ticket


        def finish(t: Ticket, store):
            store.save(t)
            t.close()
        """,
}


def test_across_files_alone_warm_and_after_an_edit_of_the_decorator(tmp_path):
    write_tree(tmp_path, FILES)
    cache = str(tmp_path / "cache")
    want = [("pkg/service.py", 6, "OC102")]
    assert oc(tmp_path, "--no-cache", "pkg").codes() == want
    assert oc(tmp_path, "--cache-dir", cache, "pkg").codes() == want
    assert oc(tmp_path, "--cache-dir", cache, "pkg/service.py").codes() == want
    assert oc(tmp_path, "--no-cache", "pkg/service.py").codes() == want
    util = tmp_path / "pkg/util.py"
    util.write_text(util.read_text().replace('self.history.append({"event": "ticket_changed"})', "pass"))
    assert oc(tmp_path, "--cache-dir", cache, "pkg/service.py").codes() == []
    assert oc(tmp_path, "--cache-dir", cache, "pkg").codes() == []


def test_what_the_wrapper_does_only_on_some_ways_is_not_carried():
    # Airflow's `@provide_session` commits only when no session was handed in; its
    # callers hand theirs (measured on the bench's corpora: seven false OC102s when
    # every wrapper's summary was carried)
    src = '''
    import functools


    def provide_session(func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            if "session" in kwargs:
                return func(*args, **kwargs)
            session = make_session()
            try:
                return func(*args, session=session, **kwargs)
            finally:
                session.store.save()
        return wrapper


    @provide_session
    def get(dag_id, session=None):
        return session.query(dag_id)


    def caller(dag_id, session, history):
        get(dag_id, session=session)
        history.append({"event": "read"})
    '''
    assert cl(src, select=SEQ, table=TABLE) == []
    always = src.replace('''            if "session" in kwargs:
                return func(*args, **kwargs)
''', "")
    assert cl(always, select=SEQ, table=TABLE) == [("OC102", 23)]


def test_a_wrapper_that_reports_its_own_failure_raises_none_of_it_into_callers():
    # a review: the wrapper's append, caught and warned of inside it, is no failure of
    # the call (a plain helper's is none either)
    src = '''
    import logging

    log = logging.getLogger(__name__)


    def audited(fn):
        def wrapper(self, *a):
            out = fn(self, *a)
            try:
                self.history.append({"event": "ticket_completed"})
            except Exception:
                log.warning("audit failed")
            return out
        return wrapper


    class Ticket:
        @audited
        def close(self):
            self.status = "closed"


    def finish(t: Ticket):
        try:
            t.close()
        except Exception:
            pass
    '''
    assert cl(src, select=["OC201", "OC202", "OC203"], table=TABLE) == []
    loud = src.replace('                log.warning("audit failed")\n', '                raise\n')
    assert cl(loud, select=["OC201", "OC202", "OC203"], table=TABLE) == [("OC201", 26)]


def test_an_async_wrapper_not_awaited_runs_nothing():
    # a review: the call of a method whose wrapper is an `async def` makes a coroutine;
    # dropped, nothing of the wrapper runs (a wrapper that is a plain `def` runs at once)
    src = '''
    def asave(fn):
        async def wrapper(self, *a):
            r = await fn(self, *a)
            self.history.append({"event": "x"})
            return r
        return wrapper


    def sync_over_async(fn):
        def wrapper(self, *a):
            coro = fn(self, *a)
            self.history.append({"event": "x"})
            return coro
        return wrapper


    class Ticket:
        @asave
        async def aclose(self):
            pass

        @sync_over_async
        async def mixed(self):
            pass

        @asave
        def plain(self):  # (a plain `def` under an `async def` wrapper: a second review)
            pass


    async def dropped(t: Ticket, store):
        store.save(t)
        t.aclose()
        t.plain()


    async def awaited(t: Ticket, store):
        store.save(t)
        await t.aclose()


    async def plain(t: Ticket, store):
        store.save(t)
        t.mixed()
    '''
    assert cl(src, select=SEQ, table=TABLE) == [("OC102", 40), ("OC102", 45)]


def test_a_decorator_through_a_star_import_or_a_class_of_the_module(tmp_path):
    # a review: `from .deco import *` then `@action`; `@Helpers.appending`
    write_tree(tmp_path, {
        "ordercheck.toml": '[extend-events]\nsave = ["*store.save"]\nappend = ["*history.append"]\n',
        "pkg/__init__.py": "",
        "pkg/deco.py": """\
            def action(fn):
                def wrapper(self, *a):
                    fn(self, *a)
                    self.history.append({"event": "changed"})
                return wrapper
            """,
        "pkg/models.py": """\
            from .deco import *


            class Helpers:
                @staticmethod
                def appending(fn):
                    def go(self):
                        fn(self)
                        self.history.append({"event": "changed"})
                    return go


            class Ticket:
                @action
                def close(self):
                    pass

                @Helpers.appending
                def reopen(self):
                    pass


            def finish(t: Ticket, store):
                store.save(t)
                t.close()
                t.reopen()
            """,
    })
    assert oc(tmp_path, "--no-cache", ".").codes() == [("pkg/models.py", 25, "OC102"), ("pkg/models.py", 26, "OC102")]
