"""A nested ``def`` (or a lambda) in a handler whose body calls ``traceback.format_exc()``,
``sys.exc_info()`` or ``sys.exception()`` carries the caught exception, as one whose body
names ``e`` does (semantics §Contracts, handing the exception on; docs/decisions.md
"Handing the exception on", session 44). Held-out set 41: mara-pipelines'
``run_pipeline`` builds its error event in a helper defined in the bare ``except:``
from ``traceback.format_exc()`` and yields it to the UI: three false OC202s."""
from __future__ import annotations

import pytest
from checkutil import cl

SRC = """
    import sys
    import traceback
    from traceback import format_exc as fmt


    def f(ledger, rec, out):
        try:
            ledger.append(rec)
        except {clause}:
            def make():
                return {source}
            {use}
"""


@pytest.mark.parametrize("source", ["traceback.format_exc()", "fmt()", "sys.exc_info()[1]",
                                    "str(sys.exception())", "Output(traceback.format_exc().splitlines())"])
@pytest.mark.parametrize("use", ["out.append(make())", "yield make()", "return make()", "event = make()"])
def test_a_nested_def_reading_the_handlers_exception_hands_it_on(source, use):
    assert cl(SRC.format(clause="Exception", source=source, use=use), ["OC202"]) == []
    assert cl(SRC.format(clause="", source=source, use=use).replace("except :", "except:"), ["OC202"]) == []


@pytest.mark.parametrize("source", ["'failed'", "len(out)", "traceback.print_stack"])
def test_a_nested_def_that_reads_no_exception_hands_nothing_on(source):
    assert cl(SRC.format(clause="Exception", source=source, use="out.append(make())"), ["OC202"]) == [("OC202", 9)]


def test_passed_on_uncalled_it_hands_nothing_on():
    """``format_exc()`` gives the exception of the handler running when it is called: a
    def or lambda only passed on (a thread's target, a callback, returned) runs it later,
    outside the handler (a review, session 44)."""
    src = """
        import threading
        import traceback


        def f(ledger, rec, out, callbacks):
            try:
                ledger.append(rec)
            except Exception:
                def make():
                    return traceback.format_exc()
                threading.Thread(target=make).start()


        def g(ledger, rec, out, callbacks):
            try:
                ledger.append(rec)
            except Exception:
                callbacks.append(lambda: traceback.format_exc())


        def h(ledger, rec, out, callbacks):
            try:
                ledger.append(rec)
            except Exception:
                def make():
                    return traceback.format_exc()
            def make():
                return "later"
            try:
                ledger.append(rec)
            except Exception:
                out.append(make())
    """
    assert cl(src, ["OC202"]) == [("OC202", 8), ("OC202", 17), ("OC202", 24), ("OC202", 31)]


def test_a_def_outside_the_handler_hands_on_by_its_summary():
    src = """
        import traceback


        def describe():
            return traceback.format_exc()


        def g(ledger, rec, out):
            try:
                ledger.append(rec)
            except Exception:
                out.append(describe())
    """
    # a module-level helper that returns the running exception hands it on where it is
    # called, as the nested def does (docs/decisions.md "A helper that hands the running
    # exception on", session 60); one that returns anything else is a call like any other
    assert cl(src, ["OC202"]) == []
    assert cl(src.replace("return traceback.format_exc()", "return 'failed'"), ["OC202"]) == [("OC202", 11)]


def test_it_gives_the_exception_of_the_handler_where_it_is_called():
    """``format_exc()`` asks for the exception being handled when it runs: called in an
    inner handler, the def hands on the inner exception (mara-pipelines: the helper
    defined in the outer ``except:`` builds the event of a failed notification in
    ``except BaseException as e:``)."""
    src = """
        import traceback


        def run(ledger, rec, events):
            try:
                ledger.append(rec)
            except:
                def make(msg=None):
                    return (msg or "") + traceback.format_exc()

                events.append(make())
                try:
                    ledger.append_event(rec)
                except BaseException as e:
                    events.append(make("could not record the failure"))
                try:
                    ledger.append_event(rec)
                except BaseException:
                    pass
    """
    # the outer handler and the first inner one hand their exception on; the last
    # inner one is silent
    assert cl(src, ["OC202"]) == [("OC202", 18)]
