"""Star imports are followed once per (module, name) in one lookup (held-out set 47:
neptune-client's package ``__init__`` star-imports fourteen modules; each unknown
``neptune.x`` followed every star again, down to depth 8, and a run took 54 s). A
count of lookups, not a timing: the machines are noisy."""
from __future__ import annotations

import pytest

from ordercheck import frontend, summaries


def _module(path: str) -> str:
    return path[:-3].replace("/", ".").removesuffix(".__init__")


def _index(files: dict) -> summaries.ProjectIndex:
    return summaries.ProjectIndex.of(frontend.extract(path, src.encode(), _module(path)) for path, src in files.items())


def _counting(monkeypatch) -> list:
    calls = [0]
    real = summaries.ProjectIndex.resolve_qualified

    def counted(self, *args, **kwargs):
        calls[0] += 1
        return real(self, *args, **kwargs)

    monkeypatch.setattr(summaries.ProjectIndex, "resolve_qualified", counted)
    return calls


@pytest.mark.parametrize("inside", [False, True])
def test_an_unknown_name_costs_a_few_lookups(monkeypatch, inside):
    n = 8
    files = {"pkg/__init__.py": "".join(f"from pkg.m{i} import *\n" for i in range(n))}
    if inside:  # the starred modules are the project's, and star-import each other
        for i in range(n):
            files[f"pkg/m{i}.py"] = "".join(f"from pkg.m{j} import *\n" for j in range(n) if j != i) + "from pkg import *\n"
        files["pkg/m5.py"] += "def persist(run):\n    pass\n"
    index = _index(files)
    calls = _counting(monkeypatch)
    assert index.resolve_qualified("pkg.nothing_here") is None
    assert calls[0] <= 4 * n * n
    if inside:
        assert index.resolve_qualified("pkg.persist") == summaries.fkey("pkg/m5.py", "persist")
        assert index.resolve_qualified("pkg.m3.persist") == summaries.fkey("pkg/m5.py", "persist")


def test_a_pair_reached_deep_first_is_followed_again_when_reached_shallower():
    """(A review.) The package ``__init__`` star-imports ``target`` directly and through a
    chain of eight star imports; the chain reaches ``target`` first, beyond the depth
    bound, and the direct star must still find ``persist``."""
    files = {"pkg/__init__.py": "from .target import *\nfrom .a1 import *\n",
             "pkg/a8.py": "from .target import *\n",
             "pkg/target.py": "def persist(store, run):\n    store.save(run)\n"}
    for i in range(1, 8):
        files[f"pkg/a{i}.py"] = f"from .a{i + 1} import *\n"
    files = {k: v.replace("from .", "from pkg.") for k, v in files.items()}
    index = _index(files)
    assert index.resolve_qualified("pkg.persist") == summaries.fkey("pkg/target.py", "persist")
