"""CPython's ``compile`` verdict on a cold run's files, taken in the background.

A file that ``ast.parse`` accepts can still be refused by the compiler (``'return'
outside function``, ``default 'except:' must be last``); such a file is one OC900
and nothing else, so every file's verdict must be known. Compiling the parsed tree
was a fifth of the outline pre-pass (docs/performance.md, "Session 16"). In a run with a pool and no cache, the
outlines skip it, and one more process at the lowest priority takes every file's
verdict meanwhile, by a compile of the text (the outline pass compiles its tree: the
same verdict, ``frontend.source.compile_refusal``): it runs on the core the main
process leaves idle while it resolves the project and checks the functions. What it
has not reached when the run asks, the main process checks itself.

The run then asks ``confirmed``: every file outlined without the compiler compiled,
from the very bytes it was outlined from (``FileFacts.digest``). If one did not, the
run is made again with the compiler in the outline pass (``runner.run``): rare (a
project with a file CPython refuses), and exact by construction. A run with a cache
compiles in the outline pass, so that every outline the cache keeps is one CPython
accepts."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Dict, Iterable, List, Sequence, Tuple

from .ir import FileFacts

#: whether a cold run without a cache defers the compile verdict (``ORDERCHECK_DEFER_COMPILE=0``: never)
DEFER = os.environ.get("ORDERCHECK_DEFER_COMPILE", "1") != "0"

Verdict = Tuple[bool, str]  # (CPython compiles it, FileFacts.digest of the bytes compiled)


def possible() -> bool:
    """Whether this platform can run the checker at the lowest priority."""
    return DEFER and hasattr(os, "nice")


def _init() -> None:
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # (the main process ends it: ``close``)
    try:
        os.nice(19)  # only the time the run leaves idle
    except OSError:
        pass


def check(files: Sequence[Tuple[str, str]]) -> List[Verdict]:
    """The verdict on each (path, shown path) file: whether CPython's compiler takes
    its text (``frontend.source.compile_refusal``, which the outline pass asks of the
    tree it parsed; ``ast.parse``'s own verdict is the outline pass's). A compile of
    the text skips the ``ast``'s Python objects: half of what a parse and a compile
    of its tree cost. A file that cannot be read passes, with no digest: its OC900 is
    the reader's."""
    return [_check_one(path, shown) for path, shown in files]


def _check_one(path: str, shown: str) -> Verdict:
    from .frontend.source import compile_refusal, decode_source
    from .sources import fingerprint, read_source

    try:
        data = read_source(Path(path))
    except (OSError, ValueError):
        return True, ""
    try:
        text = decode_source(data)
    except ValueError:
        return False, fingerprint(data)
    return compile_refusal(text) is None, fingerprint(data)


DIGEST = 16  # bytes of a ``FileFacts.digest`` (hex in the facts)


class Checker:
    """The background compile of ``files`` ((path, shown path) pairs): one process
    and a table in shared memory it fills file by file, no thread in this one (a
    pool forked later must not inherit one). At the lowest priority it may lag on
    a busy machine: then the main process checks what it has not reached itself,
    at its own priority, and the run never waits on it."""

    def __init__(self, files: Iterable[Tuple[str, str]]) -> None:
        import multiprocessing

        self.files: List[Tuple[str, str]] = list(files)
        n = len(self.files)
        self.done = multiprocessing.Value("i", 0, lock=False)  # files checked so far, in order
        self.table = multiprocessing.Array("c", max(1, n) * (1 + DIGEST), lock=False)  # ok, digest per file
        self.proc = multiprocessing.Process(target=_serve, args=(self.files, self.done, self.table), daemon=True)
        self.proc.start()

    def verdicts(self) -> Dict[str, Verdict]:
        """By shown path, every file's verdict: the checker's as far as it got (it is
        ended first), the rest taken here."""
        self.close()
        upto = min(max(self.done.value, 0), len(self.files))
        raw = bytes(self.table.raw[: upto * (1 + DIGEST)]) if upto else b""  # type: ignore[attr-defined]
        out: Dict[str, Verdict] = {}
        for i, (_, shown) in enumerate(self.files[:upto]):
            entry = raw[i * (1 + DIGEST):(i + 1) * (1 + DIGEST)]
            out[shown] = (entry[0] == 1, entry[1:].hex() if entry[0] != 2 else "")
        for path, shown in self.files[upto:]:
            out[shown] = _check_one(path, shown)
        return out

    def confirmed(self, all_facts: Iterable[FileFacts]) -> bool:
        """Whether every file it checks that was read without an error compiles, from
        the bytes its facts were read from."""
        verdicts = self.verdicts()
        for facts in all_facts:
            if facts.path not in verdicts or facts.error is not None:
                continue
            ok, digest = verdicts[facts.path]
            if not ok or digest != facts.digest:
                return False
        return True

    def close(self) -> None:
        """End the checker (at once if it is still compiling) and reap it."""
        if self.proc.is_alive():
            self.proc.terminate()
        self.proc.join(2)
        if self.proc.is_alive():
            self.proc.kill()
            self.proc.join(1)


def _serve(files: Sequence[Tuple[str, str]], done, table) -> None:
    _init()
    width = 1 + DIGEST
    for i, (path, shown) in enumerate(files):
        ok, digest = _check_one(path, shown)
        # (1: compiles, 0: refused, 2: unreadable, no digest)
        flag = 2 if ok and not digest else int(ok)
        table[i * width:(i + 1) * width] = bytes([flag]) + (bytes.fromhex(digest) if digest else bytes(DIGEST))
        done.value = i + 1
