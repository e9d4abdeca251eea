"""Conformance to the contract (docs/semantics.md, version 2), §2 "Vocabulary", "Terminal markers", "Evaluation order" and
"Summaries": small valid and invalid cases written from the contract's sentences (docs/semantics.md) alone.

Each case marks its expected findings in the source (`# !OC102` on the anchor line);
see tests/conformance.py. The ids name the contract sentence group.
"""
import pytest
from conformance import run_case

CASES = {
    # ------------------------------------------------------------ vocabulary: matching
    # `await` is stripped before matching.
    "match-await-stripped": """
        class R:
            async def step(self, run, rec):
                await self._store.save(run)
                await self._ledger.append(rec)  # !OC102
        """,
    # Patterns match case-sensitively: `Save` is not `save`.
    "match-case-sensitive": """
        def step(self, run, rec):
            self._store.Save(run)
            self._ledger.append(rec)
        """,
    # An inner call renders as `()`: `get_store().save_run` matches `*.save_run`.
    "match-inner-call-renders-parens": """
        def step(run, rec):
            get_store().save_run(run)
            get_ledger().append_record(rec)  # !OC102
        """,
    # Bare list.append is no ledger append.
    "match-list-append-is-no-append": """
        def step(self, run, rec, items):
            self._store.save(run)
            items.append(rec)
            self.pending.append(rec)
        """,
    "match-append-record-and-save-run": """
        def step(store, log, run, r):
            store.save_run(run)
            log.append_record(r)  # !OC102
        """,
    # ------------------------------------------------------------ vocabulary: surface +=
    "surface-attribute-plus-equals": """
        def step(self, rec):
            try:
                self._ledger.append(rec)
            except Exception:
                self.failures += 1
        """,
    "surface-subscript-plus-equals": """
        def step(self, rec, stats):
            try:
                self._ledger.append(rec)
            except Exception:
                stats["lost"] += 1
        """,
    "surface-global-plus-equals": """
        LOST = 0

        def step(self, rec):
            global LOST
            try:
                self._ledger.append(rec)
            except Exception:
                LOST += 1
        """,
    "surface-nonlocal-plus-equals": """
        def outer(self, rec):
            lost = 0

            def step():
                nonlocal lost
                try:
                    self._ledger.append(rec)
                except Exception:
                    lost += 1
            step()
            return lost
        """,
    "surface-local-plus-equals-is-none": """
        def step(self, rec):
            lost = 0
            try:
                self._ledger.append(rec)  # !OC202
            except Exception:
                lost += 1
            return lost
        """,
    "surface-warnings-warn-and-metric": """
        def step(self, rec, rec2):
            try:
                self._ledger.append(rec)
            except Exception:
                warnings.warn("ledger append lost")
            try:
                self._ledger.append(rec2)
            except Exception:
                metrics.append_failures.inc()
        """,
    # ------------------------------------------------------------ vocabulary: quiet
    "quiet-debug-with-the-exception-is-silent": """
        def step(self, rec):
            try:
                self._ledger.append(rec)  # !OC202
            except Exception as e:
                logger.debug("lost: %s", e)
        """,
    "quiet-info-with-str-of-it-is-silent": """
        def step(self, rec):
            try:
                self._ledger.append(rec)  # !OC202
            except Exception as e:
                logger.info("lost: %s", str(e))
        """,
    "quiet-fstring-and-percent-are-silent": """
        def step(self, rec, rec2):
            try:
                self._ledger.append(rec)  # !OC202
            except Exception as e:
                logger.debug(f"lost: {e}")
            try:
                self._ledger.append(rec2)  # !OC202
            except Exception as e:
                logger.info("lost: %s" % e)
        """,
    "quiet-warning-is-loud": """
        def step(self, rec):
            try:
                self._ledger.append(rec)
            except Exception as e:
                logger.warning("lost: %s", e)
        """,
    "quiet-through-a-summary": """
        class R:
            def _note(self, err):
                logger.debug("append failed: %s", err)

            def step(self, rec):
                try:
                    self._ledger.append(rec)  # !OC202
                except Exception as e:
                    self._note(e)
        """,
    "quiet-helper-that-also-warns-is-not-quiet": """
        class R:
            def _note(self, err):
                logger.debug("append failed: %s", err)
                logger.warning("append failed")

            def step(self, rec):
                try:
                    self._ledger.append(rec)
                except Exception as e:
                    self._note(e)
        """,
    # ------------------------------------------------------------ terminal markers
    "marker-timed-out-hyphen": """
        def step(self, run):
            self._store.save(run)
            self._ledger.append(run.id, "timed-out")  # !OC101
        """,
    "marker-timed-out-capwords-constructor": """
        def step(self, run):
            self._store.save(run)
            self._ledger.append(TimedOut(run.id))  # !OC101
        """,
    "marker-timed-out-constant": """
        def step(self, run):
            self._store.save(run)
            self._ledger.append(run.id, TIMED_OUT)  # !OC101
        """,
    "marker-conditional-test-and-comparison-give-none": """
        def step(self, run, t):
            self._store.save(run)
            self._ledger.append(run.id, ERROR if t in FAILURE_EVENTS else DEBUG)  # !OC102
        """,
    "marker-both-branches-of-conditional-count": """
        def step(self, run, ok):
            self._store.save(run)
            self._ledger.append(run.id, "run_completed" if ok else "run_retry")  # !OC101
        """,
    "marker-comprehension-if-gives-none": """
        def step(self, run):
            self._store.save(run)
            self._ledger.append([s.id for s in run.steps if s.state == FAILED])  # !OC102
        """,
    "marker-keyword-name-gives-none": """
        def step(self, run):
            self._store.save(run)
            self._ledger.append(run.id, terminal=True, failed=None)  # !OC102
        """,
    "marker-keyword-value-gives-tokens": """
        def step(self, run):
            self._store.save(run)
            self._ledger.append(run.id, status=Status.FAILED)  # !OC101
        """,
    "marker-dict-key-gives-none": """
        def step(self, run):
            self._store.save(run)
            self._ledger.append({"failed": run.id})  # !OC102
        """,
    "marker-dict-value-gives-tokens": """
        def step(self, run):
            self._store.save(run)
            self._ledger.append({"status": "failed"})  # !OC101
        """,
    "marker-receiver-gives-none": """
        def step(self, run, r):
            self._store.save(run)
            self._failure_ledger.append(r)  # !OC102
        """,
    "marker-own-callee-name": """
        def step(self, run, r):
            self._store.save(run)
            self._ledger.append_failed(r)  # !OC101
        """,
    "marker-own-callee-through-summary": """
        class R:
            def report_run_failed(self, run):
                self._ledger.append(run.id)

            def step(self, run):
                self._store.save(run)
                self.report_run_failed(run)  # !OC101
        """,
    "marker-call-site-args-through-summary": """
        class R:
            def _record(self, run, status):
                self._ledger.append(run.id, status)

            def step(self, run):
                self._store.save(run)
                self._record(run, Status.FAILED)  # !OC101
        """,
    "marker-call-site-args-through-summary-swallowed": """
        class R:
            def _record(self, run, status):
                self._ledger.append(run.id, status)

            def step(self, run):
                try:
                    self._record(run, Status.FAILED)  # !OC201
                except Exception:
                    pass
        """,
    "marker-call-site-without-marker-swallowed-is-oc202": """
        class R:
            def _record(self, run, status):
                self._ledger.append(run.id, status)

            def step(self, run, status):
                try:
                    self._record(run, status)  # !OC202
                except Exception:
                    pass
        """,
    "marker-prose-gives-none": """
        def step(self, run):
            self._store.save(run)
            self._ledger.append(run.id, "the run will be failed")  # !OC102
        """,
    "marker-fstring-literal-parts": """
        def step(self, run, kind):
            self._store.save(run)
            self._ledger.append(f"run.{kind}.failed")  # !OC101
        """,
    "marker-fstring-with-whitespace-is-prose": """
        def step(self, run, kind):
            self._store.save(run)
            self._ledger.append(f"run {kind} failed")  # !OC102
        """,
    "marker-enum-member-of-capwords": """
        def step(self, run):
            self._store.save(run)
            self._ledger.append(run.id, RunState.cancelled)  # !OC101
        """,
    "marker-lowercase-attribute-chain": """
        def step(self, run):
            self._store.save(run)
            self._ledger.append(run.id, self.is_step_failure, run.completed_at)  # !OC102
        """,
    "marker-bound-name-right-hand-side": """
        def step(self, run):
            rec = Record(run.id, "run_failed")
            self._store.save(run)
            self._ledger.append(rec)  # !OC101
        """,
    "marker-parameter-adds-only-its-name": """
        def step(self, run, rec):
            self._store.save(run)
            self._ledger.append(rec)  # !OC102
        """,
    "marker-nested-record-constructor-callee": """
        def step(self, run):
            self._store.save(run)
            self._ledger.append(events.job_failure(run.id))  # !OC101
        """,
    "marker-terminal-is-also-append-oc102-does-not-double": """
        def step(self, run):
            self._store.save(run)
            self._ledger.append_terminal(run.id)  # !OC101
        """,
    "marker-custom-markers-replace-defaults": ("""
        def step(self, run):
            self._store.save(run)
            self._ledger.append(run.id, "run_expired")  # !OC101

        def other(self, run):
            self._store.save(run)
            self._ledger.append(run.id, "run_failed")  # !OC102
        """, {"terminal-markers": ["expired"]}),
    # ------------------------------------------------------------ evaluation order
    "order-arguments-before-the-call-that-receives-them": """
        def step(self, run, rec):
            self._store.save(self._ledger.append(rec))
        """,
    "order-save-inside-append-arguments": """
        def step(self, run, rec):
            self._ledger.append(self._store.save(run))  # !OC102
        """,
    # ------------------------------------------------------------ summaries: on return
    "summary-on-return-save-before-terminal-append": """
        class R:
            def _persist(self, run):
                self._store.save(run)

            def finish(self, run):
                self._persist(run)
                self._ledger.append(run.id, Status.COMPLETED)  # !OC101
        """,
    "summary-on-return-transitive": """
        class R:
            def _inner(self, run):
                self._store.save(run)

            def _persist(self, run):
                self._inner(run)

            def finish(self, run):
                self._persist(run)
                self._ledger.append(run.id, Status.COMPLETED)  # !OC101
        """,
    # ------------------------------------------------------------ summaries: on raise
    "summary-on-raise-saves-then-raises": """
        class R:
            def _sync(self, run):
                self._store.save(run)
                raise SyncError(run.id)

            def step(self, run):
                try:
                    self._sync(run)
                except SyncError:
                    self._ledger.append(run.id, Status.FAILED)  # !OC101
        """,
    "summary-on-raise-raises-before-saving": """
        class R:
            def _sync(self, run):
                if not run.valid:
                    raise SyncError(run.id)
                self._store.save(run)

            def step(self, run):
                try:
                    self._sync(run)
                except SyncError:
                    self._ledger.append(run.id, Status.FAILED)
        """,
    "summary-on-raise-a-save-that-raised-saved-nothing": """
        class R:
            def _sync(self, run):
                self._store.save(run)

            def step(self, run):
                try:
                    self._sync(run)
                except Exception:
                    self._ledger.append(run.id, Status.FAILED)
                    raise
        """,
    "summary-on-raise-append-only-on-the-way-out": """
        class R:
            def _do(self, run, rec):
                try:
                    work(run)
                except Exception:
                    self._ledger.append(rec)
                    raise

            def step(self, run, rec):
                self._store.save(run)
                self._do(run, rec)
        """,
    "summary-on-raise-append-on-the-way-out-caught-by-caller": """
        class R:
            def _do(self, run, rec):
                try:
                    work(run)
                except Exception:
                    self._ledger.append(rec)
                    raise

            def step(self, run, rec):
                self._store.save(run)
                try:
                    self._do(run, rec)  # !OC102
                except Exception:
                    logger.warning("work failed")
        """,
    "summary-on-return-append-after-save-reaching-only-raise": """
        def step(self, run, rec):
            self._store.save(run)
            self._ledger.append(rec)
            raise Done()
        """,
    # ------------------------------------------------------------ summaries: escaping failures
    "escaping-helper-append-fails-into-silent-caller": """
        class R:
            def _rec(self, rec):
                self._ledger.append(rec)

            def step(self, rec):
                try:
                    self._rec(rec)  # !OC202
                except Exception:
                    pass
        """,
    "escaping-helper-reports-its-own-failure": """
        class R:
            def _rec(self, rec):
                try:
                    self._ledger.append(rec)
                except Exception:
                    logger.warning("ledger append lost")

            def step(self, rec):
                try:
                    self._rec(rec)
                except Exception:
                    pass
        """,
    "escaping-helper-swallows-its-own-failure-found-inside": """
        class R:
            def _rec(self, rec):
                try:
                    self._ledger.append(rec)  # !OC202
                except Exception:
                    pass

            def step(self, rec):
                try:
                    self._rec(rec)
                except Exception:
                    pass
        """,
    "escaping-helper-narrow-handler-lets-others-escape": """
        class R:
            def _rec(self, rec):
                try:
                    self._ledger.append(rec)
                except KeyError:
                    logger.warning("ledger append lost")

            def step(self, rec):
                try:
                    self._rec(rec)  # !OC202
                except Exception:
                    pass
        """,
    "escaping-helper-that-reraises-escapes": """
        class R:
            def _rec(self, rec):
                try:
                    self._ledger.append(rec)
                except Exception:
                    logger.warning("ledger append lost")
                    raise

            def step(self, rec):
                try:
                    self._rec(rec)  # !OC202
                except Exception:
                    pass
        """,
    "escaping-save-helper-into-silent-caller": """
        class R:
            def _persist(self, run):
                self._store.save(run)

            def step(self, run):
                try:
                    self._persist(run)  # !OC203
                except Exception:
                    return False
                return True
        """,
    "escaping-helper-other-failure-only": """
        class R:
            def _rec(self, rec):
                try:
                    self._ledger.append(rec)
                except Exception:
                    logger.warning("ledger append lost")
                validate(rec)

            def step(self, rec):
                try:
                    self._rec(rec)
                except Exception:
                    pass
        """,
    # ------------------------------------------------------------ summaries: conditional
    "conditional-if-true-return": """
        class R:
            def revoked(self, run):
                if run.cancel_requested:
                    self._store.save(run)
                    return True
                return False

            def step(self, run, rec):
                if self.revoked(run):
                    return
                self._ledger.append(rec)
        """,
    "conditional-if-true-branch-gets-it": """
        class R:
            def revoked(self, run):
                if run.cancel_requested:
                    self._store.save(run)
                    return True
                return False

            def step(self, run, rec):
                if self.revoked(run):
                    self._ledger.append(rec)  # !OC102
        """,
    "conditional-not": """
        class R:
            def revoked(self, run):
                if run.cancel_requested:
                    self._store.save(run)
                    return True
                return False

            def step(self, run, rec):
                if not self.revoked(run):
                    self._ledger.append(rec)
        """,
    "conditional-not-else-branch-gets-it": """
        class R:
            def revoked(self, run):
                if run.cancel_requested:
                    self._store.save(run)
                    return True
                return False

            def step(self, run, rec):
                if not self.revoked(run):
                    return
                self._ledger.append(rec)  # !OC102
        """,
    "conditional-elif": """
        class R:
            def revoked(self, run):
                if run.cancel_requested:
                    self._store.save(run)
                    return True
                return False

            def step(self, run, rec):
                if run.done:
                    return
                elif self.revoked(run):
                    return
                self._ledger.append(rec)
        """,
    "conditional-elif-invalid": """
        class R:
            def revoked(self, run):
                if run.cancel_requested:
                    self._store.save(run)
                    return True
                return False

            def step(self, run, rec):
                if run.done:
                    return
                elif self.revoked(run):
                    self._ledger.append(rec)  # !OC102
        """,
    "conditional-while-not": """
        class R:
            def claimed(self, run):
                if run.free:
                    self._store.save(run)
                    return True
                return False

            def step(self, run, rec):
                while not self.claimed(run):
                    self._ledger.append(rec)
                    wait()
        """,
    "conditional-while-not-after-loop": """
        class R:
            def claimed(self, run):
                if run.free:
                    self._store.save(run)
                    return True
                return False

            def step(self, run, rec):
                while not self.claimed(run):
                    wait()
                self._ledger.append(rec)  # !OC102
        """,
    "conditional-while": """
        class R:
            def busy(self, run):
                if run.locked:
                    return True
                self._store.save(run)
                return False

            def step(self, run, rec):
                while self.busy(run):
                    self._ledger.append(rec)
        """,
    "conditional-return-false-only": """
        class R:
            def fresh(self, run):
                if run.stale:
                    self._store.save(run)
                    return False
                return True

            def step(self, run, rec):
                if self.fresh(run):
                    self._ledger.append(rec)
        """,
    "conditional-return-false-only-invalid": """
        class R:
            def fresh(self, run):
                if run.stale:
                    self._store.save(run)
                    return False
                return True

            def step(self, run, rec):
                if not self.fresh(run):
                    self._ledger.append(rec)  # !OC102
        """,
    "conditional-elsewhere-as-usual-assignment": """
        class R:
            def revoked(self, run):
                if run.cancel_requested:
                    self._store.save(run)
                    return True
                return False

            def step(self, run, rec):
                gone = self.revoked(run)
                if gone:
                    return
                self._ledger.append(rec)  # !OC102
        """,
    "conditional-elsewhere-as-usual-compound-test": """
        class R:
            def revoked(self, run):
                if run.cancel_requested:
                    self._store.save(run)
                    return True
                return False

            def step(self, run, rec, force):
                if self.revoked(run) and not force:
                    return
                self._ledger.append(rec)  # !OC102
        """,
    "conditional-saves-on-both-outcomes-is-not-conditional": """
        class R:
            def revoked(self, run):
                self._store.save(run)
                if run.cancel_requested:
                    return True
                return False

            def step(self, run, rec):
                if self.revoked(run):
                    return
                self._ledger.append(rec)  # !OC102
        """,
    "conditional-await": """
        class R:
            async def revoked(self, run):
                if run.cancel_requested:
                    await self._store.save(run)
                    return True
                return False

            async def step(self, run, rec):
                if await self.revoked(run):
                    return
                await self._ledger.append(rec)
        """,
    # ------------------------------------------------------------ summaries: one node
    "node-own-classes-never-a-finding": """
        class R:
            def _save_then_log(self, run, rec):
                self._store.save(run)
                self._ledger.append(rec)  # !OC102

            def step(self, run, rec):
                self._save_then_log(run, rec)
                self._save_then_log(run, rec)
        """,
    "node-own-unless-after-covers-its-then": """
        class R:
            def finish(self, run):
                self._ledger.append(run.id, Status.COMPLETED)
                self._store.save(run)

            def step(self, run):
                self._store.save(run)
                self.finish(run)
        """,
    "node-may-helper-warns-on-one-path-is-loud": """
        class R:
            def _report(self, err, loud):
                if loud:
                    logger.warning("append failed")

            def step(self, rec, loud):
                try:
                    self._ledger.append(rec)
                except Exception:
                    self._report(None, loud)
        """,
    "node-class-call-carries-init": """
        class Checkpoint:
            def __init__(self, store, run):
                store.save(run)

        def step(store, ledger, run, rec):
            Checkpoint(store, run)
            ledger.append(rec)  # !OC102
        """,
    "node-lambda-contributes-nothing": """
        def step(self, run, rec):
            later = lambda: self._store.save(run)
            self._ledger.append(rec)
            return later
        """,
    "node-uncalled-nested-def-contributes-nothing": """
        def step(self, run, rec):
            def later():
                self._store.save(run)
            self._ledger.append(rec)
            return later
        """,
    "node-nested-def-called-contributes": """
        def step(self, run, rec):
            def persist():
                self._store.save(run)
            persist()
            self._ledger.append(rec)  # !OC102
        """,
    "node-recursion-converges": """
        class R:
            def walk(self, run, n):
                if n:
                    self.walk(run, n - 1)
                else:
                    self._store.save(run)

            def step(self, run, rec):
                self.walk(run, 3)
                self._ledger.append(rec)  # !OC102
        """,
}


def _param(name, case):
    src, table = case if isinstance(case, tuple) else (case, None)
    return pytest.param(src, table, id=name)


@pytest.mark.parametrize("src,table", [_param(k, v) for k, v in CASES.items()])
def test_case(src, table):
    got, want, detail = run_case(src, table)
    assert got == want, detail
