"""Import tables: the names each scope's imports bind, resolved to qualified names
(relative imports included), and a file's module name by the package rule.

A small flow-insensitive table per scope (module, then each function), from the
``ast``: libcst's QualifiedNameProvider does the same with full scope analysis, which
measured at half of the whole run on real packages (docs/performance.md) for no
finding it changed.
"""
from __future__ import annotations

import ast
from pathlib import Path
from typing import Callable, Dict, List, Optional, Tuple


def module_name(path: Path, is_package: Optional[Callable[[Path], bool]] = None) -> str:
    """The dotted module name by the package rule: walk up while the folder has an
    ``__init__.py`` (``is_package``: how a caller that asks for many files in the
    same folders remembers the answer)."""
    path = Path(path)
    parts = [] if path.stem == "__init__" else [path.stem]
    folder = path.parent
    while is_package(folder) if is_package is not None else (folder / "__init__.py").is_file():
        parts.insert(0, folder.name)
        if folder.parent == folder:
            break
        folder = folder.parent
    return ".".join(parts) if parts else path.stem

def import_tables(tree: ast.Module, module: str, path: str) -> Dict[int, Dict[str, str]]:
    """For the module (key 0) and each function (key: its ``def`` line), the names
    its imports bind, anywhere in its body but not in nested functions —
    flow-insensitively, like Python's scoping. Class bodies count as their
    enclosing scope (a linter's approximation)."""
    tables: Dict[int, Dict[str, str]] = {}
    pending: List[Tuple[int, List[ast.AST]]] = [(0, list(tree.body))]
    while pending:
        key, stack = pending.pop()
        table = tables.setdefault(key, {})
        # a ``def``/``class`` in the scope's own body after every import of its name
        # rebinds it for good (docs/decisions.md, "A definition after an import")
        defined = {n.name: n.lineno for n in stack if isinstance(n, _DEFINITIONS)}
        imported: Dict[str, int] = {}
        while stack:
            node = stack.pop()
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                pending.append((node.lineno, list(node.body)))
                continue
            if isinstance(node, ast.Import):
                for alias in node.names:
                    name = alias.asname or alias.name.split(".")[0]
                    table.setdefault(name, alias.name if alias.asname else name)
                    imported[name] = max(imported.get(name, 0), node.lineno)
            elif isinstance(node, ast.ImportFrom):
                base = "." * node.level + (node.module or "")
                if node.level:
                    base = resolve_relative(module, base, path)
                for alias in node.names:
                    if alias.name != "*":
                        name = alias.asname or alias.name
                        table.setdefault(name, f"{base}.{alias.name}" if base else alias.name)
                        imported[name] = max(imported.get(name, 0), node.lineno)
                    elif key == 0 and base:
                        table.setdefault(f"*{base}", base)  # a star import: see FileFacts.star_imports
            else:
                cls = node.__class__
                blocks = _BLOCKS.get(cls)
                if blocks is None:
                    blocks = _BLOCKS[cls] = tuple(f for f in cls._fields if f in _BLOCK_FIELDS)
                for name in blocks:  # (statements, handlers and cases hold the statements)
                    stack.extend(getattr(node, name))
        for name, line in defined.items():
            if name in imported and imported[name] < line:
                del table[name]
    return tables


_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


#: the fields that hold statements (or the handlers and cases that do), in field order
_BLOCK_FIELDS = frozenset({"body", "orelse", "finalbody", "handlers", "cases"})
_BLOCKS: Dict[type, Tuple[str, ...]] = {}


def resolve_relative(module: str, name: str, path: str) -> str:
    """``.store.x`` inside ``pkg.runtime`` → ``pkg.store.x``."""
    level = len(name) - len(name.lstrip("."))
    rest = name[level:]
    parts = module.split(".") if module else []
    is_package = Path(path).stem == "__init__"
    if not is_package:
        parts = parts[:-1]
    if level > 1:
        parts = parts[: len(parts) - (level - 1)] if level - 1 <= len(parts) else []
    return ".".join([p for p in parts] + ([rest] if rest else []))

