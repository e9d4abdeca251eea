"""The pipeline reads top to bottom: no stage imports a later one (no cycles)."""
import ast
from pathlib import Path

PKG = Path(__file__).resolve().parent.parent / "ordercheck"

# ground first, surfaces last; a module may import only modules of a lower rank
ORDER = [
    ["__init__", "errors", "resources", "atomic", "lazy", "kinds", "positions"],
    ["markers", "scopes"],
    ["facts"],
    ["findings", "vocabulary", "config", "cache"],
    ["project", "runcache"],
    ["summaries", "cfg"],
    ["managers"],
    ["effects"],
    ["contracts", "feasible"],
    ["rulebook"],
    ["diagnose", "suppression", "baseline", "fixes"],
    ["reporters"],
    ["runner"],
    ["lsp", "suggest"],
    ["cli", "docgen"],
    ["__main__"],
]
RANK = {name: i for i, group in enumerate(ORDER) for name in group}


def _imports(path: Path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level >= 1:
            if node.module:
                yield node.module.split(".")[0] if node.level == 1 else "__parent__"
            else:
                for alias in node.names:
                    yield alias.name


def _packages():
    """The subpackages (``reporters/``, ``contracts/``...): each counts as one stage,
    by its name."""
    return sorted(p for p in PKG.iterdir() if (p / "__init__.py").is_file())


def test_no_stage_imports_a_later_one():
    modules = {p.stem: p for p in PKG.glob("*.py")}
    assert set(modules) <= set(RANK), f"unranked modules: {set(modules) - set(RANK)}"
    packages = {p.name for p in _packages()}
    assert packages <= set(RANK), f"unranked packages: {packages - set(RANK)}"
    for name, path in modules.items():
        for dep in _imports(path):
            if dep in RANK and name != "__init__":
                assert RANK[dep] < RANK[name] or (dep == "__init__"), f"{name} imports {dep}"


def test_reporters_import_only_the_ground():
    for path in (PKG / "reporters").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 2 and node.module:
                assert RANK[node.module.split(".")[0]] <= RANK["findings"] or node.module == "__init__", (path.name, node.module)


def test_no_module_of_a_package_imports_a_later_stage():
    """A package's modules import each other freely (``from .base import ...``) and
    the stages before the package's own (``from ..kinds import ...``)."""
    for pkg in _packages():
        for path in pkg.glob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                if not isinstance(node, ast.ImportFrom) or node.level < 2:
                    continue
                assert node.level == 2, (pkg.name, path.name, "imports from above the package")
                names = [node.module.split(".")[0]] if node.module else [a.name for a in node.names]
                for dep in names:
                    if dep in RANK and dep != "__init__":
                        assert RANK[dep] < RANK[pkg.name], f"{pkg.name}/{path.name} imports {dep}"


def test_every_package_is_shipped():
    """A wheel holds only the packages pyproject.toml lists."""
    import sys

    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib
    listed = tomllib.loads((PKG.parent / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    for pkg in _packages():
        assert f"ordercheck.{pkg.name}" in listed, f"ordercheck.{pkg.name} is missing from pyproject.toml's packages"
