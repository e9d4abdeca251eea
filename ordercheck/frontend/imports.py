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
from typing import Callable, Dict, List, Optional, Set, Tuple, cast


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

#: the key prefix, in the module's table, of an import a later ``def``/``class`` of
#: the module replaced (``SHADOWED + name``): what a class statement's own base of
#: that name still is (``class Runner(Runner)``: Python reads the bases first)
SHADOWED = "#"


def module_table(table: Dict[str, str]) -> Tuple[Dict[str, str], List[str], Dict[str, str]]:
    """The module's import table (``import_tables``' key 0) split: the imports
    (``FileFacts.imports``), the star imports' modules, and the table the module's
    frame reads (the imports and the ``SHADOWED`` ones)."""
    imports = {k: v for k, v in table.items() if not k.startswith(("*", SHADOWED))}
    stars = [v for k, v in table.items() if k.startswith("*")]
    frame = dict(imports)
    frame.update((k, v) for k, v in table.items() if k.startswith(SHADOWED))
    return imports, stars, frame


def module_exports(tree: ast.Module) -> Optional[List[str]]:
    """The names a module's ``__all__`` lists, when its own top-level statements (those
    in a top-level ``if``/``try`` too) build it of string literals only: ``__all__ =
    [...]``/``(...)``, ``__all__ += [...]``, ``__all__.extend([...])``,
    ``__all__.append("x")``. None when the module has no such ``__all__``, or changes
    it any other way anywhere (``__all__ = base.__all__ + [...]``, an ``append`` in a
    loop, ``.remove``, ``del __all__[0]``, an assignment in a function): a star import
    of it then binds the names without a leading underscore (docs/decisions.md, "What
    a star import binds")."""
    names: Optional[List[str]] = None
    read: Set[int] = set()  # the `__all__` names the statements read here stand for
    stack: List[ast.stmt] = list(reversed(tree.body))
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If):
            stack.extend(reversed(node.body + node.orelse))
            continue
        if isinstance(node, ast.Try) or type(node).__name__ == "TryStar":
            parts = list(node.body) + [s for h in node.handlers for s in h.body]  # type: ignore[attr-defined]
            stack.extend(reversed(parts + node.orelse + node.finalbody))  # type: ignore[attr-defined]
            continue
        value: Optional[ast.expr] = None
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and _is_all(node.targets[0]):
            names, value = [], node.value
            read.add(id(node.targets[0]))
        elif isinstance(node, ast.AnnAssign) and _is_all(node.target) and node.value is not None:
            names, value = [], node.value
            read.add(id(node.target))
        elif isinstance(node, ast.AugAssign) and _is_all(node.target) and isinstance(node.op, ast.Add):
            value = node.value
            read.add(id(node.target))
        elif (isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)
              and isinstance(node.value.func, ast.Attribute) and _is_all(node.value.func.value)
              and node.value.func.attr in ("extend", "append") and len(node.value.args) == 1
              and not node.value.keywords):
            arg = node.value.args[0]
            value = ast.List(elts=[arg], ctx=ast.Load()) if node.value.func.attr == "append" else arg
            read.add(id(node.value.func.value))
        else:
            continue
        if names is None or not isinstance(value, (ast.List, ast.Tuple)):
            return None  # built before it was assigned, or not of literals
        for elt in value.elts:
            if not (isinstance(elt, ast.Constant) and isinstance(elt.value, str)):
                return None
            names.append(elt.value)
    if names is not None and any(id(n) not in read for n in _changes_of_all(tree)):
        return None
    return names


def _changes_of_all(tree: ast.Module) -> List[ast.Name]:
    """Every ``__all__`` name anywhere in the module that may change it: bound or
    deleted (``__all__ = ...``, ``for __all__ in``, ``del __all__``), its item bound or
    deleted (``__all__[0] = ...``), or the receiver of a method call
    (``__all__.remove(...)``); a plain read (``sorted(__all__)``) changes nothing."""
    out: List[ast.Name] = []
    for node in _module_scope(tree):  # (what binds the module's own name)
        if isinstance(node, ast.Name) and node.id == "__all__" and not isinstance(node.ctx, ast.Load):
            out.append(node)
        elif ((isinstance(node, ast.alias) and (node.asname or node.name) == "__all__")
              or (isinstance(node, ast.ExceptHandler) and node.name == "__all__")
              or (type(node).__name__ in ("MatchAs", "MatchStar") and getattr(node, "name", None) == "__all__")):
            out.append(ast.Name(id="__all__", ctx=ast.Store()))
    for node in ast.walk(tree):  # (what changes the list, a function's `export` decorator too)
        if (isinstance(node, ast.Subscript) and _is_all(node.value)
                and not isinstance(node.ctx, ast.Load)):
            out.append(cast(ast.Name, node.value))
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and _is_all(node.func.value)
              and node.func.attr not in _READING):
            out.append(cast(ast.Name, node.func.value))
    if any(isinstance(node, ast.Global) and "__all__" in node.names for node in ast.walk(tree)):
        out.append(ast.Name(id="__all__", ctx=ast.Store()))  # (a function rebinds the module's)
    return out


#: the methods of a list that only read it
_READING = frozenset({"count", "index", "copy", "__contains__", "__len__", "__iter__", "__getitem__"})


def _module_scope(tree: ast.Module) -> List[ast.AST]:
    """The nodes of the module's own scope: not the bodies of its functions, lambdas
    and classes (their ``__all__`` is their own), but their decorators, defaults and
    bases, which the module runs."""
    out: List[ast.AST] = []
    stack: List[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        out.append(node)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            stack.extend(node.decorator_list + node.args.defaults + [d for d in node.args.kw_defaults if d is not None])
        elif isinstance(node, ast.ClassDef):
            stack.extend(node.decorator_list + node.bases + [k.value for k in node.keywords])
        elif isinstance(node, ast.Lambda):
            stack.extend(node.args.defaults)
        else:
            stack.extend(ast.iter_child_nodes(node))
    return out


def _is_all(node: ast.AST) -> bool:
    return isinstance(node, ast.Name) and node.id == "__all__"


def import_tables(tree: ast.Module, module: str, path: str) -> Dict[int, Dict[str, str]]:
    """For the module (key 0) and each function (key: its ``def`` line), the names
    its imports bind, anywhere in its body but not in nested functions —
    flow-insensitively, like Python's scoping. An import in a class body binds a
    name of the class, which neither the class's methods nor the module see as a bare
    name (docs/decisions.md, "A function's own name hides the module's"): it is in the
    class's own table, key minus the ``class`` line, which only ``self.name``/``cls.name``
    reads (``Resolver.class_aliases``: a method imported into a class body)."""
    tables: Dict[int, Dict[str, str]] = {}
    pending: List[Tuple[int, List[ast.AST]]] = [(0, list(tree.body))]
    while pending:
        key, stack = pending.pop()
        table = tables.setdefault(key, {})
        # a ``def``/``class`` in the scope's own body after every import of its name
        # rebinds it for good (docs/decisions.md, "A definition after an import")
        defined = {n.name: n.lineno for n in stack if isinstance(n, _DEFINITIONS)}
        imported: Dict[str, int] = {}
        in_class: Dict[int, int] = {}  # (ids of the statements of class bodies -> the class's line)
        while stack:
            node = stack.pop()
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                pending.append((node.lineno, list(node.body)))
                continue
            if id(node) in in_class and isinstance(node, (ast.Import, ast.ImportFrom)):
                own = tables.setdefault(-in_class[id(node)], {})
                base = ""
                if isinstance(node, ast.ImportFrom):
                    base = "." * node.level + (node.module or "")
                    base = resolve_relative(module, base, path) if node.level else base
                for alias in node.names:
                    if alias.name == "*":
                        continue
                    if isinstance(node, ast.ImportFrom):
                        own.setdefault(alias.asname or alias.name, f"{base}.{alias.name}" if base else alias.name)
                    elif alias.asname:
                        own.setdefault(alias.asname, alias.name)
                continue
            if isinstance(node, ast.ClassDef):
                in_class.update((id(n), node.lineno) for n in node.body)
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
                inside = id(node) in in_class and not isinstance(node, ast.ClassDef)
                for name in blocks:  # (statements, handlers and cases hold the statements)
                    parts = getattr(node, name)
                    stack.extend(parts)
                    if inside:  # (an `if`/`try` in a class body: still the class's)
                        in_class.update((id(p), in_class[id(node)]) for p in parts)
        for name, line in defined.items():
            if name in imported and imported[name] < line:
                if key == 0:
                    table[SHADOWED + name] = table[name]
                del table[name]
    return tables


_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


#: the fields that hold statements (or the handlers and cases that do), in field order
_BLOCK_FIELDS = frozenset({"body", "orelse", "finalbody", "handlers", "cases"})
_BLOCKS: Dict[type, Tuple[str, ...]] = {
    # (a statement's blocks are walked last pushed first, and the first import of a
    # name walked wins: a `try`'s own import wins over its `except ImportError:`
    # fallback's, as it is the one that normally runs; `else` and `finally` come after)
    t: ("handlers", "body", "orelse", "finalbody") for t in (ast.Try, getattr(ast, "TryStar", ast.Try))
}


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

