"""OC301 counts a file write or a rename only where it is near: the node's own call,
or the project helper it calls by a call of its own (docs/decisions.md "A file write or
rename two calls away"). Sequence rules on other classes see every depth. An expected
finding is the line marked ``# here``."""
from __future__ import annotations

import textwrap

from checkutil import SEQ, check_source, cl

WRITER = """
import os

def _write(path, data):
    with open(path, "w") as f:
        f.write(data)

def _stage(path, data):
    _write(path + ".tmp", data)

def _move(src, dst):
    os.replace(src, dst)

def _relocate(src, dst):
    _move(src, dst)
"""


def _src(body: str) -> str:
    return textwrap.dedent(WRITER) + textwrap.dedent(body)


def _here(body: str, code: str = "OC301") -> list:
    """``(code, line)`` of each line marked ``# here``, in the whole source."""
    return [(code, n) for n, text in enumerate(_src(body).splitlines(), 1) if "# here" in text]


def _cl(body: str):
    return cl(_src(body), select=["OC301"])


def test_a_write_one_call_away_pairs_with_a_rename():
    body = """
        def publish(path, data):
            _write(path + ".tmp", data)
            os.replace(path + ".tmp", path)  # here
        """
    assert _cl(body) == _here(body) != []


def test_a_rename_one_call_away_pairs_with_a_write():
    body = """
        def publish(path, data):
            with open(path + ".tmp", "w") as f:
                f.write(data)
            _move(path + ".tmp", path)  # here
        """
    assert _cl(body) == _here(body) != []


def test_a_write_two_calls_away_is_no_first():
    assert _cl("""
        def publish(path, data):
            _stage(path, data)
            os.replace(path + ".tmp", path)
        """) == []


def test_a_rename_two_calls_away_is_no_then():
    assert _cl("""
        def publish(path, data):
            with open(path + ".tmp", "w") as f:
                f.write(data)
            _relocate(path + ".tmp", path)
        """) == []


BUILD = """
    def _build(path, data):
        _stage(path, data)
        with open(path + ".tmp", "a") as f:
            f.write("end")

    def publish(path, data):
        _build(path, data)
        os.replace(path + ".tmp", path)  # here
    """


def test_a_near_write_beside_a_far_one_in_the_same_helper_still_pairs():
    # the helper writes through a helper of its own, then by its own call: near
    assert _cl(BUILD) == _here(BUILD) != []


def test_the_via_names_the_near_write():
    (f,) = check_source(_src(BUILD), select=["OC301"])
    (write,) = [s for s in f.witness if s.kind == "file-write"]
    assert write.via.startswith('_build \u2192 f.write("end")'), write.via


def test_a_helper_that_writes_then_raises_is_near_on_its_raise():
    body = """
        def _write_checked(path, data):
            with open(path, "w") as f:
                f.write(data)
            if not data:
                raise ValueError(path)

        def publish(path, data):
            try:
                _write_checked(path + ".tmp", data)
            except ValueError:
                os.replace(path + ".bak", path)  # here
        """
    assert _cl(body) == _here(body) != []


MANAGER = """
    class Replacing:
        def __init__(self, path):
            self.path = path

        def __enter__(self):
            self.f = open(self.path + ".tmp", "w")
            return self.f

        def __exit__(self, *exc):
            self.f.close()
            {rename}(self.path + ".tmp", self.path)

    def save(path, text):
        with Replacing(path) as f:  # here
            f.write(text)
    """


def test_a_class_managers_exit_that_renames_by_its_own_call_is_near():
    body = MANAGER.format(rename="os.replace")
    assert _cl(body) == _here(body) != []


def test_a_class_managers_exit_that_renames_two_calls_away_is_far():
    # the manager's exit renames only through helpers of helpers: an error handler's
    # folder move (maestral), not the body's file (docs/decisions.md)
    assert _cl(MANAGER.format(rename="_relocate")) == []


def test_a_far_fsync_is_still_a_barrier():
    assert _cl("""
        def _durable(f):
            _sync(f)

        def _sync(f):
            os.fsync(f.fileno())

        def publish(path, data):
            with open(path + ".tmp", "w") as f:
                f.write(data)
                _durable(f)
            os.replace(path + ".tmp", path)
        """) == []


def test_a_far_rename_still_excludes_a_writer_from_first():
    # OC301's first is ["file-write", "!rename"]: a helper that writes and (deep down)
    # renames is no write at its callers, whatever the rename's depth
    assert _cl("""
        def _write_and_publish(path, data):
            _write(path + ".tmp", data)
            _relocate(path + ".tmp", path)

        def publish_both(a, b, data):
            _write_and_publish(a, data)
            os.replace(b + ".tmp", b)
        """) == []


def test_a_save_two_calls_away_still_orders_for_oc102():
    body = """
        class Runner:
            def _persist(self, run):
                self._flush(run)

            def _flush(self, run):
                self.store.save(run)

            def step(self, run):
                self._persist(run)
                self.ledger.append(run)  # here
        """
    assert cl(_src(body), select=SEQ) == _here(body, "OC102") != []


def _user_rule(tmp_path, code: str, then: str, barrier: str = "") -> dict:
    """A config table with one user `sequence` rule: first a file write, then ``then``."""
    rule = tmp_path / "rules" / f"{code}.toml"
    rule.parent.mkdir(exist_ok=True)
    rule.write_text(textwrap.dedent(f'''
        id = "{code}"
        name = "write-then-{then}"
        severity = "warning"
        kind = "sequence"
        first = ["file-write"]
        then = ["{then}"]
        {f'barrier = ["{barrier}"]' if barrier else ""}
        message = "{then} `{{then_text}}` after a file write"
        explanation = "A {then} after a file write."
        '''))
    return {"rules": [str(rule)]}


def _user_findings(body: str, table: dict, code: str) -> list:
    return sorted((f.code, f.span.line) for f in check_source(_src(body), table=table, select=[code]))


def test_a_users_sequence_rule_on_writes_and_saves_sees_every_depth(tmp_path):
    body = """
        def near(store, path, data):
            _write(path, data)
            store.save(path)  # here

        def far(store, path, data):
            _stage(path, data)
            store.save(path)  # here
        """
    assert _user_findings(body, _user_rule(tmp_path, "X001", "save"), "X001") == _here(body, "X001") != []


def test_a_users_rule_of_oc301s_shape_counts_near_ends_only(tmp_path):
    body = """
        def near(path, data):
            _write(path + ".tmp", data)
            os.replace(path + ".tmp", path)  # here

        def far(path, data):
            _stage(path, data)
            os.replace(path + ".tmp", path)
        """
    table = _user_rule(tmp_path, "X002", "rename", barrier="fsync")
    assert _user_findings(body, table, "X002") == _here(body, "X002") != []


ATOMIC = """
    import contextlib, shutil, tempfile, yaml

    @contextlib.contextmanager
    def atomic_write(filename):
        fd = tempfile.NamedTemporaryFile(mode="w", delete=False)
        try:
            yield fd
        finally:
            fd.close()
        shutil.move(fd.name, filename)

    def _save_base(data, file):
        yaml.dump(data, file)

    def save_to_file(data, file):
        _save_base(data, file)
    """


def test_a_far_write_in_the_body_of_a_renaming_with_pairs_with_its_exit():
    """(The eighteenth held-out set's OctoPrint: config.yaml, users.yaml.) What an
    atomic-write manager's body writes is what its exit renames, however deep."""
    body = ATOMIC + """
    def save(config, path):
        with atomic_write(path) as f:  # here
            save_to_file(config, f)
    """
    assert _cl(body) == _here(body) != []
    synced = body.replace("save_to_file(config, f)", "save_to_file(config, f)\n            os.fsync(f.fileno())")
    assert _cl(synced) == []


def test_a_far_write_pairs_only_with_the_exit_around_it():
    body = ATOMIC + """
    class Plain:
        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

    def save(config, path, other):
        with Plain() as f:
            save_to_file(config, f)
        with atomic_write(other) as g:
            pass
        os.replace(other, path)
    """
    assert _cl(body) == []


def writer_class(name: str, exit_body: str, base: str = "") -> str:
    """A class writer: ``__enter__`` opens a temporary file, ``__exit__`` runs
    ``exit_body`` (indented by 8 under the class, as written in the tests)."""
    return textwrap.indent(textwrap.dedent(f"""
        class {name}{f"({base})" if base else ""}:
            def __init__(self, path):
                self.path, self.tmp = path, path + ".tmp"

            def __enter__(self):
                self.f = open(self.tmp, "w")
                return self.f

            def __exit__(self, et, ev, tb):
        """) + textwrap.indent(textwrap.dedent(exit_body), " " * 8), " " * 8)


def test_a_write_in_the_body_of_a_class_writer_whose_exit_renames_by_its_own_call():
    body = writer_class("AtomicWriter", """
        self.f.close()
        if et is None:
            os.replace(self.tmp, self.path)
        return False
        """) + """

        def save(path, text):
            with AtomicWriter(path) as f:  # here
                f.write(text)
        """
    assert _cl(body) == _here(body) != []
    (f,) = check_source(_src(body), select=["OC301"])
    assert [s.kind for s in f.witness if s.kind in ("file-write", "rename")] == ["file-write", "rename"]
    assert not any("(raises)" in s.text for s in f.witness), f.witness


def test_a_witness_shows_no_step_for_a_far_write_or_rename():
    """(A review and the eighteenth held-out set's OctoPrint.) Events OC301 does not
    count are no steps of its witness: a reader could pair the wrong write."""
    body = """
        def publish(path, data):
            _stage(path + ".probe", data)
            with open(path + ".tmp", "w") as f:
                f.write(data)
            _relocate(path, path + ".old")
            os.replace(path + ".tmp", path)  # here
        """
    (f,) = check_source(_src(body), select=["OC301"])
    assert (f.code, f.span.line) == _here(body)[0]
    assert [(s.kind, s.text) for s in f.witness if s.kind in ("file-write", "rename")] == [
        ("file-write", "f.write(data)"), ("rename", 'os.replace(path + ".tmp", path)')], f.witness


def test_far_writes_that_cannot_reach_the_exit_search_no_path_each(monkeypatch):
    """(A third review.) Each far write in a renaming `with`'s body searched a path to
    the exit: N writes that all end in a raise cost N walks of the function."""
    from ordercheck.contracts import sequence

    calls = []
    real = sequence.shortest
    monkeypatch.setattr(sequence, "shortest", lambda *a: calls.append(a) or real(*a))
    n = 60
    body = ATOMIC + "\n    def big(path, cond, d):\n        with atomic_write(path) as f:\n            if cond:\n" + "".join(
        f"                x{i} = d[{i}]\n" for i in range(n)) + "            else:\n" + "".join(
        f"                save_to_file(d[{i}], f)\n" for i in range(n)) + "                raise ValueError(d)\n"
    assert _cl(body) == []
    assert len(calls) == 0, len(calls)


def test_a_renaming_exit_pairs_only_with_a_write_handed_its_target_on_the_normal_way():
    """(A third review.) Not a body's write to another file (`two`), not an exit that
    renames only when the body raised, not a manager with no `as` target."""
    body = ATOMIC + """
    @contextlib.contextmanager
    def quarantine_on_error(path):
        try:
            yield
        except Exception:
            shutil.move(path, path + ".bad")
            raise

    def two(path, data):
        with atomic_write(path) as f, atomic_write(path + ".2") as g:  # here
            save_to_file(data, g)

    def guarded(path, data, out):
        with quarantine_on_error(path):
            save_to_file(data, out)
    """
    here = _here(body)
    col = next(line for line in _src(body).splitlines() if "# here" in line).index('atomic_write(path + ".2")') + 1
    assert [(f.code, f.span.line, f.span.col + 1) for f in check_source(_src(body), select=["OC301"])] == [
        (here[0][0], here[0][1], col)]


SELF_COMMIT = """
    class Store:
        def _commit(self, tmp, path):
            os.replace(tmp, path)

    class AtomicWriter:
        def __init__(self, path):
            self.path, self.tmp = path, path + ".tmp"
            self.store = Store()

        def __enter__(self):
            self.f = open(self.tmp, "w")
            return self.f

        def __exit__(self, et, ev, tb):
            self.f.close()
            if et is None:
                {commit}
            return False

        def _commit(self):
            {commit_body}

        def _finish(self):
            self._commit()

    def save(path, text, other):
        with AtomicWriter(path) as f:  # here
            f.write(text)
    """


def test_an_exit_that_renames_through_a_method_of_its_own_is_near():
    # click's `_AtomicFile.__exit__` calls `self.close()`, which renames: the
    # manager's own method is the manager (docs/decisions.md)
    body = SELF_COMMIT.format(commit="self._commit()", commit_body="os.replace(self.tmp, self.path)")
    assert _cl(body) == _here(body) != []
    (f,) = check_source(_src(body), select=["OC301"])
    assert any("AtomicWriter._commit" in (s.via or "") for s in f.witness), f.witness


def test_an_exit_through_its_own_method_that_fsyncs_first_is_clean():
    body = SELF_COMMIT.format(commit="self._commit()",
                              commit_body="os.fsync(self.f.fileno()); os.replace(self.tmp, self.path)")
    assert _cl(body) == []


def test_an_exit_through_two_methods_of_its_own_or_another_object_is_far():
    deep = SELF_COMMIT.format(commit="self._finish()", commit_body="os.replace(self.tmp, self.path)")
    assert _cl(deep) == []
    # another object's method is no part of the manager, even if it renames by its own call
    other = SELF_COMMIT.format(commit="self.store._commit(self.tmp, self.path)", commit_body="pass")
    assert _cl(other) == []
    # (which is far only because it is another object's: the same rename, a call nearer, pairs)
    near = other.replace("self.store._commit(self.tmp, self.path)", "os.replace(self.tmp, self.path)")
    assert _cl(near) == _here(near) != []


def test_an_exits_own_method_that_a_subclass_overrides_is_not_read_as_the_managers():
    # (a review, session 37) the base's summary shows the base's `_commit`; a subclass
    # whose `_commit` fsyncs first was flagged at `with DurableWriter(...)`
    body = writer_class("BaseWriter", """
        if et is None:
            self._commit()
        self.f.close()
        """) + """
            def _commit(self):
                os.replace(self.tmp, self.path)

        class DurableWriter(BaseWriter):
            def _commit(self):
                self.f.flush()
                os.fsync(self.f.fileno())
                os.replace(self.tmp, self.path)

        def save(path, text):
            with DurableWriter(path) as f:
                f.write(text)
        """
    assert _cl(body) == []


def test_an_exits_own_method_is_the_one_the_managers_class_finds():
    # (a second review) the base used directly still renames unsynced, whatever a
    # subclass overrides; a subclass whose override renames where the base's does not
    body = writer_class("BaseWriter", """
        self.f.close()
        self._commit()
        """) + """
            def _commit(self):
                {base_commit}

        class Other(BaseWriter):
            def _commit(self):
                {sub_commit}

        def save(path, text):
            with {used}(path) as f:  # here
                f.write(text)
        """
    base_used = body.format(base_commit="os.replace(self.tmp, self.path)",
                            sub_commit="os.fsync(self.f.fileno()); os.replace(self.tmp, self.path)", used="BaseWriter")
    assert _cl(base_used) == _here(base_used) != []
    sub_renames = body.format(base_commit="pass", sub_commit="os.replace(self.tmp, self.path)", used="Other")
    assert _cl(sub_renames) == _here(sub_renames) != []
    base_used_renames_not = body.format(base_commit="pass", sub_commit="os.replace(self.tmp, self.path)",
                                        used="BaseWriter")
    assert _cl(base_used_renames_not) == []


def test_an_exits_own_method_counts_for_renames_only():
    # a terminal append through `self._close()` in an exit stays one call further
    # (OC103 pairs near terminal appends: a batch's end and a run's end are two records)
    src = _src("""
        class BatchScope:
            def __init__(self, ledger, batch_id):
                self.ledger, self.batch_id = ledger, batch_id

            def __enter__(self):
                return self

            def __exit__(self, et, ev, tb):
                self._close()

            def _close(self):
                self.ledger.append_terminal(self.batch_id)

        def run_batch(ledger, batch_id, run):
            with BatchScope(ledger, batch_id):
                ledger.append_terminal(run)
        """)
    assert cl(src, select=["OC103"]) == []


def test_an_override_added_in_another_file_reaches_a_warm_run(tmp_path):
    from cliutil import oc, write

    write(tmp_path, "pyproject.toml", "")
    write(tmp_path, "pkg/__init__.py", "")
    write(tmp_path, "pkg/base.py", "import os\n" + textwrap.dedent(writer_class("BaseWriter", """
        self.f.close()
        self._commit()
        """) + """
            def _commit(self):
                os.replace(self.tmp, self.path)
        """))
    write(tmp_path, "pkg/sub.py", """
        from pkg.base import BaseWriter

        class DurableWriter(BaseWriter):
            pass
        """)
    write(tmp_path, "pkg/use.py", """
        from pkg.sub import DurableWriter

        def save(path, text):
            with DurableWriter(path) as f:
                f.write(text)
        """)
    args = ("--isolated", "--select", "OC301", "--cache-dir", tmp_path / "cache", "pkg")
    assert oc(tmp_path, *args).codes() == [("pkg/use.py", 5, "OC301")]
    write(tmp_path, "pkg/sub.py", """
        import os
        from pkg.base import BaseWriter

        class DurableWriter(BaseWriter):
            def _commit(self):
                os.fsync(self.f.fileno())
                os.replace(self.tmp, self.path)
        """)
    warm = oc(tmp_path, *args)
    cold = oc(tmp_path, *args[:-3], "--no-cache", "pkg")
    assert warm.codes() == cold.codes() == []


def test_a_write_by_its_own_pattern_names_no_helper_down_its_summary(tmp_path):
    # (held-out set 75, s3cmd's configured `*.object_get`) the call is the file write by
    # its own pattern; the write two calls down is no event of OC301, so neither its
    # step nor a related place names it
    from checkutil import tree_findings, write_tree

    write_tree(tmp_path, {
        "main.py": """\
            import os

            from store import S3


            def download(s3: S3, uri, stream, tmp, dst):
                s3.object_get(uri, stream)
                os.rename(tmp, dst)
            """,
        "store.py": """\
            class S3:
                def object_get(self, uri, stream):
                    return self.recv_file(uri, stream)

                def recv_file(self, uri, stream):
                    data = uri.read()
                    stream.write(data)
                    return data
            """,
    })
    found = tree_findings(tmp_path, select=["OC301"], table={"extend-events": {"file-write": ["*.object_get"]}})
    assert [(f.code, f.span.line) for f in found] == [("OC301", 8)]
    steps = [(s.kind, s.text, s.via) for s in found[0].witness]
    assert steps == [("file-write", "s3.object_get(uri, stream)", ""), ("rename", "os.rename(tmp, dst)", "")], steps
    assert not any("performed via" in r.message for r in found[0].related), found[0].related
