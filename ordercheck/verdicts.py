"""CPython's ``compile`` verdict on a cold run's files, taken in the background.

A file that ``ast.parse`` accepts can still be refused by the compiler (``'return'
outside function``, ``default 'except:' must be last``); such a file is one OC900
and nothing else, so every file's verdict must be known. Compiling the parsed tree
was a fifth of the outline pre-pass (docs/performance.md, "Session 16"). In a run
with a pool and no cache, the outlines skip it, and one more process at the lowest
priority compiles every file from its text meanwhile: it runs on the core the main
process leaves idle while it resolves the project and checks the functions.

The run then asks ``confirmed``: every file outlined without the compiler compiled,
from the very bytes it was outlined from (``FileFacts.digest``). If one did not, the
run is made again with the compiler in the outline pass (``runner.run``): rare (a
project with a file CPython refuses), and exact by construction. A run with a cache
compiles in the outline pass, so that every outline the cache keeps is one CPython
accepts."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

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


def check(files: Sequence[Tuple[str, str]]) -> Dict[str, Verdict]:
    """By shown path, the verdict on each (path, shown path) file. A file that cannot
    be read or decoded is no verdict's business (its OC900 is the reader's): it
    passes, with the digest of what was read, if anything."""
    from .frontend.source import decode_source
    from .sources import fingerprint, read_source

    out: Dict[str, Verdict] = {}
    for path, shown in files:
        try:
            data = read_source(Path(path))
        except (OSError, ValueError):
            out[shown] = (True, "")
            continue
        ok = True
        try:
            text = decode_source(data)
        except ValueError:
            text = None
        if text is not None:
            try:
                compile(text, shown, "exec", dont_inherit=True)
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                ok = False
        out[shown] = (ok, fingerprint(data))
    return out


class Checker:
    """The background compile of ``files`` ((path, shown path) pairs): one process
    and a pipe, no thread in this one (a pool forked later must not inherit one)."""

    def __init__(self, files: Iterable[Tuple[str, str]]) -> None:
        import multiprocessing

        self.files: List[Tuple[str, str]] = list(files)
        self.conn, child = multiprocessing.Pipe(duplex=False)
        self.proc = multiprocessing.Process(target=_serve, args=(self.files, child), daemon=True)
        self.proc.start()
        child.close()

    def confirmed(self, all_facts: Iterable[FileFacts]) -> bool:
        """Whether every file it checks that was read without an error compiles, from
        the bytes its facts were read from. Waits for the checker."""
        verdicts: Optional[Dict[str, Verdict]]
        try:
            verdicts = self.conn.recv()
        except (EOFError, OSError):  # the checker died: take no verdict on trust
            verdicts = None
        self.close()
        if not isinstance(verdicts, dict):
            return False
        checked = {shown for _, shown in self.files}
        for facts in all_facts:
            if facts.path not in checked or facts.error is not None:
                continue
            ok, digest = verdicts.get(facts.path, (False, ""))
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
        self.conn.close()


def _serve(files: Sequence[Tuple[str, str]], conn) -> None:
    _init()
    try:
        got: object = check(files)
    except BaseException:  # (nothing to trust: ``confirmed`` says no)
        got = None
    conn.send(got)
    conn.close()
