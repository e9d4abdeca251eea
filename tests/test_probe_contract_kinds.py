"""Contract kinds on control flow the built-in rules rarely meet (semantics §Graph,
§Contracts; found by a conformance probe written from the contract alone, session
13): a ``with`` exit can raise, a lambda's defaults run where it stands, a call that
never returns has no normal successor in any contract, and the precision decisions
about terminal records stay with terminal records. Each expectation was decided from
the contract's text; each case has a counterpart."""

import pytest
from checkutil import cl

EVENTS = {"ca": ["a"], "cb": ["b"], "cc": ["c"]}


def rule(tmp_path, kind: str, **roles) -> dict:
    lines = ['id = "SQ1"', 'name = "sq1"', 'severity = "warning"', f'kind = "{kind}"']
    lines += [f"{k.replace('_', '-')} = {v!r}".replace("'", '"') for k, v in roles.items()]
    lines += ['message = "x"', 'explanation = "x"']
    p = tmp_path / "sq1.toml"
    p.write_text("\n".join(lines) + "\n")
    return {"rules": [str(p)], "events": EVENTS}


def test_a_with_exit_can_raise_into_the_handler_around_it(tmp_path):
    table = rule(tmp_path, "sequence", first=["ca"], then=["cb"])
    assert cl("""\
        def f(ctx):
            try:
                with ctx:
                    a()
            except Exception:
                b()

        def g(ctx):
            try:
                with ctx:
                    pass
                a()
            except Exception:
                return
            b()
        """, select=["SQ1"], table=table) == [("SQ1", 6), ("SQ1", 15)]


def test_a_with_exit_on_a_return_can_raise_too(tmp_path):
    table = rule(tmp_path, "sequence", first=["ca"], then=["cb"])
    assert cl("""\
        def f(ctx):
            try:
                with ctx:
                    a()
                    return 1
            except Exception:
                b()
        """, select=["SQ1"], table=table) == [("SQ1", 7)]


def test_a_save_in_a_with_then_an_append_in_the_handler_is_append_after_save():
    # (the manager's exit can fail after the save; a lock's cannot: test_lock_exits.py)
    assert cl("""\
        def record(self, run, rec):
            try:
                with self._session_scope():
                    self._store.save(run)
            except Exception:
                self._ledger.append(rec)
        """, select=["OC102"]) == [("OC102", 6)]


def test_a_lambdas_defaults_run_where_it_stands_and_its_body_does_not(tmp_path):
    table = rule(tmp_path, "sequence", first=["ca"], then=["cb"])
    assert cl("""\
        def f():
            a()
            g = lambda v=b(): v
            return g

        def h():
            a()
            g = lambda v: b()
            return g
        """, select=["SQ1"], table=table) == [("SQ1", 3)]


def test_a_call_that_never_returns_is_a_dead_end_for_unless_after(tmp_path):
    table = rule(tmp_path, "sequence", first=["ca"], then=["cb"], unless_after=["cc"])
    assert cl("""\
        def boom():
            raise ValueError()

        def f():
            a()
            b()
            boom()

        def g(x):
            a()
            b()
            if x:
                boom()
        """, select=["SQ1"], table=table) == [("SQ1", 11)]


def test_a_call_that_never_returns_is_a_dead_end_for_a_barrier(tmp_path):
    table = rule(tmp_path, "sequence", first=["ca"], then=["cb"], barrier=["cc"])
    assert cl("""\
        def hc():
            c()
            raise ValueError()

        def f():
            a()
            try:
                hc()
            except ValueError:
                pass
            b()

        def g():
            a()
            try:
                hc()
            except ValueError:
                return
            b()
        """, select=["SQ1"], table=table) == []


def test_a_user_at_most_once_rule_pairs_round_a_loop_over_items(tmp_path):
    table = rule(tmp_path, "at-most-once", event=["ca"])
    assert cl("""\
        def f(rs):
            for r in rs:
                a(r)
                a(r)
        """, select=["SQ1"], table=table) == [("SQ1", 3), ("SQ1", 4)]


def test_a_user_at_most_once_rule_knows_no_idempotency_guard(tmp_path):
    table = rule(tmp_path, "at-most-once", event=["ca"])
    assert cl("""\
        def f(run):
            a(run)
            if not run.is_finished:
                a(run)
        """, select=["SQ1"], table=table) == [("SQ1", 4)]


def test_terminal_appends_keep_the_loop_and_guard_decisions():
    assert cl("""\
        def f(self, runs):
            for run in runs:
                self._ledger.append_terminal(run.id, "failed")
                self._ledger.append_terminal(run.id, "completed")

        def g(self, run):
            self._ledger.append_terminal(run.id, "failed")
            if not run.is_finished:
                self._ledger.append_terminal(run.id, "completed")
        """, select=["OC103"]) == [("OC103", 4)]


def test_a_store_into_a_target_raises_after_the_value_took_effect(tmp_path):
    table = rule(tmp_path, "sequence", first=["ca"], then=["cb"])
    assert cl("""\
        def f(z):
            try:
                z[5] = a()
            except Exception:
                b()

        def g(z):
            try:
                z.k = a()
            except Exception:
                b()

        def h(z):
            try:
                v = a()
            except Exception:
                b()
        """, select=["SQ1"], table=table) == [("SQ1", 5), ("SQ1", 11)]


def test_a_saved_value_stored_into_a_dict_then_an_append_in_the_handler():
    assert cl("""\
        def record(self, run, rec, out):
            try:
                out["v"] = self._store.save(run)
            except Exception:
                self._ledger.append(rec)
        """, select=["OC102"]) == [("OC102", 5)]


def test_a_caller_of_a_helper_that_never_returns_is_no_dead_end_itself(tmp_path):
    """The mark is the helper's own: a function that calls it on one path returns on
    the others, and a walk past its call goes on."""
    table = rule(tmp_path, "sequence", first=["ca"], then=["cb"])
    assert cl("""\
        def boom():
            raise ValueError()

        def maybe(x):
            if x:
                boom()
            return x

        def f(x):
            a()
            maybe(x)
            b()
        """, select=["SQ1"], table=table) == [("SQ1", 12)]


def test_a_method_that_is_not_implemented_is_no_dead_end(tmp_path):
    """``raise NotImplementedError`` says "an override runs here": the call goes on."""
    table = rule(tmp_path, "sequence", first=["ca"], then=["cb"])
    assert cl("""\
        class Worker:
            def run(self, job):
                raise NotImplementedError("subclasses run jobs")

            def submit(self, job):
                a()
                self.run(job)
                b()

            def fail(self, job):
                raise RuntimeError("no")

            def other(self, job):
                a()
                self.fail(job)
                b()
        """, select=["SQ1"], table=table) == [("SQ1", 8)]


@pytest.mark.parametrize("raised", ["Exception('process_remote_batch not implemented')",
                                    'Exception("needs to be implemented")',
                                    'RuntimeError("subclasses must override this")',
                                    'TypeError(f"{type(self).__name__} should be overridden")',
                                    # (a review) a long message, adjacent literals
                                    'Exception("the remote batch hook of this consumer class, '
                                    'process_remote_batch, is not implemented")',
                                    'Exception("process_remote_batch " "not implemented")',
                                    # (held-out set 153, buildstream's plugin hooks)
                                    'ImplError("plugin {} not implemented: run()".format(self))',
                                    'ImplError("plugin \'{}\' does not implement run()".format(self))',
                                    # (a third review)
                                    'Exception("run must be implemented in your subclass")',
                                    'Exception(f"{type(self).__name__} must implement run()")',
                                    'Exception("run needs to be implemented by each backend")',
                                    # (a fourth review)
                                    'Exception("Abstract method")', 'RuntimeError("Not Implemented")',
                                    'Exception("This is an abstract method, override it")'])
def test_a_method_whose_message_says_not_implemented_is_no_dead_end(tmp_path, raised):
    """(Held-out set 144, pgq's consumer hooks.) A hook's placeholder raising a plain
    exception that says so is "an override runs here" too; a method raising any other
    message still never returns."""
    table = rule(tmp_path, "sequence", first=["ca"], then=["cb"])
    assert cl(f"""\
        class Worker:
            def run(self, job):
                raise {raised}

            def submit(self, job):
                a()
                self.run(job)
                b()

            def fail(self, job):
                raise RuntimeError("cannot override a locked job")

            def other(self, job):
                a()
                self.fail(job)
                b()
        """, select=["SQ1"], table=table) == [("SQ1", 8)]


@pytest.mark.parametrize("raised", ['FileExistsError(f"{path} exists, refusing to override it")',
                                    'ValueError("the setting was overridden by the environment")',
                                    'ValueError("this cannot be implemented on Windows")',
                                    'RuntimeError("cannot override this job")',
                                    # (a second review) a setting, an admin, an HTTP status
                                    'ValueError("you must override the default in production")',
                                    'ValueError("must be overridden by the admin cannot be changed")',
                                    'HTTPError("501 Not Implemented")',
                                    # (a third review)
                                    'ValueError("the default password must be overridden: set APP_PASSWORD")',
                                    'HTTPError(f"{resp.status} Not Implemented")',
                                    'TypeError("Can\'t instantiate abstract class X with abstract method save")',
                                    # (a fourth review) a protocol's method
                                    'TypeError("X does not implement __fspath__")',
                                    'TypeError("the key function must implement __lt__")'])
def test_an_error_that_only_mentions_the_words_still_never_returns(tmp_path, raised):
    """(A review.) A real error whose message names implementing or overriding keeps
    the method a dead end."""
    table = rule(tmp_path, "sequence", first=["ca"], then=["cb"])
    assert cl(f"""\
        class Worker:
            def fail(self, job):
                raise {raised}

            def other(self, job):
                a()
                self.fail(job)
                b()
        """, select=["SQ1"], table=table) == []
