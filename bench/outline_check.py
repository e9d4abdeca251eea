#!/usr/bin/env python3
"""The outline knows what the libcst walk knows, on real code.

    python bench/outline_check.py DIR_OR_FILE [...]

For every ``.py`` file: the libcst front end's facts, made light as the cache makes
them (``cache.lighten``), against the file's outline (``frontend.outline``): the same
functions in the same order, the same nested functions, decorators and context-manager
marks, every call of the libcst walk present in the outline with the same callee,
qualified names, receiver type, ``self``/``super`` mark and exit, the same ``with``
managers in order, the same classes and imports. Prints each file that differs and a
count; ``tests/test_outline.py`` runs the same comparison on the fixtures and rule
examples (docs/performance.md, "The outline pre-pass").
"""
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from ordercheck import cache, frontend  # noqa: E402
from ordercheck.frontend import outline  # noqa: E402
from ordercheck.summaries import with_managers  # noqa: E402


def sig(c):
    return (c.callee, c.qualnames, c.receiver_type, c.self_call, c.exits)

def compare(path, data):
    full = frontend.extract(str(path), data)
    light = cache.lighten(full)
    out = outline(str(path), data)
    probs = []
    if (light.error is None) != (out.error is None):
        return [f"error differs {light.error} {out.error}"]
    if light.error is not None:
        return []
    if [f.qualname for f in light.functions] != [f.qualname for f in out.functions]:
        probs.append(f"functions differ {[f.qualname for f in light.functions][:8]} vs {[f.qualname for f in out.functions][:8]}")
        return probs
    for a, b in zip(light.functions, out.functions):
        for attr in ("local_functions", "class_name", "decorators", "context_manager", "name"):
            if getattr(a, attr) != getattr(b, attr):
                probs.append(f"{a.qualname}.{attr}: {getattr(a, attr)!r} vs {getattr(b, attr)!r}")
        missing = {sig(c) for c in a.calls if not c.aug} - {sig(c) for c in b.calls}
        for m in sorted(missing, key=str)[:3]:
            probs.append(f"{a.qualname}: call missing {m}; outline has {[sig(c) for c in b.calls if c.callee.split('.')[-1]==m[0].split('.')[-1]][:2]}")
        wm = [sig(c) for c in with_managers(a.body)]
        wo = [sig(c) for c in with_managers(b.body)]
        if wm != wo:
            probs.append(f"{a.qualname}: managers {wm} vs {wo}")
    ca = [(c.qualname, c.bases, c.methods, c.attr_types) for c in light.classes]
    cb = [(c.qualname, c.bases, c.methods, c.attr_types) for c in out.classes]
    if ca != cb:
        probs.append(f"classes differ {[x for x in ca if x not in cb][:2]} vs {[x for x in cb if x not in ca][:2]}")
    if (light.imports, light.star_imports) != (out.imports, out.star_imports):
        probs.append("imports differ")
    return probs

def main(argv) -> int:
    files = []
    for a in argv:
        p = Path(a)
        files.extend(sorted(p.rglob("*.py")) if p.is_dir() else [p])
    bad = 0
    t0 = time.time()
    for f in files:
        try:
            probs = compare(f, f.read_bytes())
        except Exception as exc:
            probs = [f"crash {type(exc).__name__}: {exc}"]
        if probs:
            bad += 1
            print(f, *probs[:4], sep="\n   ")
    print(f"{bad}/{len(files)} files differ ({time.time()-t0:.0f}s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
