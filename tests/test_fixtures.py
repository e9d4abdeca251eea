"""The bundled runtime reproduces the seed's ordering sites; its fixed twin is clean."""
import functools
import tomllib
from pathlib import Path

from checkutil import settings_for

from ordercheck import runner

ROOT = Path(__file__).resolve().parent.parent / "fixtures"


@functools.lru_cache(maxsize=None)  # (the runs read this whole repository: once per folder and worker)
def _run(folder: Path):
    s = settings_for(select=None)
    s.selected = runner.select_codes(s.rules, None, [], [])  # the default rule set
    return tuple(runner.run([folder], s).findings)


def test_runtime_findings_are_exactly_the_expected_ones():
    expected = tomllib.loads((ROOT / "runtime" / "EXPECTED.toml").read_text())["finding"]
    want = sorted((e["path"], e["line"], e["code"]) for e in expected)
    got = sorted(
        (Path(f.path).resolve().relative_to((ROOT / "runtime").resolve()).as_posix(), f.span.line, f.code)
        for f in _run(ROOT / "runtime")
    )
    assert got == want


def test_runtime_fixed_is_clean():
    assert _run(ROOT / "runtime_fixed") == ()


def test_seed_completion_via_helper_names_the_callee():
    findings = [f for f in _run(ROOT / "runtime") if f.code == "OC101" and f.function == "Runtime.tick"]
    assert findings, "the tick() → self._finish(run) inversion must be found"
    steps = [s for s in findings[0].witness if s.kind == "save"]
    assert steps and "Runtime._finish" in steps[0].via and "self._store.save" in steps[0].via
