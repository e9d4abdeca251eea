"""How much a name-based pre-pass could skip (issue 9, part 1), measured.

A sound pre-pass may skip the libcst pass of a file only if no function in it can
perform an event, directly or through a callee. Without the front end's own callee
resolution (imports, aliases, receiver types, MRO) the only sound test is by names:
a function is *hot* if any identifier in it could be the last segment of a callee a
vocabulary pattern matches (with the pattern's other literal pieces found in the
file or in some project module or class name), or if it names a context-manager
protocol; then every function whose body names a hot function, method or class is
hot too, to a fixed point. A file with no hot function could be skipped.

    python bench/prepass_bound.py ~/.cache/ordercheck-bench/src/*/

prints, per package, how many files and lines stay hot. The result (docs/performance.md,
"A pre-pass by names") is why no such pre-pass was built: on six of the seven
packages 97-100% of the lines stay hot (temporalio 75%), because `append`, `write` and `save` are
everyday method names and common method names spread through the call graph.
"""
import ast
import re
import sys
from pathlib import Path

from ordercheck.vocabulary import load_default_vocab

CLASSES = ["save", "append", "terminal-append", "file-write", "rename"]
MANAGER_NAMES = {"__exit__", "__aexit__", "contextmanager", "asynccontextmanager"}


def pattern_pieces(pattern):
    """(the literal start of the last dotted segment, whether it is the whole segment,
    the pattern's other literal pieces)."""
    head, _, tail = pattern.rpartition(".")
    lead = re.match(r"[^*?\[]*", tail).group(0)
    rest = head + ("." + tail[len(lead):] if lead != tail else "")
    others = [x for x in re.split(r"[*?.]|\[[^\]]*\]", rest) if x]
    return lead, lead == tail, others


def names_in(node, skip_defs):
    out, stack = set(), [node]
    while stack:
        n = stack.pop()
        if n is not node and skip_defs and isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            stack.extend(n.decorator_list)
            if isinstance(n, ast.ClassDef):
                stack.extend(n.bases)
                stack.extend(n.keywords)
            else:
                stack.extend(n.args.defaults)
                stack.extend(x for x in n.args.kw_defaults if x)
            continue
        if isinstance(n, ast.Name):
            out.add(n.id)
        elif isinstance(n, ast.Attribute):
            out.add(n.attr)
        elif isinstance(n, ast.alias):
            out.update(n.name.split("."))
            out.add(n.asname or "")
        elif isinstance(n, ast.ImportFrom) and n.module:
            out.update(n.module.split("."))
        stack.extend(ast.iter_child_nodes(n))
    return out


def main(roots):
    classes, _, _ = load_default_vocab()
    pieces = [pattern_pieces(p) for c in CLASSES for p in classes.get(c, ())]
    for root in roots:
        files = []
        for f in sorted(Path(root).rglob("*.py")):
            try:
                source = f.read_text()
                tree = ast.parse(source)
            except (SyntaxError, UnicodeDecodeError, ValueError):
                continue
            units = []  # (name, class, names it uses)

            def walk(body, owner):
                for n in body:
                    if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
                        units.append((n.name, owner, names_in(n, False)))
                    elif isinstance(n, ast.ClassDef):
                        walk(n.body, n.name)

            walk(tree.body, None)
            units.append((None, None, names_in(tree, True)))
            files.append((f, source.count("\n"), units, tree))
        segments = set()
        for f, _, _, tree in files:
            segments.update(f.relative_to(root).with_suffix("").parts)
            segments.update(n.name for n in ast.walk(tree) if isinstance(n, ast.ClassDef))

        def matches(names):
            for lead, whole, others in pieces:
                if not lead:
                    return True
                if any((x == lead) if whole else x.startswith(lead) for x in names) and all(
                        any(o in x for x in names) or any(o in g for g in segments) for o in others):
                    return True
            return False

        hot = [[matches(u[2]) or bool(u[2] & MANAGER_NAMES) for u in units] for _, _, units, _ in files]
        interesting = set()
        while True:
            new = {name for (_, _, units, _), hs in zip(files, hot) for (n, cls, _), h in zip(units, hs) if h
                   for name in (n, cls) if name and not name.startswith("__")}
            if new <= interesting:
                break
            interesting |= new
            hot = [[h or bool(u[2] & interesting) for u, h in zip(units, hs)] for (_, _, units, _), hs in zip(files, hot)]
        kept = [any(hs) for hs in hot]
        lines = sum(x[1] for x in files)
        kept_lines = sum(x[1] for x, k in zip(files, kept) if k)
        print(f"{Path(root).name}: {sum(kept)}/{len(files)} files, {kept_lines}/{lines} lines "
              f"({100 * kept_lines / max(1, lines):.0f}%) stay hot")


if __name__ == "__main__":
    main(sys.argv[1:])
