"""The default `rename` patterns (rules/vocab/file-io.toml): `Path.replace` on a
receiver known to be a `pathlib.Path`, and `aiofiles.os.replace`, are renames into
place; `str.replace` never is (a probe of file-state runtimes, session 23)."""
from __future__ import annotations

import pytest
from checkutil import cl


def test_path_replace_on_a_known_path_is_a_rename():
    src = """
        from pathlib import Path


        def persist(path: Path, data: bytes) -> None:
            tmp = Path(str(path) + ".tmp")
            tmp.write_bytes(data)
            tmp.replace(path)


        def persist_fsynced(path: Path, data: bytes) -> None:
            import os
            tmp = path.with_suffix(".tmp")
            with open(tmp, "wb") as f:
                f.write(data)
                os.fsync(f.fileno())
            Path(tmp).replace(path)
        """
    assert cl(src, select=["OC301"]) == [("OC301", 8)]


def test_str_replace_is_no_rename():
    src = """
        def persist(path: str, text: str) -> str:
            with open(path + ".tmp", "w") as f:
                f.write(text)
            return path.replace(".json", ".bak")


        def untyped(p, text):
            p.write_text(text)
            p.replace("x")
        """
    assert cl(src, select=["OC301"]) == []


def test_aiofiles_replace_is_a_rename():
    src = """
        import aiofiles.os


        async def persist(path: str, text: str) -> None:
            with open(path + ".tmp", "w") as f:
                f.write(text)
            await aiofiles.os.replace(path + ".tmp", path)
        """
    assert cl(src, select=["OC301"]) == [("OC301", 8)]


def test_a_copy_then_a_rename_is_a_write_then_a_rename():
    """The default `file-write` patterns hold shutil's copies (session 24): the
    atomic copy into a temporary file renamed into place needs an fsync too."""
    src = """
        import os
        import shutil


        def copy_atomic(source, dest):
            tmp = dest + ".tmp"
            shutil.copyfile(source, tmp)
            os.rename(tmp, dest)


        def copy_cross_device(source, dest):
            tmp = dest + ".part"
            shutil.copy2(source, tmp)
            os.replace(tmp, dest)


        def fill(stream, dest):
            with open(dest + ".tmp", "wb") as out:
                shutil.copyfileobj(stream, out)
            os.replace(dest + ".tmp", dest)


        def synced(source, dest):
            tmp = dest + ".tmp"
            shutil.copy(source, tmp)
            fd = os.open(tmp, os.O_RDONLY)
            os.fsync(fd)
            os.close(fd)
            os.replace(tmp, dest)


        def moved_then_copied(source, dest):
            try:
                os.replace(source, dest)
            except OSError:
                shutil.copy2(source, dest)
        """
    assert cl(src, select=["OC301"]) == [("OC301", 9), ("OC301", 15), ("OC301", 21)]


def test_a_yaml_dump_is_a_write():
    """`yaml.dump` and its kin into a stream write a file (session 27): mlflow's
    `overwrite_yaml` writes a temporary YAML file and moves it into place with no
    fsync. Its callers' own writes elsewhere are then not paired with the helper's
    rename (a helper that writes and renames is no `then`)."""
    src = """
        import os
        import shutil
        import tempfile

        import yaml


        def overwrite_yaml(path, data):
            fd, tmp = tempfile.mkstemp()
            with os.fdopen(fd, "w") as f:
                yaml.safe_dump(data, f)
            shutil.move(tmp, path)


        def save_all(path, docs):
            with open(path + ".tmp", "w") as f:
                yaml.dump_all(docs, f)
            os.replace(path + ".tmp", path)


        def update_meta(folder, meta, data):
            with open(os.path.join(folder, "log.txt"), "a") as log:
                log.write("updating")
            overwrite_yaml(meta, data)
        """
    assert cl(src, select=["OC301"]) == [("OC301", 13), ("OC301", 19)]


def test_a_helper_that_renames_or_copies_is_no_rename_at_its_callers():
    """`then = ["rename", "!file-write"]`: a helper that renames and falls back to a
    copy carries both, so a caller's earlier write is not paired with it (the price
    of the copies above; docs/decisions.md, "Copies are writes")."""
    src = """
        import os
        import shutil


        def _replace_file(source, target):
            try:
                os.replace(source, target)
            except OSError:
                shutil.copy2(source, target)


        def _rename_only(source, target):
            os.replace(source, target)


        def publish(staging, target, data):
            with open(staging, "w") as f:
                f.write(data)
            _replace_file(staging, target)


        def publish_plain(staging, target, data):
            with open(staging, "w") as f:
                f.write(data)
            _rename_only(staging, target)
        """
    assert cl(src, select=["OC301"]) == [("OC301", 26)]


@pytest.mark.parametrize("module", ["cloudpickle", "dill", "marshal", "tomlkit", "toml", "tomli_w"])
def test_a_serialisers_dump_into_a_file_is_a_write(module):
    """`dump(obj, file)` of the serialisers shaped like `pickle.dump` writes the file
    (session 39: submitit dumps a job's result with `cloudpickle.dump` and renames it
    into place unsynced). Its `dumps`, which returns a string, writes nothing."""
    src = f"""
        import os

        import {module}


        def save_result(path, obj):
            with open(path + ".tmp", "wb") as f:
                {module}.dump(obj, f)
            os.replace(path + ".tmp", path)


        def encode(path, obj):
            data = {module}.dumps(obj)
            os.replace(path + ".tmp", path)
            return data
        """
    assert cl(src, select=["OC301"]) == [("OC301", 10)]


@pytest.mark.parametrize("rename, found", [
    ('df = df.rename(columns={"a": "b"})', []),
    ('df.rename(\n            index=str.lower)', []),
    ('df.rename({"a": "b"}, axis=1, inplace=True)', []),
    ('df = df.rename({k: k.lower() for k in df.columns})', []),
    ("frame.rename(str.lower)", []),
    ('out = series["adjusted"].rename(None)', []),  # a name dropped (held-out set 227)
    # a file's rename, whatever its receiver
    ("tmp.rename(path)", [("OC301", 12)]),
    ("os.rename(tmp, path, src_dir_fd=None)", [("OC301", 12)]),
    ("store.rename(tmp, path)", [("OC301", 12)]),
])
def test_a_tables_rename_is_no_file_rename(rename, found):
    # (held-out set 64: lumibot's and zipline's `df.rename(columns=...)` after a
    # file write were two false OC301s) a table's rename by its arguments or its type
    src = f"""
        import os
        import pandas as pd


        def export(df, tmp, path, store):
            frame: pd.DataFrame = df
            with open(tmp, "w") as f:
                f.write(df.to_csv())
            if path:
                return
            {rename}
            return df
        """
    assert cl(src, select=["OC301"]) == found


def test_a_console_stream_in_an_attribute_is_no_file_write():
    # (held-out set 68: a Django management command's `self.stdout.write` paired with a
    # stored file's rename) Django's `OutputWrapper`, `cmd.Cmd`'s streams
    src = """
        import os


        class Command:
            def handle(self, src, dst, data):
                self.stdout.write("moving %s" % src)
                self.stderr.write("careful")
                os.replace(src, dst)

            def write_then_move(self, src, dst, data):
                with open(src, "w") as f:
                    f.write(data)
                self.stdout.write("moving %s" % src)
                os.replace(src, dst)
        """
    assert cl(src, select=["OC301"]) == [("OC301", 15)]


def test_a_users_own_pattern_still_names_a_console_named_file_and_a_table_rename():
    # (a review, session 48) the new exclusions hold back the default patterns only
    src = """
        import os


        class Job:
            def run(self, path, df):
                self.stdout = open(path + ".tmp", "w")
                self.stdout.write("state")
                os.rename(path + ".tmp", path)

            def table(self, path, df):
                with open(path, "w") as f:
                    f.write("x")
                df.rename(columns={"a": "b"})
        """
    table = {"extend-events": {"file-write": ["*.stdout.write"], "rename": ["*df.rename"]}}
    assert cl(src, select=["OC301"], table=table) == [("OC301", 9), ("OC301", 14)]
    assert cl(src, select=["OC301"]) == []


def test_os_renames_is_a_rename():
    # held-out set 102 (klepto): a temporary file written, then `os.renames` over the
    # archive; `os.renames` moves with `os.rename` after making the target's folders
    src = """
        import os


        def dump(filename, text):
            with open(filename + ".tmp", "w") as f:
                f.write(text)
            os.renames(filename + ".tmp", filename)
        """
    assert cl(src, select=["OC301"]) == [("OC301", 8)]
