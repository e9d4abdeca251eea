"""Conformance to the contract (docs/semantics.md, version 2): more probes of §2 and §4 sentences (marks as in tests/conformance.py).

Each case was first run against the engine; those that disagreed with the contract were
fixed in the engine (see the commit log) or recorded in docs/decisions.md."""
import pytest
from conformance import run_case, run_files

CASES = {}


def c(name, src, table=None, extra=()):
    CASES[name] = (src, table, extra)


c("sub-string", '''
def step(self, run):
    self._store.save(run)
    self._ledger.append(STATUS["failed"])  # !OC101
''')
c("starstar-dict", '''
def step(self, run):
    self._store.save(run)
    self._ledger.append(**{"status": "failed"})  # !OC101
''')
c("starred", '''
def step(self, run):
    self._store.save(run)
    self._ledger.append(*[run.id, Status.CANCELLED])  # !OC101
''')
c("enum-subscript", '''
def step(self, run):
    self._store.save(run)
    self._ledger.append(run.id, Status["FAILED"])  # !OC101
''')
c("bare-CapWords-attr-any", '''
def step(self, run):
    self._store.save(run)
    self._ledger.append(run.id, State.Done, State.finished)  # !OC101
''')
c("event-name-with-dot-camel", '''
def step(self, run):
    self._store.save(run)
    self._ledger.append("dagster.RunCanceled")  # !OC101
''')
c("string-in-nested-call-kwarg", '''
def step(self, run):
    self._store.save(run)
    self._ledger.append(Event(run.id, kind="job.succeeded"))  # !OC101
''')
c("ended-marker", '''
def step(self, run):
    self._store.save(run)
    self._ledger.append(run.id, "session_ended")  # !OC101
''')
c("canceled-us", '''
def step(self, run):
    self._store.save(run)
    self._ledger.append(run.id, RunStatus.CANCELED)  # !OC101
''')
c("number-suffix", '''
def step(self, run):
    self._store.save(run)
    self._ledger.append(run.id, "FAILED2")  # !OC102
''')
c("camel-acronym", '''
def step(self, run):
    self._store.save(run)
    self._ledger.append(run.id, HTTPFailed)  # !OC101
''')
c("module-plus-equals-surface", '''
LOST = 0
try:
    ledger.append(rec)
except Exception:
    LOST += 1
''')
c("module-local-plus-equals-in-func-not-global", '''
LOST = 0
def step(self, rec):
    try:
        self._ledger.append(rec)  # !OC202
    except Exception:
        LOST = 1
''')
c("class-level-alias-of-imported-logger", '''
from app.log import logger
class W:
    warn = logger.warning
    def step(self, rec):
        try:
            self._ledger.append(rec)
        except Exception:
            self.warn("lost")
''')
c("alias-info-quiet-with-e", '''
info = logger.info
def step(self, rec):
    try:
        self._ledger.append(rec)  # !OC202
    except Exception as e:
        info("lost %s", e)
''')
c("super-init-carries-base-init", '''
class Base:
    def __init__(self, store, run):
        store.save(run)
class Child(Base):
    def __init__(self, store, run, ledger):
        super().__init__(store, run)
        ledger.append(run.id, "run_failed")  # !OC101
''')
c("class-call-inherited-init", '''
class Base:
    def __init__(self, store, run):
        store.save(run)
class Child(Base):
    pass
def step(store, ledger, run):
    Child(store, run)
    ledger.append(run.id, "run_failed")  # !OC101
''')
c("type-list-no-type", '''
class RunRepo:
    def put(self, run):
        self._store.save(run)
def step(repos: list[RunRepo], ledger, run):
    repos.put(run)
    ledger.append(run.id, "run_failed")
''')
c("type-quoted-optional", '''
from typing import Optional
class RunRepo:
    def put(self, run):
        self._store.save(run)
def step(repo: "Optional[RunRepo]", ledger, run):
    repo.put(run)
    ledger.append(run.id, "run_failed")  # !OC101
''')
c("type-module-variable", '''
class RunRepo:
    def put(self, run):
        self._store.save(run)
REPO = RunRepo()
def step(ledger, run):
    REPO.put(run)
    ledger.append(run.id, "run_failed")  # !OC101
''')
c("type-self-attr-class-optional", '''
from typing import Optional
class RunRepo:
    def put(self, run):
        self._store.save(run)
class W:
    repo: Optional[RunRepo] = None
    def step(self, run):
        self.repo.put(run)
        self._ledger.append(run.id, "run_failed")  # !OC101
''')
c("conditional-elif-not", '''
class R:
    def revoked(self, run):
        if run.c:
            self._store.save(run)
            return True
        return False
    def step(self, run, rec):
        if run.done:
            return
        elif not self.revoked(run):
            self._ledger.append(rec)
''')
c("conditional-return-true-via-else-structure", '''
class R:
    def revoked(self, run):
        if not run.c:
            return False
        self._store.save(run)
        return True
    def step(self, run, rec):
        if self.revoked(run):
            return
        self._ledger.append(rec)
''')
c("conditional-bare-return-is-not-true", '''
class R:
    def revoked(self, run):
        if run.c:
            self._store.save(run)
            return True
        return
    def step(self, run, rec):
        if self.revoked(run):
            return
        self._ledger.append(rec)
''')
c("conditional-fallthrough-none", '''
class R:
    def revoked(self, run):
        if run.c:
            self._store.save(run)
            return True
    def step(self, run, rec):
        if self.revoked(run):
            return
        self._ledger.append(rec)
''')
c("conditional-return-other-value", '''
class R:
    def revoked(self, run):
        if run.c:
            self._store.save(run)
            return True
        return run.x
    def step(self, run, rec):
        if self.revoked(run):
            return
        self._ledger.append(rec)
''')
c("correlated-nine-names", '''
def step(self, run, rec, a, b, c, d, e, f, g, h, i):
    if a: pass
    if b: pass
    if c: pass
    if d: pass
    if e: pass
    if f: pass
    if g: pass
    if h: pass
    if i:
        self._store.save(run)
    if a: pass
    if b: pass
    if c: pass
    if d: pass
    if e: pass
    if f: pass
    if g: pass
    if h: pass
    if not i:
        self._ledger.append(rec)  # !OC102
''')
c("correlated-nested-function-name", '''
def step(self, run, rec, flag):
    if flag:
        self._store.save(run)
    def inner():
        nonlocal flag
        flag = not flag
    inner()
    if not flag:
        self._ledger.append(rec)  # !OC102
''')
c("correlated-match-capture", '''
def step(self, run, rec, x, cmd):
    if not x:
        self._store.save(run)
    match cmd:
        case x:
            pass
    if x:
        self._ledger.append(rec)  # !OC102
''')
c("correlated-while-exit", '''
def step(self, run, rec, busy):
    if not busy:
        self._store.save(run)
    while busy:
        wait()
    self._ledger.append(rec)  # !OC102
''')
c("correlated-walrus-test-itself", '''
def step(self, run, rec, x):
    if x:
        self._store.save(run)
    if not (x := fetch()):
        self._ledger.append(rec)  # !OC102
''')
c("handon-yield-from", '''
def step(self, rec):
    try:
        self._ledger.append(rec)
    except Exception as e:
        yield from handle(e)
''')
c("handon-tuple-assign", '''
def step(self, rec):
    try:
        self._ledger.append(rec)
    except Exception as e:
        self.err, self.when = e, now()
''')
c("handon-await-call", '''
async def step(self, rec):
    try:
        await self._ledger.append(rec)
    except Exception as e:
        await self.on_error(e)
''')
c("handon-sys-exc-info-subscript-quiet", '''
import sys
def step(self, rec):
    try:
        self._ledger.append(rec)  # !OC202
    except Exception:
        logger.debug("lost %s", sys.exc_info()[1])
''')
c("handon-lambda-in-handler", '''
def step(self, rec):
    try:
        self._ledger.append(rec)  # !OC202
    except Exception as e:
        cb = lambda: 1
''')
c("handon-helper-raises-is-loud?", '''
class R:
    def _fail(self, e):
        raise RuntimeError("x") from e
    def step(self, rec):
        try:
            self._ledger.append(rec)
        except Exception as e:
            self._fail(e)
''')
c("quiet-debug-and-info-only", '''
def step(self, rec):
    try:
        self._ledger.append(rec)  # !OC202
    except Exception as e:
        logger.info("lost")
        logger.debug("why: %r", e)
''')
c("oc204-handon-info-only", '''
def step(self, x):
    try:
        compute(x)
    except Exception:  # !OC204
        logger.info("failed")
''', extra=("OC204",))
c("oc204-handon-assign", '''
def step(self, x):
    try:
        compute(x)
    except Exception as e:
        self.err = e
''', extra=("OC204",))
c("oc204-flag", '''
def step(self, x):
    ok = True
    try:
        compute(x)
    except BaseException:  # !OC204
        ok = False
    return ok
''', extra=("OC204",))
c("oc204-bare", '''
def step(self, x):
    try:
        compute(x)
    except:  # !OC204
        pass
''', extra=("OC204",))
c("finally-continue-swallows", '''
def step(self, recs):
    for rec in recs:
        try:
            self._ledger.append(rec)  # !OC202
        finally:
            continue
''')
c("suppressor-default", '''
def step(self, rec):
    with best_effort():
        self._ledger.append(rec)  # !OC202
''')
c("terminal-append-then-unresolved-raise-only", '''
def step(self, run):
    self._store.save(run)
    self._ledger.append(run.id, Status.FAILED)
    raise RunFailed(run.id)
''')
c("async-for-while-true", '''
def step(self, run, rec):
    while True:
        self._store.save(run)
    self._ledger.append(rec)
''')
c("suppress-narrow", '''
import contextlib
def step(self, rec):
    with contextlib.suppress(KeyError):
        self._ledger.append(rec)
''')
c("suppress-broad-imported", '''
from contextlib import suppress
def step(self, rec):
    with suppress(Exception):
        self._ledger.append(rec)  # !OC202
''')
c("suppress-swallow-types", '''
import contextlib, sqlite3
def step(self, rec):
    with contextlib.suppress(sqlite3.Error):
        self._ledger.append(rec)  # !OC202
''', {"swallow-types": ["sqlite3.Error"]})
# a helper that always raises is a dead end for the handler (docs/decisions.md "A
# helper that never returns"; the contract's text alone gave OC202 here)
c("helper-always-raises-no-e", '''
class R:
    def _abort(self):
        raise Abort()
    def step(self, rec):
        try:
            self._ledger.append(rec)
        except Exception:
            self._abort()
''')
c("helper-may-raise-no-e", '''
class R:
    def _abort(self, strict):
        if strict:
            raise Abort()
    def step(self, rec, strict):
        try:
            self._ledger.append(rec)  # !OC202
        except Exception:
            self._abort(strict)
''')
c("quiet-transitive", '''
class R:
    def _dbg(self, e):
        logger.debug("x %s", e)
    def _note(self, e):
        self._dbg(e)
    def step(self, rec):
        try:
            self._ledger.append(rec)  # !OC202
        except Exception as e:
            self._note(e)
''')
c("qual-import-as-type", '''
from sqlalchemy.orm import Session as S
def step(s: S, ledger, run):
    s.commit()
    ledger.append(run.id, "run_failed")  # !OC101
''', {"extend-events": {"save": ["sqlalchemy.orm.Session.commit"]}})
c("qual-constructor-module-attr", '''
import acme.db
def step(ledger, run):
    db = acme.db.RunStore()
    db.write(run)
    ledger.append(run.id, "run_failed")  # !OC101
''', {"extend-events": {"save": ["acme.db.RunStore.write"]}})
c("alias-to-call-is-no-alias", '''
def step(self, run, rec):
    save = get_store().save_run
    save(run)
    self._ledger.append(rec)
''')
c("corr-not-or", '''
def step(self, run, rec, a, b):
    if not (a or b):
        self._store.save(run)
    if a:
        self._ledger.append(rec)
''')
c("corr-not-and-false-branch", '''
def step(self, run, rec, a, b):
    if not (a and b):
        return
    self._store.save(run)
    if not a:
        self._ledger.append(rec)
''')
c("corr-assert-not-none", '''
def step(self, run, rec, x):
    if x is None:
        self._store.save(run)
    assert x is not None
    self._ledger.append(rec)
''')
c("corr-three-and", '''
def step(self, run, rec, a, b, c):
    if a and b and c:
        self._store.save(run)
    if not c:
        self._ledger.append(rec)
''')
c("esc-try-finally", '''
class R:
    def _rec(self, rec):
        try:
            self._ledger.append(rec)
        finally:
            cleanup()
    def step(self, rec):
        try:
            self._rec(rec)  # !OC202
        except Exception:
            pass
''')
c("esc-suppress-in-helper", '''
import contextlib
class R:
    def _rec(self, rec):
        with contextlib.suppress(Exception):
            self._ledger.append(rec)  # !OC202
    def step(self, rec):
        try:
            self._rec(rec)
        except Exception:
            pass
''')
c("onraise-finally-save", '''
class R:
    def _x(self, run):
        try:
            work()
        finally:
            self._store.save(run)
    def step(self, run, rec):
        try:
            self._x(run)  # !OC203
        except Exception:
            self._ledger.append(rec)  # !OC102
''')
c("node-two-classes-at-most-once-not-self", '''
class R:
    def finish(self, run):
        self._ledger.append(run.id, "run_completed")
        self._store.save(run)
    def step(self, run):
        self.finish(run)
        self.finish(run)  # !OC103
''')
c("terminal-summary-helper-saves-too", '''
class R:
    def finish(self, run):
        self._store.save(run)
        self._ledger.append(run.id, "run_completed")  # !OC101
    def step(self, run):
        self._store.save(run)
        self.finish(run)
''')
c("conditional-nested-helper-true", '''
class R:
    def _inner(self, run):
        if run.c:
            self._store.save(run)
            return True
        return False
    def revoked(self, run):
        if self._inner(run):
            return True
        return False
    def step(self, run, rec):
        if self.revoked(run):
            return
        self._ledger.append(rec)
''')
c("conditional-return-call-is-not-literal", '''
class R:
    def _inner(self, run):
        if run.c:
            self._store.save(run)
            return True
        return False
    def revoked(self, run):
        return self._inner(run)
    def step(self, run, rec):
        if self.revoked(run):
            return
        self._ledger.append(rec)  # !OC102
''')
c("handon-return-str", '''
def step(self, rec):
    try:
        self._ledger.append(rec)
    except Exception as e:
        return {"error": str(e)}
''')
c("handon-nested-handler-outer-e", '''
def step(self, rec):
    try:
        self._ledger.append(rec)
    except Exception as e:
        try:
            cleanup()
        except Exception:
            pass
        self.err = e
''')
c("surface-augmented-attr-in-helper", '''
class R:
    def _count(self):
        self.lost += 1
    def step(self, rec):
        try:
            self._ledger.append(rec)
        except Exception:
            self._count()
''')
c("surface-local-plus-in-helper", '''
class R:
    def _count(self):
        n = 0
        n += 1
        return n
    def step(self, rec):
        try:
            self._ledger.append(rec)  # !OC202
        except Exception:
            self._count()
''')
c("marker-fstring-format-spec", '''
def step(self, run):
    self._store.save(run)
    self._ledger.append(f"{run.id}:FAILED")  # !OC101
''')
c("marker-string-concat-plus", '''
def step(self, run):
    self._store.save(run)
    self._ledger.append("run_" + "failed")  # !OC101
''')
c("marker-percent-format", '''
def step(self, run):
    self._store.save(run)
    self._ledger.append("run.%s.failed" % run.id)  # !OC101
''')
c("marker-method-on-string", '''
def step(self, run):
    self._store.save(run)
    self._ledger.append("run.{}.failed".format(run.id))  # !OC101
''')
c("marker-call-callee-lowercase-split", '''
def step(self, run):
    self._store.save(run)
    self._ledger.append(make_failed_record(run))  # !OC101
''')
c("marker-awaited-arg", '''
async def step(self, run):
    await self._store.save(run)
    await self._ledger.append(await build(run, Status.FAILED))  # !OC101
''')
c("marker-await-own-callee", '''
async def step(self, run, r):
    await self._store.save(run)
    await self._ledger.append_completed(r)  # !OC101
''')
c("corr-loop-once-tested", '''
def step(self, runs, rec, flag):
    for run in runs:
        if flag:
            self._store.save(run)
        else:
            self._ledger.append(rec)  # !OC102
''')
c("corr-loop-twice-tested", '''
def step(self, runs, rec, flag):
    for run in runs:
        if flag:
            self._store.save(run)
        if not flag:
            self._ledger.append(rec)
''')
c("node-save-and-append-both-escape", '''
class R:
    def _both(self, run, rec):
        self._ledger.append(rec)
        self._store.save(run)
    def step(self, run, rec):
        try:
            self._both(run, rec)  # !OC202 !OC203
        except Exception:
            pass
''')
c("class-alias-module-function", '''
def persist(store, run):
    store.save(run)
class W:
    process = persist
    def step(self, run):
        self.process(self._store, run)
        self._ledger.append(run.id, "run_failed")  # !OC101
''')
c("class-alias-quiet-tuple", '''
class W:
    debug, info = logger.debug, logger.info
    def step(self, rec):
        try:
            self._ledger.append(rec)  # !OC202
        except Exception as e:
            self.debug("lost %s", e)
''')
c("enum-member-underscore", '''
def step(self, run):
    self._store.save(run)
    self._ledger.append(run.id, RunState.failed_over)  # !OC101
''')
c("bound-self-call-string", '''
def step(self, run):
    rec = self._make(run, "failed")
    self._store.save(run)
    self._ledger.append(rec)  # !OC101
''')
c("ifexp-facts", '''
def step(self, run, rec, flag):
    if flag:
        self._store.save(run)
    x = self._ledger.append(rec) if not flag else None
    return x
''')
c("handon-return-in-finally", '''
def step(self, rec):
    try:
        self._ledger.append(rec)  # !OC202
    finally:
        return
''')
c("oc204-tuple-broad", '''
def step(x):
    try:
        compute(x)
    except (ValueError, Exception):  # !OC204
        return None
''', extra=("OC204",))
c("oc204-narrow-none", '''
def step(x):
    try:
        compute(x)
    except ValueError:
        return None
''', extra=("OC204",))
c("oc204-handon-quiet-helper", '''
def _dbg(e):
    logger.debug("x %s", e)
def step(x):
    try:
        compute(x)
    except Exception as e:  # !OC204
        _dbg(e)
''', extra=("OC204",))
c("module-level-handler", '''
try:
    ledger.append(rec)  # !OC202
except Exception:
    pass
''')
c("module-level-seq", '''
store.save(run)
ledger.append(rec)  # !OC102
''')
c("terminal-kw-only-own-callee-receiver", '''
def step(self, run):
    self._store.save(run)
    self.completed_ledger.append(run.id)  # !OC102
''')
c("surface-plus-equals-attr-of-local", '''
def step(self, rec, stats):
    try:
        self._ledger.append(rec)
    except Exception:
        stats.lost += 1
''')
c("conditional-surface-not-branch", '''
class R:
    def report(self, rec):
        if rec.important:
            logger.warning("x")
            return True
        return False
    def step(self, rec):
        try:
            self._ledger.append(rec)
        except Exception:
            if not self.report(rec):
                raise
''')
c("onraise-helper-conditional-return", '''
class R:
    def _sync(self, run):
        self._store.save(run)
        if run.conflict:
            raise SyncConflict()
    def step(self, run, rec):
        try:
            self._sync(run)
        except SyncConflict:
            self._ledger.append(rec)  # !OC102
''')
c("onraise-oc103", '''
class R:
    def _finish(self, run):
        self._ledger.append(run.id, Status.COMPLETED)
        raise Done()
    def step(self, run):
        try:
            self._finish(run)
        except Done:
            self._ledger.append(run.id, Status.FAILED)  # !OC103
        self._store.save(run)
''')
c("onreturn-only-no-oc103", '''
class R:
    def _finish(self, run):
        self._ledger.append(run.id, Status.COMPLETED)
    def step(self, run):
        try:
            self._finish(run)
        except Exception:
            self._ledger.append(run.id, Status.FAILED)
            raise
        self._store.save(run)
''')
c("conditional-in-ifexp-as-usual", '''
class R:
    def revoked(self, run):
        if run.c:
            self._store.save(run)
            return True
        return False
    def step(self, run, rec):
        return None if self.revoked(run) else self._ledger.append(rec)  # !OC102
''')
c("conditional-in-assert-as-usual", '''
class R:
    def revoked(self, run):
        if run.c:
            self._store.save(run)
            return True
        return False
    def step(self, run, rec):
        assert not self.revoked(run)
        self._ledger.append(rec)  # !OC102
''')
c("order-augmented-target-first", '''
def step(self, run, rec, counts):
    counts[self._store.save(run)] += self._ledger.append(rec)  # !OC102
''')
c("order-ifexp-test-first", '''
def step(self, run, rec):
    x = self._ledger.append(rec) if self._store.save(run) else None  # !OC102
    return x
''')
c("order-dict-literal", '''
def step(self, run, rec):
    d = {"a": self._store.save(run), "b": self._ledger.append(rec)}  # !OC102
    return d
''')
c("order-fstring", '''
def step(self, run, rec):
    return f"{self._ledger.append(rec)} {self._store.save(run)}"
''')
c("handon-into-save-call", '''
def step(self, run, rec):
    try:
        self._ledger.append(rec)
    except Exception as e:
        self._store.save(run, error=e)
''')
c("alias-local-surface", '''
def step(self, rec):
    warn = logger.warning
    try:
        self._ledger.append(rec)
    except Exception:
        warn("lost")
''')
c("alias-local-after-use-not", '''
def step(self, rec):
    try:
        self._ledger.append(rec)  # !OC202
    except Exception:
        warn("lost")
    warn = logger.warning
''')
c("terminal-own-callee-of-summary-swallowed", '''
class R:
    def _append_failed(self, run):
        self._ledger.append(run.id)
    def step(self, run):
        try:
            self._append_failed(run)  # !OC201
        except Exception:
            pass
''')
c("summary-surface-on-raise-only", '''
class R:
    def _risky(self, rec):
        try:
            self._ledger.append(rec)
        except Exception:
            logger.warning("lost")
            raise
    def step(self, rec):
        try:
            self._risky(rec)  # !OC202
        except Exception:
            pass
''')
c("async-with-none", '''
async def step(self, run, rec):
    await self._store.save(run)
    async for x in self._ledger.append(rec):  # !OC102
        pass
''')
c("yield-append", '''
def step(self, run, rec):
    self._store.save(run)
    yield self._ledger.append(rec)  # !OC102
''')
c("return-append", '''
def step(self, run, rec):
    self._store.save(run)
    return self._ledger.append(rec)  # !OC102
''')
c("corr-is-not-none-then-none", '''
def step(self, run, rec, prev):
    if prev is not None:
        return
    self._store.save(run)
    if prev:
        self._ledger.append(rec)
''')
c("corr-while-else", '''
def step(self, run, rec, more):
    if more:
        self._store.save(run)
    while more:
        more = fetch()
    self._ledger.append(rec)  # !OC102
''')
c("str-trailing-space-prose", '''
def step(self, run):
    self._store.save(run)
    self._ledger.append(run.id, "failed ")  # !OC102
''')
c("str-tab-prose", '''
def step(self, run):
    self._store.save(run)
    self._ledger.append(run.id, "run\\tfailed")  # !OC102
''')
c("bytes-literal", '''
def step(self, run):
    self._store.save(run)
    self._ledger.append(run.id, b"run_failed")  # !OC101
''')
c("suppress-whatever-suppressor-holds", '''
import contextlib
def step(self, rec):
    with contextlib.suppress(Exception):
        self._ledger.append(rec)  # !OC202
''', {"events": {"suppressor": ["nothing_at_all"]}})
c("suppressor-configured", '''
def step(self, rec):
    with quietly():
        self._ledger.append(rec)  # !OC202
''', {"events": {"suppressor": ["quietly"]}})
c("quiet-configured-print", '''
def step(self, rec):
    try:
        self._ledger.append(rec)  # !OC202
    except Exception as e:
        print(e)
''', {"extend-events": {"quiet": ["print"]}})
c("surface-configured", '''
def step(self, rec):
    try:
        self._ledger.append(rec)
    except Exception:
        sentry.capture()
''', {"extend-events": {"surface": ["sentry.capture"]}})
c("terminal-append-class-pattern", '''
def step(self, run, r):
    self._store.save(run)
    self._ledger.append_terminal(r)  # !OC101
''')
c("markers-multiword-config", '''
def step(self, run):
    self._store.save(run)
    self._ledger.append(run.id, RunStatus.GAVE_UP)  # !OC101
''', {"terminal-markers": ["gave up"]})

# A summary's "some path" is a walk: a callee's correlated tests prune its infeasible
# walks before its effects are read (semantics §Contracts "A path is a walk").
c("summary-onraise-correlated", '''
class R:
    def _finish(self, run, dry):
        if not dry:
            self._store.save(run)
        if dry:
            raise DryRun()
    def step(self, run, rec, dry):
        try:
            self._finish(run, dry)
        except DryRun:
            self._ledger.append(rec)
''')
c("summary-conditional-correlated", '''
class R:
    def revoked(self, run, force):
        if force:
            self._store.save(run)
        if force:
            return True
        return False
    def step(self, run, rec, force):
        if self.revoked(run, force):
            return
        self._ledger.append(rec)
''')
c("summary-onreturn-correlated", '''
class R:
    def _maybe(self, run, dry):
        if not dry:
            self._store.save(run)
        if not dry:
            raise Stop()
    def step(self, run, rec, dry):
        self._maybe(run, dry)
        self._ledger.append(rec)
''')
c("cond-not-await", '''
class R:
    async def revoked(self, run):
        if run.c:
            await self._store.save(run)
            return True
        return False
    async def step(self, run, rec):
        if not await self.revoked(run):
            await self._ledger.append(rec)
''')
c("cond-elif-not-await-invalid", '''
class R:
    async def revoked(self, run):
        if run.c:
            await self._store.save(run)
            return True
        return False
    async def step(self, run, rec):
        if run.done:
            return
        elif not await self.revoked(run):
            return
        await self._ledger.append(rec)  # !OC102
''')
c("onraise-finally-in-caller", '''
class R:
    def _sync(self, run):
        self._store.save(run)
        raise SyncError()
    def step(self, run, rec):
        try:
            self._sync(run)
        finally:
            self._ledger.append(rec)
''')
c("cond-static-helper-module-import-alias", '''
def revoked(store, run):
    if run.c:
        store.save(run)
        return True
    return False
check = revoked
def step(store, ledger, run, rec):
    if check(store, run):
        return
    ledger.append(rec)
''')
c("cond-typed-receiver", '''
class Lease:
    def acquire(self, run):
        if run.free:
            self._store.save(run)
            return True
        return False
def step(lease: Lease, ledger, run, rec):
    if not lease.acquire(run):
        ledger.append(rec)
        return
    ledger.append(rec)  # !OC102
''')

# semantics §Events: the default `append` patterns name ledgers: `*ledger*.append*`,
# `*journal*.append*`, ... (docs/decisions.md: a call chained on the result is not one)
c("default-append-ledger-anywhere-in-the-receiver", '''
def step(self, run, rec):
    self._store.save(run)
    self._ledger_client.append(rec)  # !OC102
''')
c("default-append-ledger-factory", '''
def step(self, run, rec):
    self._store.save(run)
    get_ledger().append(rec)  # !OC102
''')
c("default-append-journal-store", '''
def step(self, run, rec):
    self._store.save(run)
    self.journal_store.append(rec)  # !OC102
''')
c("default-append-any-suffix", '''
def step(self, run, rec):
    self._store.save(run)
    self.ledger.appendleft(rec)  # !OC102
    self._journal.appendRecord(rec)  # !OC102
''')
c("default-append-chained-on-the-result-is-one-append", '''
def step(self, run, rec):
    self._store.save(run)
    self._ledger_client.append(rec).wait()  # !OC102
''')
c("default-append-plain-lists-never", '''
def step(self, run, rec, results):
    self._store.save(run)
    results.append(rec)
    self.pending_events.append(rec)
    self.records.append(rec)
''')

PROJECTS = {
 "from-pkg-import-module": {
   "pkg/__init__.py": "",
   "pkg/store.py": "def persist(store, run):\n    store.save(run)\n",
   "pkg/w.py": "from pkg import store\n\ndef step(st, ledger, run):\n    store.persist(st, run)\n    ledger.append(run.id, 'run_failed')  # !OC101\n",
 },
 "from-dot-import-module": {
   "pkg/__init__.py": "",
   "pkg/store.py": "def persist(store, run):\n    store.save(run)\n",
   "pkg/w.py": "from . import store\n\ndef step(st, ledger, run):\n    store.persist(st, run)\n    ledger.append(run.id, 'run_failed')  # !OC101\n",
 },
 "import-pkg-store-plain": {
   "pkg/__init__.py": "",
   "pkg/store.py": "def persist(store, run):\n    store.save(run)\n",
   "pkg/w.py": "import pkg.store\n\ndef step(st, ledger, run):\n    pkg.store.persist(st, run)\n    ledger.append(run.id, 'run_failed')  # !OC101\n",
 },
 "class-staticmethod-imported": {
   "pkg/__init__.py": "",
   "pkg/store.py": "class Store:\n    @staticmethod\n    def persist(store, run):\n        store.save(run)\n",
   "pkg/w.py": "from .store import Store\n\ndef step(st, ledger, run):\n    Store.persist(st, run)\n    ledger.append(run.id, 'run_failed')  # !OC101\n",
 },
 "base-class-other-module-type": {
   "pkg/__init__.py": "",
   "pkg/base.py": "class BaseRepo:\n    def put(self, run):\n        self._store.save(run)\n",
   "pkg/repo.py": "from .base import BaseRepo\n\nclass RunRepo(BaseRepo):\n    pass\n",
   "pkg/w.py": "from .repo import RunRepo\n\ndef step(repo: RunRepo, ledger, run):\n    repo.put(run)\n    ledger.append(run.id, 'run_failed')  # !OC101\n",
 },
}


@pytest.mark.parametrize("name", list(CASES))
def test_case(name):
    src, table, extra = CASES[name]
    got, want, detail = run_case(src, table, extra)
    assert got == want, detail


@pytest.mark.parametrize("name", list(PROJECTS))
def test_project(tmp_path, name):
    got, want, detail = run_files(tmp_path, PROJECTS[name])
    assert got == want, detail
