"""Fuzzing (issue 10): hypothesis writes event-heavy modules — saves, appends, helpers
calling each other across two files, handlers, loops, ``with``, ``finally``, returns —
and a config makes many calls events. For every example: no exception escapes, the
JSON output is valid JSON, every range lies inside its file, and the findings are the
same with the cache cold and warm.

CI runs 700 examples (derandomized, so a failure reproduces; 1,000 until session 14,
when the suite's growth brought a fresh-clone CI run near its 10-minute budget);
``ORDERCHECK_FUZZ_EXAMPLES=50000`` runs more.
"""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import pytest
from checkutil import settings_for
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ordercheck import runner
from ordercheck.reporters import FORMATS
from ordercheck.reporters.common import file_uri

# Thousands of tiny folders, each written, fsynced (the cache) and removed: on a RAM
# disk when the machine has one.
RAM = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
EXAMPLES = int(os.environ.get("ORDERCHECK_FUZZ_EXAMPLES", "700"))

CONFIG = {
    "extend-events": {
        "save": ["commit_*", "*.persist", "*.checkpoint"],
        "append": ["record_*", "*.log_event"],
        "terminal-append": ["*.finish_*"],
        "surface": ["report_*", "*.alert"],
    },
}
SETTINGS = settings_for(CONFIG, select=["ALL"])

HELPERS = ["commit_a", "record_a", "report_a"]  # helpers.py: the first two; main.py: the other

CALLS = [
    "store.save(run)", "store.persist(run)", "self.store.checkpoint(run)",
    "ledger.append(run.id)", "ledger.log_event('x')", "ledger.finish_run(run.id, 'failed')",
    "ledger.append_terminal(run.id)", "log.warning('failed')", "self.alert()",
    "os.replace(tmp, path)", "fh.write(data)", "os.fsync(fd)", "fh.flush()",
    "print('x')", "helper(x)", "self.step(run)", "self._finish(run)",
]


def _indent(lines, n=1):
    return ["    " * n + line for line in lines]


@st.composite
def expressions(draw):
    calls = CALLS + [f"{h}(store, ledger, run)" for h in HELPERS]
    kind = draw(st.integers(0, 5))
    a, b = draw(st.sampled_from(calls)), draw(st.sampled_from(calls))
    if kind == 0:
        return f"{a} and {b}"
    if kind == 1:
        return f"{a} if {b} else None"
    if kind == 2:
        return f"[{a} for i in items]"
    if kind == 3:
        return f"{a.rstrip(')')}, {b})" if a.endswith("(run)") else a
    return a


@st.composite
def blocks(draw, depth=0, in_loop=False):
    n = draw(st.integers(1, 2 if depth < 2 else 1))
    out = []
    for _ in range(n):
        out.extend(draw(statements(depth, in_loop)))
    return out


@st.composite
def statements(draw, depth, in_loop):
    simple = draw(st.integers(0, 12 if depth < 2 else 4))
    if depth >= 2:
        simple = min(simple, 4)
    if simple <= 2:
        return [draw(expressions())]
    if simple == 3:
        return [f"x = {draw(expressions())}"]
    if simple == 4:
        choices = ["return", f"return {draw(expressions())}", "raise ValueError(run)", "x += 1"]
        if in_loop:
            choices += ["break", "continue"]
        return [draw(st.sampled_from(choices))]
    body = draw(blocks(depth + 1, in_loop))
    if simple == 5:
        other = draw(blocks(depth + 1, in_loop))
        return [f"if {draw(expressions())}:", *_indent(body), "else:", *_indent(other)]
    if simple == 6:
        return ["for item in items:", *_indent(draw(blocks(depth + 1, True)))]
    if simple == 7:
        return ["while run.pending:", *_indent(draw(blocks(depth + 1, True)))]
    if simple == 8:
        manager = draw(st.sampled_from(["open(tmp, 'w') as fh", "contextlib.suppress(Exception)", "lock", "self.txn()"]))
        return [f"with {manager}:", *_indent(body)]
    if simple == 9:
        clause = draw(st.sampled_from(["except:", "except Exception:", "except ValueError as exc:", "except (OSError, KeyError):"]))
        handler = draw(st.sampled_from([["pass"], ["raise"], ["log.warning('x')"], ["return None"], draw(blocks(depth + 1, in_loop))]))
        lines = ["try:", *_indent(body), clause, *_indent(handler)]
        if draw(st.booleans()):
            lines += ["finally:", *_indent(draw(blocks(depth + 1, in_loop)))]
        return lines
    if simple == 10:
        return ["try:", *_indent(body), "finally:", *_indent(draw(blocks(depth + 1, in_loop)))]
    if simple == 11:
        return [f"match {draw(expressions())}:", "    case 1:", *_indent(body, 2), "    case _:", "        pass"]
    return [draw(expressions())]


@st.composite
def projects(draw):
    def helper(name):
        return [f"def {name}(store, ledger, run):", *_indent(draw(blocks()) + ["return run"]), ""]

    imported = HELPERS[:2]
    helpers = ["import os", "import contextlib", "from main import " + ", ".join(HELPERS[2:]), ""]
    for name in imported:
        helpers += helper(name)
    main = ["import os", "import contextlib", "from helpers import " + ", ".join(imported), ""]
    for name in HELPERS[2:]:
        main += helper(name)
    main += ["def helper(x):", "    return commit_a(x, x, x)", "", "", "class Runtime:"]
    for method in ("step", "complete"):
        main += [f"    def {method}(self, store, ledger, run, items=(), tmp='t', path='p', data=b'', fd=0, lock=None):",
                 *_indent(draw(blocks()), 2), ""]
    main += ["", "def top(store, ledger, run, items, tmp, path, data, fd, lock, log, fh, x=0):",
             *_indent(draw(blocks())), ""]
    return "\n".join(helpers) + "\n", "\n".join(main) + "\n"


def _utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def _check_ranges(payload: dict, sources: dict) -> None:
    """``sources``: file URI → lines. A related location may be in another file."""
    for entry in payload["files"]:
        ranges = []
        for d in entry["diagnostics"]:
            ranges.append((entry["uri"], d["range"]))
            ranges += [(r["location"]["uri"], r["location"]["range"]) for r in d.get("relatedInformation", [])]
        for uri, r in ranges:
            lines = sources[uri]
            for end in ("start", "end"):
                pos = r[end]
                assert 0 <= pos["line"] < max(1, len(lines)), (r, len(lines))
                text = lines[pos["line"]] if lines else ""
                assert 0 <= pos["character"] <= _utf16_len(text), (r, text)
            assert (r["start"]["line"], r["start"]["character"]) <= (r["end"]["line"], r["end"]["character"]), r


def _key(f):
    return (f.path, f.span.line, f.span.col, f.code, f.message, repr(f.witness))


@pytest.mark.slow
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(projects())
def test_event_heavy_modules_never_crash_and_the_cache_changes_nothing(project):
    helpers, main = project
    with tempfile.TemporaryDirectory(dir=RAM) as tmp:
        root = Path(tmp)
        src = root / "src"
        src.mkdir()
        (src / "helpers.py").write_text(helpers)
        (src / "main.py").write_text(main)
        cache = root / "cache"
        cold = runner.run([src], SETTINGS, cache_dir=cache)
        warm = runner.run([src], SETTINGS, cache_dir=cache)
        assert warm.cache_hits == 2
        assert [_key(f) for f in cold.findings] == [_key(f) for f in warm.findings]
        assert not [f for f in cold.findings if f.code in ("OC900", "OC901")], [f.message for f in cold.findings]
        sources = {p: f.lines for p, f in warm.facts.items()}
        out = FORMATS["json"](warm.findings, warm.files, rules=SETTINGS.rules, sources=sources,
                              color=False, quiet=False, always=[])
        payload = json.loads(out)
        assert payload["summary"]["findings"] == len(warm.findings)
        _check_ranges(payload, {file_uri(p): f.lines for p, f in warm.facts.items()})
