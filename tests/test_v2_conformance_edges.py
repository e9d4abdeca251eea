"""Conformance to the contract (docs/semantics.md, version 2): the harder readings of §2 and §4 sentences (marks as in
tests/conformance.py)."""
import pytest
from conformance import run_case

CASES = {
    # ------------------------------------------------------------ markers
    # Split on non-alphanumeric characters and camelCase only: digits stay in their word.
    "marker-digits-stay-in-their-token": """
        def step(self, run):
            self._store.save(run)
            self._ledger.append(run.id, "FAILED2", "retry_2FAILED")  # !OC102
        """,
    "marker-digit-before-a-capital-word": """
        def step(self, run):
            self._store.save(run)
            self._ledger.append(run.id, "S3UploadFailed")  # !OC101
        """,
    "marker-annotated-binding": """
        def step(self, run):
            rec: Record = Record(run.id, "run_failed")
            self._store.save(run)
            self._ledger.append(rec)  # !OC101
        """,
    "marker-lowercase-multiword-name-is-one-token": """
        def step(self, run, timed_out):
            self._store.save(run)
            self._ledger.append(run.id, timed_out)  # !OC102
        """,
    "marker-parameter-named-like-a-marker": """
        def step(self, run, failed):
            self._store.save(run)
            self._ledger.append(run.id, failed)  # !OC101
        """,
    "marker-camelcase-own-callee": """
        def step(self, run, r):
            self._store.save(run)
            self._ledger.append_runFailed(r)  # !OC101
        """,
    "marker-receiver-of-argument-call-gives-none": """
        def step(self, run):
            self._store.save(run)
            self._ledger.append(failure_events.make(run.id))  # !OC102
        """,
    "marker-constructor-in-module": """
        def step(self, run):
            self._store.save(run)
            self._ledger.append(events.RunFailed(run.id))  # !OC101
        """,
    "marker-conditional-test-gives-none": """
        def step(self, run):
            self._store.save(run)
            self._ledger.append(run.id, "step" if run.failed else "tick")  # !OC102
        """,
    "marker-bound-conditional-both-branches": """
        def step(self, run, bad):
            kind = "run_failed" if bad else "run_ok"
            self._store.save(run)
            self._ledger.append(run.id, kind)  # !OC101
        """,
    "marker-bound-comparison-gives-none": """
        def step(self, run, state):
            done = state == COMPLETED
            self._store.save(run)
            self._ledger.append(run.id, done)  # !OC102
        """,
    "marker-bound-prose-gives-none": """
        def step(self, run):
            msg = "the run has failed"
            self._store.save(run)
            self._ledger.append(run.id, msg)  # !OC102
        """,
    "marker-bound-one-level-deep": """
        def step(self, run):
            kind = "run_failed"
            rec = make(run.id, kind)
            self._store.save(run)
            self._ledger.append(rec)  # !OC102
        """,
    "marker-bound-name-in-another-function-gives-none": """
        def other(run):
            rec = Record(run.id, "run_failed")
            return rec

        def step(self, run, rec):
            self._store.save(run)
            self._ledger.append(rec)  # !OC102
        """,
    "marker-at-most-once-through-summary": """
        class R:
            def _record(self, run, status):
                self._ledger.append(run.id, status)

            def step(self, run, ok):
                self._record(run, Status.COMPLETED)
                if not ok:
                    self._record(run, Status.FAILED)  # !OC103
                self._store.save(run)
        """,
    "marker-summary-call-without-marker-is-not-terminal-for-oc103": """
        class R:
            def _record(self, run, status):
                self._ledger.append(run.id, status)

            def step(self, run, a, b):
                self._record(run, a)
                self._record(run, b)
                self._store.save(run)
        """,
    # ------------------------------------------------------------ evaluation order
    "order-positional-arguments-left-to-right": """
        def step(self, run, rec):
            combine(self._store.save(run), self._ledger.append(rec))  # !OC102
        """,
    "order-positional-arguments-append-first": """
        def step(self, run, rec):
            combine(self._ledger.append(rec), self._store.save(run))
        """,
    "order-receiver-before-arguments": """
        def step(self, run, rec):
            self._store.save(run).then(self._ledger.append(rec))  # !OC102
        """,
    "order-receiver-before-arguments-append-first": """
        def step(self, run, rec):
            self._ledger.append(rec).then(self._store.save(run))
        """,
    "order-keyword-argument": """
        def step(self, run, rec):
            self._store.save(run, note=self._ledger.append(rec))
        """,
    # ------------------------------------------------------------ matching by qualified name
    "qualified-from-import-as": ("""
        from acme.persist import save_run as sr

        def step(self, run, rec):
            sr(run)
            self._ledger.append(rec)  # !OC102
        """, {"extend-events": {"save": ["acme.persist.save_run"]}}),
    "qualified-import-module-as": ("""
        import acme.persist as p

        def step(self, run, rec):
            p.save_run(run)
            self._ledger.append(rec)  # !OC102
        """, {"extend-events": {"save": ["acme.persist.save_run"]}}),
    "qualified-not-imported-is-text-only": ("""
        def step(self, run, rec):
            save_run(run)
            self._ledger.append(rec)
        """, {"extend-events": {"save": ["acme.persist.save_run"]}}),
    # ------------------------------------------------------------ summaries
    "summary-own-barrier-covers-own-first": """
        import os

        def durable_write(f, data):
            f.write(data)
            f.flush()
            os.fsync(f.fileno())

        def publish(f, data, tmp, path):
            durable_write(f, data)
            os.replace(tmp, path)
        """,
    "summary-write-helper-without-fsync": """
        import os

        def plain_write(f, data):
            f.write(data)

        def publish(f, data, tmp, path):
            plain_write(f, data)
            os.replace(tmp, path)  # !OC301
        """,
    "summary-own-order-never-a-finding-oc103": """
        class R:
            def _close(self, run):
                self._ledger.append(run.id, Status.COMPLETED)
                self._ledger.append(run.id, Status.FAILED)  # !OC103

            def step(self, run):
                self._close(run)
                self._store.save(run)
        """,
    "summary-on-raise-through-a-later-call": """
        class R:
            def _sync(self, run):
                self._store.save(run)
                notify(run)

            def step(self, run, rec):
                try:
                    self._sync(run)  # !OC203
                except Exception:
                    self._ledger.append(rec)  # !OC102
                    return
        """,
    "summary-on-raise-append-then-raise-escapes": """
        class R:
            def _rec(self, rec):
                self._ledger.append(rec)
                raise Oops()

            def step(self, rec):
                try:
                    self._rec(rec)  # !OC202
                except Exception:
                    pass
        """,
    "summary-helper-hands-its-failure-on": """
        class R:
            def _rec(self, rec):
                try:
                    self._ledger.append(rec)
                except Exception as e:
                    self._error = e

            def step(self, rec):
                try:
                    self._rec(rec)
                except Exception:
                    pass
        """,
    "summary-conditional-while-true-branch": """
        class R:
            def claimed(self, run):
                if run.free:
                    self._store.save(run)
                    return True
                return False

            def step(self, run, rec):
                while self.claimed(run):
                    self._ledger.append(rec)  # !OC102
        """,
    "summary-conditional-parenthesised": """
        class R:
            def revoked(self, run):
                if run.cancel_requested:
                    self._store.save(run)
                    return True
                return False

            def step(self, run, rec):
                if (self.revoked(run)):
                    return
                self._ledger.append(rec)
        """,
    "summary-conditional-is-true-is-not-the-whole-test": """
        class R:
            def revoked(self, run):
                if run.cancel_requested:
                    self._store.save(run)
                    return True
                return False

            def step(self, run, rec):
                if self.revoked(run) is True:
                    return
                self._ledger.append(rec)  # !OC102
        """,
    "summary-conditional-module-function": """
        def try_claim(store, run):
            if run.free:
                store.save(run)
                return True
            return False

        def step(store, ledger, run, rec):
            if not try_claim(store, run):
                ledger.append(rec)
        """,
    "summary-conditional-surface-on-true-only": """
        class R:
            def report(self, err):
                if serious(err):
                    logger.warning("lost")
                    return True
                return False

            def step(self, rec):
                try:
                    self._ledger.append(rec)  # !OC202 (the False branch falls through silently)
                except Exception:
                    if self.report(None):
                        return

            def step2(self, rec):
                try:
                    self._ledger.append(rec)
                except Exception:
                    if not self.report(None):
                        raise
        """,
    # ------------------------------------------------------------ aliases
    "alias-function-local-module-function": """
        def persist(store, run):
            store.save(run)

        def step(store, ledger, run):
            p = persist
            p(store, run)
            ledger.append(run.id, "run_failed")  # !OC101
        """,
    "alias-of-a-receiver": """
        def step(self, run, rec):
            ledger = self._ledger
            self._store.save(run)
            ledger.append(rec)  # !OC102
        """,
    # ------------------------------------------------------------ handing on
    "handon-subscript-target": """
        def step(self, run, rec):
            try:
                self._ledger.append(rec)
            except Exception as e:
                self.errors[run.id] = e
        """,
    "handon-str-into-assignment": """
        def step(self, rec):
            try:
                self._ledger.append(rec)
            except Exception as e:
                self.last_error = str(e)
        """,
    "handon-print-is-not-quiet": """
        def step(self, rec):
            try:
                self._ledger.append(rec)
            except Exception as e:
                print("lost", e)
        """,
    "handon-exc-info-true-into-debug-is-silent": """
        def step(self, rec):
            try:
                self._ledger.append(rec)  # !OC202
            except Exception:
                logger.debug("lost", exc_info=True)
        """,
    "handon-args-into-debug-is-silent": """
        def step(self, rec):
            try:
                self._ledger.append(rec)  # !OC202
            except Exception as e:
                logger.debug("lost %s", e.args)
        """,
    "handon-info-then-assign-is-loud": """
        def step(self, rec):
            try:
                self._ledger.append(rec)
            except Exception as e:
                logger.info("lost")
                result = Failure(error=e)
                return result
        """,
    "handon-unrelated-name-is-silent": """
        def step(self, rec, err):
            try:
                self._ledger.append(rec)  # !OC202
            except Exception:
                self._error = err
        """,
    "handon-exception-logger-is-a-surface": """
        def step(self, rec):
            try:
                self._ledger.append(rec)
            except Exception:
                logger.exception("lost")
        """,
}


def _param(name, case):
    src, table = case if isinstance(case, tuple) else (case, None)
    return pytest.param(src, table, id=name)


@pytest.mark.parametrize("src,table", [_param(k, v) for k, v in CASES.items()])
def test_case(src, table):
    got, want, detail = run_case(src, table)
    assert got == want, detail
