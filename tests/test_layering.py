"""The pipeline reads top to bottom: no stage imports a later one (no cycles)."""
import ast
from pathlib import Path

PKG = Path(__file__).resolve().parent.parent / "ordercheck"

# ground first, surfaces last; a module may import only modules of a lower rank
ORDER = [
    ["__init__", "errors", "resources", "atomic", "lazy", "kinds"],
    ["markers", "scopes"],
    ["facts"],
    ["findings", "vocabulary", "rulebook", "config", "cache"],
    ["settings"],
    ["project", "runcache"],
    ["sources"],
    ["summaries", "cfg"],
    ["managers"],
    ["effects"],
    ["contracts", "feasible"],
    ["diagnose", "suppression", "baseline", "fixes"],
    ["reporters"],
    ["memos"],
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


def test_no_stage_imports_a_later_one():
    modules = {p.stem: p for p in PKG.glob("*.py")}
    assert set(modules) <= set(RANK), f"unranked modules: {set(modules) - set(RANK)}"
    for name, path in modules.items():
        for dep in _imports(path):
            if dep in RANK and name != "__init__":
                assert RANK[dep] < RANK[name] or (dep == "__init__"), f"{name} imports {dep}"


def test_reporters_import_only_the_ground():
    for path in (PKG / "reporters").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 2 and node.module:
                assert RANK[node.module.split(".")[0]] <= RANK["findings"] or node.module == "__init__", (path.name, node.module)
