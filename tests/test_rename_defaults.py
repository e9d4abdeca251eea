"""The default `rename` patterns (rules/vocab/file-io.toml): `Path.replace` on a
receiver known to be a `pathlib.Path`, and `aiofiles.os.replace`, are renames into
place; `str.replace` never is (a probe of file-state runtimes, session 23)."""
from __future__ import annotations

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
