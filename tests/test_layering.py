"""The pipeline reads top to bottom: no stage imports a later one (no cycles)."""
import ast
from pathlib import Path

PKG = Path(__file__).resolve().parent.parent / "ordercheck"

# ground first, surfaces last; a module may import only modules of a lower rank. A
# package is ranked either as a whole (``reporters``: its modules may import each
# other) or module by module (``frontend.source``, ..., then ``frontend`` for its
# ``__init__``), each module of it by its own row.
ORDER = [
    ["__init__", "errors", "resources", "atomic", "lazy", "kinds", "patterns", "depth", "filepaths"],
    ["ir"],
    ["markers", "scopes"],
    ["frontend.source", "frontend.imports", "frontend.comments", "frontend.positions"],
    ["frontend.resolution"],  # (reads the import tables' keys: ``imports.SHADOWED``)
    ["frontend.expressions", "frontend.outline"],
    ["frontend.statements"],
    ["frontend"],
    ["findings", "vocabulary", "config", "cache"],
    ["project", "runcache", "snapshot"],
    ["summaries", "cfg"],
    ["managers"],
    ["effects"],
    ["contracts", "feasible"],
    ["rulebook"],
    ["settings"],
    ["focus"],
    ["sources"],
    ["verdicts"],
    ["diagnose", "suppression", "baseline", "fixes"],
    ["reporters"],
    ["memos"],
    ["runner"],
    ["lsp", "suggest"],
    ["cli", "docgen"],
    ["__main__"],
]
RANK = {name: i for i, group in enumerate(ORDER) for name in group}


def _modules():
    """Dotted name (relative to the package; ``__init__`` for its own) -> path."""
    out = {}
    for path in PKG.rglob("*.py"):
        parts = list(path.relative_to(PKG).with_suffix("").parts)
        if parts[-1] == "__init__" and len(parts) > 1:
            parts.pop()
        out[".".join(parts)] = path
    return out


MODULES = _modules()


def _unit(name):
    """The ranked row entry a module belongs to: itself, or its nearest ranked package."""
    while name not in RANK:
        if "." not in name:
            return None
        name = name.rsplit(".", 1)[0]
    return name


def _absolute(target):
    """``ordercheck.x.y`` → the package's module ``x.y`` (or its package ``x``)."""
    parts = target.split(".")[1:]
    while parts and ".".join(parts) not in MODULES:
        parts.pop()
    return ".".join(parts) or "__init__"


def _imports(name, path):
    """The package's own modules that ``name`` imports: relative imports (resolved),
    absolute ``ordercheck.*`` imports, and the deferred ones (``lazy.module("ordercheck.x",
    ...)``, ``importlib.import_module("ordercheck.x")``), wherever they stand."""
    package = name.split(".") if path.name == "__init__.py" and name != "__init__" else name.split(".")[:-1]
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            yield from (_absolute(a.name) for a in node.names if a.name.split(".")[0] == "ordercheck")
            continue
        if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").split(".")[0] == "ordercheck":
            yield _absolute(node.module)
            continue
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("module", "import_module")
                and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
                and node.args[0].value.startswith("ordercheck.")):
            yield _absolute(node.args[0].value)
            continue
        if not isinstance(node, ast.ImportFrom) or node.level < 1:
            continue
        base = package[: len(package) - (node.level - 1)] if node.level > 1 else package
        if node.module:
            target = ".".join(base + node.module.split("."))
            subs = [f"{target}.{a.name}" for a in node.names if f"{target}.{a.name}" in MODULES]
            yield from subs or [target]
        else:
            for alias in node.names:
                target = ".".join(base + [alias.name])
                yield target if target in MODULES else (".".join(base) or "__init__")


def test_every_module_is_ranked_and_every_ranked_module_exists():
    unranked = {name for name in MODULES if _unit(name) is None}
    assert not unranked, f"unranked modules: {unranked}"
    assert set(RANK) <= set(MODULES), f"ranked but missing: {set(RANK) - set(MODULES)}"


def _packages():
    """The subpackages (``reporters/``, ``contracts/``...): each counts as one stage,
    by its name."""
    return sorted(p for p in PKG.iterdir() if (p / "__init__.py").is_file())


def test_no_stage_imports_a_later_one():
    for name, path in MODULES.items():
        own = _unit(name)
        for dep in _imports(name, path):
            unit = _unit(dep)
            assert unit is not None, f"{name} imports {dep}, which is not a module of the package"
            if unit == "__init__" or name == "__init__":
                continue
            if unit == own and (PKG / own.replace(".", "/")).is_dir():
                continue  # modules of a package ranked as a whole
            assert RANK[unit] < RANK[own], f"{name} imports {dep}"


def test_the_import_graph_sees_the_deferred_imports():
    """``runner`` defers ``summaries`` and ``cfg`` (``lazy.module``): the layering
    above must see those edges, or a deferred import of a later stage would pass."""
    assert {"summaries", "cfg", "contracts"} <= set(_imports("runner", MODULES["runner"]))
    assert "lsp" in set(_imports("cli", MODULES["cli"]))


def test_reporters_import_only_the_ground():
    for path in (PKG / "reporters").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 2 and node.module:
                assert RANK[node.module.split(".")[0]] <= RANK["findings"] or node.module == "__init__", (path.name, node.module)


def test_every_package_is_shipped():
    """A wheel holds only the packages pyproject.toml lists."""
    import tomllib
    listed = tomllib.loads((PKG.parent / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    for pkg in _packages():
        assert f"ordercheck.{pkg.name}" in listed, f"ordercheck.{pkg.name} is missing from pyproject.toml's packages"


def test_the_architecture_table_lists_the_ranked_modules():
    """docs/architecture.md's table names every ranked module once, its rows in the
    order's order (a row of the table may hold several rows of the order)."""
    doc = (PKG.parent / "docs" / "architecture.md").read_text()
    rows = [line.split("|")[2] for line in doc.splitlines() if line.startswith("| ") and "`" in line.split("|")[2]]
    listed = [m.strip().strip("`").rstrip("/") for row in rows for m in row.replace(";", ",").split(",") if m.strip()]
    assert sorted(listed) == sorted(set(RANK) - {"__init__"})
    ranks = [RANK[m] for m in listed]
    assert ranks == sorted(ranks), listed
