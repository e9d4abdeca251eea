"""Conformance to the contract (docs/semantics.md, version 2), §3 and §4: handing the exception on, the `quiet` class,
correlated tests, anchors and one finding per rule and anchor. Small valid and invalid
cases written from the contract's sentences (docs/semantics.md) alone (marks as in tests/conformance.py)."""
import pytest
from conformance import run_case

CASES = {
    # ------------------------------------------------------------ handing the exception on
    "handon-return-the-exception": """
        def step(self, rec):
            try:
                self._ledger.append(rec)
            except Exception as e:
                return e
        """,
    "handon-yield-the-exception": """
        def step(self, rec):
            try:
                self._ledger.append(rec)
            except Exception as e:
                yield e
        """,
    "handon-assign-to-attribute": """
        def step(self, rec):
            try:
                self._ledger.append(rec)
            except Exception as e:
                self._error = e
        """,
    "handon-assign-to-local": """
        def step(self, rec):
            activation_err = None
            try:
                self._ledger.append(rec)
            except Exception as e:
                activation_err = e
            return activation_err
        """,
    "handon-argument-of-unresolved-call": """
        def step(self, run, rec):
            try:
                self._ledger.append(rec)
            except Exception as e:
                report_failure(run, e)
        """,
    "handon-errors-append": """
        def step(self, rec, errors):
            try:
                self._ledger.append(rec)
            except Exception as e:
                errors.append(e)
        """,
    "handon-returned-record": """
        def step(self, rec):
            try:
                self._ledger.append(rec)
            except Exception as e:
                return Failure(error=e)
            return None
        """,
    "handon-sys-exc-info": """
        def step(self, rec):
            try:
                self._ledger.append(rec)
            except Exception:
                self._last = sys.exc_info()
        """,
    "handon-sys-exception": """
        def step(self, rec):
            try:
                self._ledger.append(rec)
            except Exception:
                report(sys.exception())
        """,
    "handon-traceback-format-exc": """
        import traceback

        def step(self, rec):
            try:
                self._ledger.append(rec)
            except Exception:
                tb = traceback.format_exc()
                self.notes.append(tb)
        """,
    "handon-format-exc-into-debug-is-silent": """
        import traceback

        def step(self, rec):
            try:
                self._ledger.append(rec)  # !OC202
            except Exception:
                logger.debug(traceback.format_exc())
        """,
    "handon-format-exception-into-info-is-silent": """
        import traceback

        def step(self, rec):
            try:
                self._ledger.append(rec)  # !OC202
            except Exception as e:
                logger.info("lost: %s", "".join(traceback.format_exception(e)))
        """,
    "handon-repr-and-format-into-debug-are-silent": """
        def step(self, rec, rec2):
            try:
                self._ledger.append(rec)  # !OC202
            except Exception as e:
                logger.debug("lost: " + repr(e))
            try:
                self._ledger.append(rec2)  # !OC202
            except Exception as e:
                logger.debug(format(e))
        """,
    "handon-isinstance-only-inspects": """
        def step(self, rec):
            try:
                self._ledger.append(rec)  # !OC202
            except Exception as e:
                if isinstance(e, TimeoutError):
                    return None
        """,
    "handon-type-hasattr-getattr-only-inspect": """
        def step(self, rec):
            try:
                self._ledger.append(rec)  # !OC202
            except Exception as e:
                kind = type(e)
                has = hasattr(e, "code")
                code = getattr(e, "code", None)
                return kind, has, code
        """,
    "handon-flag-is-silent": """
        def step(self, rec):
            ok = True
            try:
                self._ledger.append(rec)  # !OC202
            except Exception:
                ok = False
            return ok
        """,
    "handon-constant-return-is-silent": """
        def step(self, rec):
            try:
                self._ledger.append(rec)  # !OC202
            except Exception:
                return False
            return True
        """,
    "handon-one-path-only-is-silent": """
        def step(self, rec, strict):
            try:
                self._ledger.append(rec)  # !OC202
            except Exception as e:
                if strict:
                    report(e)
        """,
    "handon-terminal-append-oc201": """
        def step(self, run):
            try:
                self._ledger.append(run.id, "run_failed")  # !OC201
            except Exception as e:
                logger.debug("lost %s", e)
        """,
    "handon-save-oc203": """
        def step(self, run):
            try:
                self._store.save(run)  # !OC203
            except Exception as e:
                logger.info("save failed: %s", e)
        """,
    "handon-oc204-silent-broad-except": ("""
        def step(self, x):
            try:
                compute(x)
            except Exception as e:  # !OC204
                logger.debug("failed: %s", e)
            try:
                compute(x)
            except Exception as e:
                report(e)
        """, "OC204"),
    "handon-raise-from-counts": """
        def step(self, rec):
            try:
                self._ledger.append(rec)
            except Exception as e:
                raise LedgerError("lost") from e
        """,
    "handon-finally-that-returns-swallows": """
        def step(self, rec):
            try:
                self._ledger.append(rec)  # !OC202
            finally:
                return None
        """,
    "handon-narrow-type-not-caught": """
        def step(self, rec):
            try:
                self._ledger.append(rec)
            except KeyError:
                pass
        """,
    "handon-swallow-types-config": ("""
        import sqlite3

        def step(self, rec):
            try:
                self._ledger.append(rec)  # !OC202
            except sqlite3.Error:
                pass
        """, {"swallow-types": ["sqlite3.Error"]}),
    "handon-broad-in-tuple": """
        def step(self, rec):
            try:
                self._ledger.append(rec)  # !OC202
            except (KeyError, Exception):
                pass
        """,
    # ------------------------------------------------------------ correlated tests
    "correlated-spec-example": """
        def step(self, run, rec, dry_run):
            if dry_run:
                return
            self._store.save(run)
            if not dry_run:
                self._ledger.append(rec, Status.COMPLETED)  # !OC101
        """,
    "correlated-opposite-branches": """
        def step(self, run, rec, dry_run):
            if not dry_run:
                self._store.save(run)
            if dry_run:
                self._ledger.append(rec)
        """,
    "correlated-same-branches-still-a-finding": """
        def step(self, run, rec, dry_run):
            if dry_run:
                self._store.save(run)
            if dry_run:
                self._ledger.append(rec)  # !OC102
        """,
    "correlated-is-none": """
        def step(self, run, rec, prev):
            if prev is None:
                self._store.save(run)
            if prev is not None:
                self._ledger.append(rec)
        """,
    "correlated-is-none-and-truthy": """
        def step(self, run, rec, prev):
            if prev is None:
                self._store.save(run)
            if prev:
                self._ledger.append(rec)
        """,
    "correlated-not-versus-is-none-compatible": """
        def step(self, run, rec, prev):
            if not prev:
                self._store.save(run)
            if prev is None:
                self._ledger.append(rec)  # !OC102
        """,
    "correlated-and-tells-both": """
        def step(self, run, rec, a, b):
            if a and b:
                self._store.save(run)
            if not b:
                self._ledger.append(rec)
        """,
    "correlated-false-or-tells-both-false": """
        def step(self, run, rec, a, b):
            if a or b:
                return
            self._store.save(run)
            if b:
                self._ledger.append(rec)
        """,
    "correlated-true-or-tells-nothing": """
        def step(self, run, rec, a, b):
            if a or b:
                self._store.save(run)
            if not a:
                self._ledger.append(rec)  # !OC102
        """,
    "correlated-other-tests-tell-nothing": """
        def step(self, run, rec, n):
            if n > 3:
                self._store.save(run)
            if n <= 3:
                self._ledger.append(rec)  # !OC102
        """,
    "correlated-attribute-tests-tell-nothing": """
        def step(self, run, rec):
            if self.dry_run:
                self._store.save(run)
            if not self.dry_run:
                self._ledger.append(rec)  # !OC102
        """,
    "correlated-write-between-assignment": """
        def step(self, run, rec, dry_run):
            if not dry_run:
                self._store.save(run)
            dry_run = reload()
            if dry_run:
                self._ledger.append(rec)  # !OC102
        """,
    "correlated-write-between-augmented": """
        def step(self, run, rec, n):
            if not n:
                self._store.save(run)
            n += 1
            if n:
                self._ledger.append(rec)  # !OC102
        """,
    "correlated-write-between-for-target": """
        def step(self, run, rec, item, items):
            if not item:
                self._store.save(run)
            for item in items:
                pass
            if item:
                self._ledger.append(rec)  # !OC102
        """,
    "correlated-write-between-del": """
        def step(self, run, rec, item):
            if not item:
                self._store.save(run)
                del item
                item = 1
            if item:
                self._ledger.append(rec)  # !OC102
        """,
    "correlated-write-between-walrus": """
        def step(self, run, rec, item):
            if not item:
                self._store.save(run)
            log((item := fetch()))
            if item:
                self._ledger.append(rec)  # !OC102
        """,
    "correlated-write-between-except-as": """
        def step(self, run, rec, err):
            if not err:
                self._store.save(run)
            try:
                work()
            except Exception as err:
                logger.warning("work failed: %s", err)
            if err:
                self._ledger.append(rec)  # !OC102
        """,
    "correlated-write-between-with-as": """
        def step(self, run, rec, h):
            if not h:
                self._store.save(run)
            with opener() as h:
                pass
            if h:
                self._ledger.append(rec)  # !OC102
        """,
    "correlated-elif": """
        def step(self, run, rec, a, b):
            if b:
                pass
            elif a:
                self._store.save(run)
            if not a:
                self._ledger.append(rec)
        """,
    "correlated-while-test": """
        def step(self, run, rec, pending):
            while pending:
                self._store.save(run)
                pending = poll()
            if pending:
                self._ledger.append(rec)
        """,
    "correlated-assert": """
        def step(self, run, rec, ready):
            if ready:
                self._store.save(run)
            assert not ready
            self._ledger.append(rec)
        """,
    "correlated-conditional-expression": """
        def step(self, run, rec, ready):
            if ready:
                self._store.save(run)
            x = self._ledger.append(rec) if not ready else 1
            return x
        """,
    "correlated-unless-after": """
        def step(self, run, dry_run):
            self._store.save(run)
            self._ledger.append(run.id, Status.COMPLETED)
            if not dry_run:
                x = 1
            if not dry_run:
                self._store.save(run)
            if dry_run:
                self._store.save(run)
        """,
    "correlated-in-a-handler-still-swallowed": """
        def step(self, rec, quiet):
            try:
                self._ledger.append(rec)  # !OC202
            except Exception:
                if not quiet:
                    logger.warning("lost")
        """,
    "correlated-handler-correlation": """
        def step(self, rec, quiet):
            if quiet:
                return
            try:
                self._ledger.append(rec)
            except Exception:
                if not quiet:
                    logger.warning("lost")
        """,
    # ------------------------------------------------------------ sequence semantics
    "sequence-then-reaching-only-raise": """
        def step(self, run, rec):
            self._store.save(run)
            self._ledger.append(rec)
            raise Done()
        """,
    "sequence-then-may-reach-exit": """
        def step(self, run, rec, stop):
            self._store.save(run)
            self._ledger.append(rec)  # !OC102
            if stop:
                raise Done()
        """,
    "sequence-saved-again-on-every-path": """
        def step(self, run, rec):
            self._store.save(run)
            self._ledger.append(rec)
            self._store.save(run)
        """,
    "sequence-saved-again-on-one-path": """
        def step(self, run, rec, again):
            self._store.save(run)
            self._ledger.append(rec)  # !OC102
            if again:
                self._store.save(run)
        """,
    "sequence-barrier-oc301": """
        import os

        def write(path, data):
            with open(path + ".tmp", "w") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            os.replace(path + ".tmp", path)

        def write_bad(path, data):
            with open(path + ".tmp", "w") as f:
                f.write(data)
            os.replace(path + ".tmp", path)  # !OC301
        """,
    # ------------------------------------------------------------ anchors, one finding
    "anchor-several-firsts-one-finding": """
        def step(self, run, rec, fast):
            if fast:
                self._store.save(run)
            else:
                self._store.save_run(run)
            self._store.save(run)
            self._ledger.append(rec)  # !OC102
        """,
    "anchor-at-most-once-on-the-second": """
        def step(self, run, ok):
            self._ledger.append(run.id, Status.COMPLETED)
            if not ok:
                self._ledger.append(run.id, Status.FAILED)  # !OC103
            self._store.save(run)
        """,
    "anchor-at-most-once-exclusive-branches": """
        def step(self, run, ok):
            if ok:
                self._ledger.append(run.id, Status.COMPLETED)
            else:
                self._ledger.append(run.id, Status.FAILED)
            self._store.save(run)
        """,
    "anchor-at-most-once-loop-one-call-site": """
        def step(self, runs):
            for run in runs:
                self._ledger.append(run.id, Status.COMPLETED)
                self._store.save(run)
        """,
    "anchor-at-most-once-barrier-oc103-none": """
        def step(self, run, again):
            self._ledger.append(run.id, Status.COMPLETED)
            self._store.save(run)
            if again:
                self._ledger.append(run.id, Status.FAILED)  # !OC103
                self._store.save(run)
        """,
    "anchor-swallowed-one-finding-per-event": """
        def step(self, rec, x):
            try:
                self._ledger.append(rec)  # !OC202
                if x:
                    return
            except KeyError:
                pass
            except Exception:
                pass
        """,
    "anchor-carried-by-a-call-on-the-exceptional-edge": """
        class R:
            def _sync(self, run):
                self._store.save(run)
                raise SyncError()

            def step(self, run, rec):
                try:
                    self._sync(run)
                except SyncError:
                    self._ledger.append(rec)  # !OC102
        """,
}


def _param(name, case):
    src, extra = case if isinstance(case, tuple) else (case, None)
    table, rules = (extra, ()) if isinstance(extra, dict) else (None, (extra,) if extra else ())
    return pytest.param(src, table, rules, id=name)


@pytest.mark.parametrize("src,table,extra", [_param(k, v) for k, v in CASES.items()])
def test_case(src, table, extra):
    got, want, detail = run_case(src, table, extra)
    assert got == want, detail


def test_exclusion_in_a_rule(tmp_path):
    """§4: `then = ["rename", "!file-write"]`: a rename that is not also a file write."""
    from checkutil import check_source, codes_lines
    rule = tmp_path / "X.toml"
    rule.write_text('''
id = "OC951"
name = "rename-after-write"
severity = "warning"
kind = "sequence"
first = ["file-write"]
then = ["rename", "!file-write"]
message = "rename after write"
explanation = "x"
[[examples]]
code = "x = 1"
expect = []
[[examples]]
code = "x = 1"
expect = [{ code = "OC951", line = 1 }]
''')
    src = """\
        import os

        def helper(f, a, b):
            f.write(a)
            os.replace(a, b)

        def a(f, x, y):
            f.write(x)
            os.replace(x, y)

        def b(f, x, y):
            f.write(x)
            helper(f, x, y)
        """
    found = codes_lines(check_source(src, table={"rules": [str(rule)]}, select=["OC951"]))
    assert found == [("OC951", 5), ("OC951", 9)]
