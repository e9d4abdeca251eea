"""A file's outline from CPython's ``ast`` alone: what call resolution reads, at a tenth
of the libcst pass (docs/performance.md, "The outline pre-pass").

An outline is a ``FileFacts`` shaped like the cache's light facts (``cache.lighten``):
every function (in the order the libcst walk ends them), its calls with their callee,
qualified names, receiver type and ``self``/``super`` mark, its ``with`` statements as a
flat skeleton holding each item's manager call, its nested functions; every class
with its bases, methods and typed attributes; the import tables. It has no statement
trees, no evaluation order, no positions beyond lines and no source lines, so it never
feeds a graph: ``focus`` reads outlines to find the functions that can hold a finding,
and only their files go through the libcst front end.

It must never know less than the libcst walk: every call that walk records for a
function is here with the same names (it may hold more: annotations' calls are walked
here too). Both walks keep the same scope stack and ask ``resolution`` every name
question, and ``tests/test_outline.py`` checks the outline against the libcst facts
on every fixture and rule example.
"""
from __future__ import annotations

import ast
import dataclasses
from pathlib import Path
from typing import Any, Callable, Dict, FrozenSet, List, Optional, Tuple, Union, cast

from .. import scopes as scopesmod
from ..ir import Call, ClassFacts, FileFacts, FunctionFacts, Span, Stmt, WithItem, returned_wrapper, runs_first_param
from ..kinds import StmtKind
from .comments import find_suppressions
from .imports import import_tables, module_exports, module_name, module_table
from .resolution import (
    CONTEXT_MANAGER_DECORATORS,
    METHOD_DECORATOR,
    TABLE_RENAME,
    CallNames,
    ClassScope,
    FunctionScope,
    Resolver,
    ast_alternatives,
    ast_args_level,
    ast_level,
    awaits_first,
    destination,
    detaches_first,
    flag_annotation,
    is_lock,
    keyed_names,
    level_argument,
    on_method,
    passes_keywords,
    rebinds,
    render_ast,
    returns_exceptions,
    runner_slot,
    runs_to_end,
    starts_in_group,
    table_rename,
    wraps_callable,
)
from .source import cpython_verdict, gc_paused

FunctionNode = Union[ast.FunctionDef, ast.AsyncFunctionDef]


def outline(path: str, data: bytes, module: Optional[str] = None, compile_later: bool = False) -> FileFacts:
    """The outline of one file. A file CPython rejects comes back as the front end's
    ``extract`` returns it (``error`` set, ``source.cpython_verdict``), so its OC900
    is the same. The garbage collector is paused, as for ``extract``.
    ``compile_later``: only ``ast.parse``'s verdict is taken here; the caller has the
    compiler's taken elsewhere (``verdicts``)."""
    with gc_paused():
        return _outline(path, data, module, compile_later)


def _outline(path: str, data: bytes, module: Optional[str], compile_later: bool = False) -> FileFacts:
    facts = FileFacts(path=path, module=module if module is not None else module_name(Path(path)), outline=True)
    verdict = cpython_verdict(facts, data, compiles=compile_later, lines=False)  # (an outline never shows code)
    if verdict is None:  # the front end's own verdict and words, lines and all
        facts.outline = False
        return facts
    text, tree = verdict
    Outliner(facts, tree, text).module()  # (a RecursionError: ``frontend.outline`` reads the file whole)
    facts.suppressions = find_suppressions(text, tree)
    return facts


class Outliner(Resolver):
    """One walk of a module's ``ast``, filling an outline."""

    def __init__(self, facts: FileFacts, tree: ast.Module, text: Optional[str] = None) -> None:
        self.facts = facts
        self.tree = tree
        self.scopes = scopesmod.scan(tree, text)
        self.import_tables = import_tables(tree, facts.module, facts.path)
        self.frames: List[FunctionScope] = []
        self.comprehension_names: List[FrozenSet[str]] = []
        self.withs: List[List[Stmt]] = []  # per frame: its `with` skeleton, in preorder
        self.next_call = 0
        self._call_nodes: Dict[int, int] = {}  # a call's id -> its node's (``Call.gathered``)

    def module(self) -> None:
        self.facts.imports, self.facts.star_imports, frame_imports = module_table(self.import_tables.get(0, {}))
        self.facts.exports = module_exports(self.tree)
        self.facts.aliases = scopesmod.module_aliases(self.scopes)
        self.facts.strings = scopesmod.module_strings(self.scopes)
        self.facts.rebinds = tuple(sorted(self.scopes.rebinds))
        frame = FunctionScope("<module>", self.scopes.functions.get(0) or scopesmod.ScopeTable(), 0, frame_imports)
        self._push(frame)
        for node in self.tree.body:
            self.visit(node)
        end = max((getattr(n, "end_lineno", 1) or 1 for n in self.tree.body), default=1)
        self._end(frame, "<module>", None, Span(1, 0, end, 0), ()).handles = _holds_handler(self.tree.body)

    def take(self, outline: FileFacts) -> None:
        """What ``module`` would fill in, from an outline ``module`` made of the same
        bytes (the outline pass's; ``frontend.extract``'s ``outlined``). Its lists are
        copied, never shared: the caller's outline stays as it was."""
        facts = self.facts
        facts.imports = dict(outline.imports)
        facts.star_imports = list(outline.star_imports)
        facts.exports = None if outline.exports is None else list(outline.exports)
        facts.aliases = dict(outline.aliases)
        facts.strings = dict(outline.strings)
        facts.rebinds = outline.rebinds
        facts.functions = list(outline.functions)
        facts.classes = list(outline.classes)
        # calls are numbered in one sequence over the file, from 0 (``_call``)
        self.next_call = 1 + max((c.id for fn in outline.functions for c in fn.calls), default=-1)

    def _push(self, frame: FunctionScope) -> None:
        self.frames.append(frame)
        self.withs.append([])

    def _end(self, frame: FunctionScope, name: str, cls: Optional[str], span: Span, params: tuple) -> FunctionFacts:
        self.frames.pop()
        body = self.withs.pop()
        fn = FunctionFacts(frame.qualname, name, cls, span, params, body, frame.calls, frame.local_functions)
        self.facts.functions.append(fn)
        return fn

    # ---- the walk

    def visit(self, node: ast.AST) -> None:
        """Every call of ``node`` into the innermost frame; definitions open their own.
        The nodes with a handler (``HANDLERS``) are handled; every other node is only
        walked through, in preorder and field order, on a stack of its own (most nodes
        are such: no call per node)."""
        handlers = HANDLERS
        leaves = LEAF_TYPES
        stack = [node]
        while stack:
            n = stack.pop()
            cls = n.__class__
            handler = handlers.get(cls)
            if handler is not None:
                handler(self, n)
            elif cls not in leaves:
                kids = scopesmod.child_nodes(n)
                kids.reverse()
                stack.extend(kids)

    def comprehension(self, node: Union[ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp]) -> None:
        """A comprehension's parts, walked as the generic walk would (field order), its
        ``for`` targets the names of its own scope everywhere but in its first
        iterable, which Python evaluates outside it (``Resolver.comprehension_names``)."""
        first = node.generators[0].iter
        self.comprehension_names.append(frozenset(
            t.id for g in node.generators for t in ast.walk(g.target) if isinstance(t, ast.Name)))
        try:
            for child in scopesmod.child_nodes(node):
                if child is node.generators[0]:
                    for part in scopesmod.child_nodes(child):
                        if part is first:
                            inner = self.comprehension_names.pop()
                            self.visit(part)
                            self.comprehension_names.append(inner)
                        else:
                            self.visit(part)
                else:
                    self.visit(child)
        finally:
            self.comprehension_names.pop()

    def lambda_(self, node: ast.Lambda) -> None:
        # a lambda's body runs elsewhere, if ever (the libcst walk skips it too); its
        # defaults run here
        for default in list(node.args.defaults) + [d for d in node.args.kw_defaults if d is not None]:
            self.visit(default)

    def type_alias(self, node: ast.AST) -> None:
        """``type T = ...`` (Python 3.12): its value is evaluated lazily, when
        ``T.__value__`` is read, so nothing in it is called here (the libcst walk
        skips it too)."""

    def call(self, node: ast.Call, awaited: bool = False) -> Call:
        lead = _positional(node.args, 0)
        first = lead if awaited else None
        through = isinstance(first, ast.Call) and awaits_first(
            self.call_names(render_ast(node.func), node.lineno, node.col_offset), True)
        detaching = (isinstance(lead, ast.Call) and not awaited
                     and (node.lineno, node.col_offset) not in self.scopes.kept_values
                     and detaches_first(self.call_names(render_ast(node.func), node.lineno, node.col_offset)))
        gathering = returns_exceptions(
            self.call_names(render_ast(node.func), node.lineno, node.col_offset),
            {k.arg: _keyword_text(k.value) for k in node.keywords if k.arg is not None})
        made = len(self.frame.calls) if self.frames else 0
        for child in scopesmod.child_nodes(node):
            if through and child is first:  # `await asyncio.wait_for(asyncio.to_thread(f), 5)`
                self.call(cast(ast.Call, first), awaited=True)
            elif detaching and child is lead:  # `asyncio.create_task(self._persist(run))`
                self.call(cast(ast.Call, lead)).detached = True
            else:
                self.visit(child)
        if gathering and self.frames:  # (``expressions``' reading)
            # (by the whole node: a receiver's call starts where the call does)
            wanted = {id(c) for a in node.args for c in _ast_gathered(a)}
            for c in self.frame.calls[made:]:
                if self._call_nodes.get(c.id) in wanted:
                    c.gathered = True
        written, level = render_ast(node.func), ast_level(node)
        through_attr = self.getattr_target(node.func, node.lineno, node.col_offset)
        if through_attr is not None:  # `getattr(self.logger, level)(msg)`
            written, level = through_attr[0], through_attr[1] or level
        names = self.call_names(written, node.lineno, node.col_offset, level,
                                ast_alternatives(node.func),
                                destination(written,
                                            {k.arg: _keyword_text(k.value) for k in node.keywords if k.arg is not None},
                                            _text_or_none(_positional(node.args, 1))))
        lead = _positional(node.args, 0)
        if table_rename(names.callee, [k.arg for k in node.keywords if k.arg is not None],
                        isinstance(lead, (ast.Dict, ast.DictComp)) or (isinstance(lead, ast.Constant) and lead.value is None)):
            names = dataclasses.replace(names, qualnames=names.qualnames + (TABLE_RENAME,))
        outer = names  # (the runner's own, once the handed callable's replace them)
        handed = self.handed_callable(node, names, awaited)
        if handed is not None and isinstance(handed[0], str):
            # `await asyncio.to_thread(store.save, run)` is `store.save(run)`
            names = self.call_names(handed[0], node.lineno, node.col_offset, ast_args_level(handed[1], handed[2]))
        elif handed is not None:  # `await asyncio.to_thread(lambda: store.save(run))`: its body runs here
            self.visit(cast(ast.Lambda, handed[0]).body)
        qualnames = names.qualnames
        if handed is None and "[]" in written:
            # (``expressions.render_callee``; through an alias too: ``keyed_names``)
            keyed = keyed_names(render_ast(node.func, keyed=True), written, names.callee)
            qualnames = qualnames + tuple(k for k in keyed if k not in qualnames)
        call = self._call(names.callee, qualnames, node, names.receiver_type)
        call.exits, call.self_call, call.local_head = names.exits, names.self_call, names.local_head
        if handed is None:
            call.ref = _ast_ref(lead)
            if call.ref is not None:  # (``expressions``: as a call of it there, through an alias too)
                handed_names = self.call_names(call.ref, node.lineno, node.col_offset)
                call.ref_names, call.ref_type = handed_names.qualnames, handed_names.receiver_type
                if handed_names.callee != call.ref and "(" not in handed_names.callee:
                    call.ref = handed_names.callee
            call.lead, call.lead_import = self.lead_of(lead), self.lead_import_of(lead)
        elif isinstance(handed[0], str):  # (``expressions``: the handed callable's first argument)
            first = _positional(handed[1], 0)
            call.lead, call.lead_import = self.lead_of(first), self.lead_import_of(first)
        call.level, call.invokes, call.level_from = names.level, names.invokes, names.level_from
        call.chosen = names.chosen
        call.made_by = names.made_by
        # (``Call.flags``, as ``expressions.cst_flags`` reads them: a handed callable's own)
        call.flags = tuple((k.arg, k.value.value) for k in (node.keywords if handed is None else handed[2])
                           if k.arg is not None and isinstance(k.value, ast.Constant) and type(k.value.value) is bool)
        if handed is None:
            call.level_args = ast_level_args(node)
        call.awaited = awaited if handed is None else starts_in_group(outer) or isinstance(
            node.func, ast.Call) and runs_to_end(self.call_names(render_ast(node.func.func), node.lineno, node.col_offset))
        return call

    def getattr_target(self, func: ast.expr, line: int = 0, col: int = 0) -> Optional[Tuple[str, Optional[str]]]:
        """``Resolver.through_getattr`` of a callee written ``getattr(x, "m")`` or
        ``getattr(x, name)`` (``expressions.Extractor.getattr_target``)."""
        if not (isinstance(func, ast.Call) and isinstance(func.func, ast.Name) and func.func.id == "getattr"
                and 2 <= len(func.args) <= 3 and not func.keywords
                and not any(isinstance(a, ast.Starred) for a in func.args)):
            return None
        target, attr = func.args[0], func.args[1]
        receiver = render_ast(target) if isinstance(target, (ast.Name, ast.Attribute, ast.Call)) else None
        text = attr.value if isinstance(attr, ast.Constant) and isinstance(attr.value, str) else None
        return self.through_getattr(receiver, text, attr.id if isinstance(attr, ast.Name) else None, line, col)

    def expression(self, node: ast.Expr) -> None:
        """An expression statement: a call that is its whole value is dropped
        (``Call.discarded``), as the libcst walk marks it."""
        if isinstance(node.value, ast.Call):
            self.mark_discarded(self.call(node.value))
        else:
            self.visit(node.value)

    def await_(self, node: ast.Await) -> None:
        if isinstance(node.value, ast.Call):
            self.call(node.value, awaited=True)
        else:
            self.visit(node.value)

    def handed_callable(self, node: ast.Call, names: CallNames,
                        awaited: bool) -> Optional[Tuple[Union[str, ast.Lambda], List[ast.expr], List[ast.keyword]]]:
        """``ExpressionWalker.handed_callable`` of an ``ast`` call: the callable's text
        or lambda, and the positional and keyword arguments it gets."""
        slot = runner_slot(names, awaited)
        args, keywords = node.args, node.keywords
        extra: List[ast.expr] = []
        extra_kw: List[ast.keyword] = []
        if slot is None:
            inner = node.func
            if not isinstance(inner, ast.Call) or not wraps_callable(
                    self.call_names(render_ast(inner.func), node.lineno, node.col_offset), awaited):
                return None
            slot, args, keywords, extra, extra_kw = 0, inner.args, inner.keywords, node.args, node.keywords
        handed = _positional(args, slot)
        wrapped = args is not node.args
        rest = [] if wrapped else list(args[slot + 1:])  # (a wrapper's own options are not the callable's)
        rest_kw = [] if wrapped or not passes_keywords(names) else list(keywords)
        if isinstance(handed, ast.Call):
            partial = self.call_names(render_ast(handed.func), node.lineno, node.col_offset)
            if "functools.partial" in (partial.callee,) + partial.qualnames:
                rest, rest_kw = list(handed.args[1:]) + rest, list(handed.keywords) + rest_kw
                handed = _positional(handed.args, 0)
        if isinstance(handed, ast.Lambda):  # run with no argument: its parameters all need defaults
            a = handed.args
            called_bare = (not (a.vararg or a.kwarg) and len(a.defaults) == len(a.posonlyargs) + len(a.args)
                           and all(d is not None for d in a.kw_defaults))
            return (handed, [], []) if called_bare else None
        if not isinstance(handed, (ast.Name, ast.Attribute)):
            return None
        text = render_ast(handed)
        return None if "?" in text else (text, rest + list(extra), rest_kw + list(extra_kw))

    def _call(self, callee: str, qualnames: tuple, node: ast.AST, receiver: Optional[str]) -> Call:
        line = getattr(node, "lineno", 1)
        span = Span(line, getattr(node, "col_offset", 0), getattr(node, "end_lineno", line) or line, 0)
        call = Call(self.next_call, callee, qualnames, span, "", (line, line), receiver_type=receiver)
        self._call_nodes[call.id] = id(node)  # (``Call.gathered``)
        self.next_call += 1
        self.frame.calls.append(call)
        return call

    def with_(self, node: Union[ast.With, ast.AsyncWith]) -> None:
        st = Stmt(StmtKind.WITH, Span(node.lineno, node.col_offset, node.lineno, 0), "", [], True)
        self.withs[-1].append(st)  # preorder: before the `with` statements inside it
        for item in node.items:
            expr = item.context_expr
            while isinstance(expr, ast.Await):  # `async with await s.start_transaction():`
                expr = expr.value
            manager: Optional[Call] = None
            if isinstance(expr, ast.Call):
                manager = self.call(expr)
            else:
                self.visit(expr)
                names = self.instance_manager(render_ast(expr), expr.lineno)
                if names is not None:
                    manager = self._call(names.callee, names.qualnames, expr, names.receiver_type)
                    manager.self_call, manager.bare_enter = names.self_call, names.receiver_type is None
                    manager.local_head = names.local_head
            if manager is not None and isinstance(node, ast.AsyncWith):
                manager.async_with = True
            target = item.optional_vars.id if isinstance(item.optional_vars, ast.Name) else ""
            st.items.append(WithItem([], manager, is_lock(render_ast(expr.func if isinstance(expr, ast.Call) else expr)),
                                     target))
            if item.optional_vars is not None:
                self.visit(item.optional_vars)
        for child in node.body:
            self.visit(child)

    def function(self, node: FunctionNode) -> None:
        for d in node.decorator_list:
            self.visit(d)
        for default in list(node.args.defaults) + [d for d in node.args.kw_defaults if d is not None]:
            self.visit(default)
        name = node.name
        if not self.frame.classes:
            self.frame.local_functions[name] = self.child_qualname(name)
        qual = self.child_qualname(name)
        cls = self.frame.classes[-1].qualname if self.frame.classes else None
        decorators: List[str] = []
        for d in node.decorator_list:  # resolved in the enclosing scope, where they run
            target = d.func if isinstance(d, ast.Call) else d
            written = render_ast(target)
            names = self.call_names(written, target.lineno, target.col_offset)  # (through aliases, as a call)
            decorators.append(written)
            decorators.append(names.callee)
            if not names.chosen:  # (`atomic = transaction.atomic if c else nullcontext`: neither surely)
                decorators.extend(names.qualnames)
            if isinstance(d, ast.Call) and METHOD_DECORATOR in (written, *names.qualnames):
                # Django's `@method_decorator(transaction.atomic)` (``statements``'s reading)
                for wrapped in scopesmod.method_decorator_nodes(d):
                    inner_written = render_ast(wrapped)
                    inner_names = self.call_names(inner_written, wrapped.lineno, wrapped.col_offset)
                    decorators += [inner_written, inner_names.callee, *inner_names.qualnames]
        # (what only marks the view does nothing on a handler: ``on_method``; review 1)
        decorators = on_method(cls, name, decorators) + self.class_method_decorators(name)
        decorators = list(dict.fromkeys(decorators))
        manager = any(n in CONTEXT_MANAGER_DECORATORS for n in decorators)
        a = node.args
        params = tuple(p.arg for p in [*a.posonlyargs, *a.args, *a.kwonlyargs, *([a.vararg] if a.vararg else []),
                                       *([a.kwarg] if a.kwarg else [])])
        frame = FunctionScope(qual, self.scopes.functions.get(node.lineno) or scopesmod.ScopeTable(), node.lineno,
                              self.import_tables.get(node.lineno, {}), context_manager=manager)
        made_before = len(self.facts.functions)  # (the functions its body defines come next)
        self._push(frame)
        for child in node.body:
            self.visit(child)
        col = node.col_offset
        fn = self._end(frame, name, cls, Span(node.lineno, col, node.lineno, col), params)
        fn.decorators = tuple(decorators)
        fn.flag_params = _flag_params(a)
        if fn.flag_params:  # (nor a name a comprehension of its body binds again)
            bound = {t.id for st in node.body for n in ast.walk(st) if isinstance(n, ast.comprehension)
                     for t in ast.walk(n.target) if isinstance(t, ast.Name)}
            fn.flag_params = tuple(n for n in fn.flag_params if n not in bound)
        fn.runs_param = runs_first_param(fn, tuple(p.arg for p in [*a.posonlyargs, *a.args]))
        fn.context_manager = manager
        fn.is_async = isinstance(node, ast.AsyncFunctionDef)
        fn.handles = _holds_handler(node.body)
        fn.rebound = rebinds(self.frame.classes[-1].names if self.frame.classes else self.frame.names, name)
        if node.lineno in self.scopes.superseded:
            for inner in self.facts.functions[made_before:]:
                inner.superseded = True  # it and what its body defines run nowhere (a review)
        fn.returns = self.returned_type(frame)
        fn.typed = self.typed_names(frame)
        fn.handed = _handed_call(node, fn.calls)
        if frame.local_functions:
            returned = [n for r in _own_returns(node) for n in returned_names(r)]
            if returned:
                positional = tuple(p.arg for p in [*a.posonlyargs, *a.args]) + ((a.vararg.arg,) if a.vararg else ())
                fn.wrapper = returned_wrapper(fn, positional, returned, self.function_named)

    def klass(self, node: ast.ClassDef) -> None:
        for d in node.decorator_list:
            self.visit(d)
        bases: List[str] = []
        for b in node.bases:
            self.visit(b)
            # `Base[int]` (a generic base) is `Base` in the MRO
            bases.extend(self.base_names(render_ast(b.value if isinstance(b, ast.Subscript) else b), node.lineno,
                                         node.name))
        for k in node.keywords:  # (the libcst walk does not record these; more is safe)
            self.visit(k.value)
        qual = self.child_qualname(node.name)
        if not self.frame.classes:
            self.frame.local_functions[node.name] = qual
        line = node.lineno
        self.frame.classes.append(ClassScope(qual, self.scopes.classes.get(line) or scopesmod.ScopeTable(), line))
        # (a method a later class-body import rebinds is that import: ``class_aliases``)
        methods = [m for m in class_methods(node.body) if m not in self.frame.classes[-1].names.imported_last]
        for child in node.body:
            self.visit(child)
        attr_types = self.class_attr_types(self.frame.classes[-1].names, line)
        class_types = self.class_attr_types(self.frame.classes[-1].names, line, class_level=True)
        aliases = self.class_aliases(self.frame.classes[-1].names, line, methods)
        truth = bool({"__bool__", "__len__"} & set(self.frame.classes[-1].names.bound))
        containers = self.class_containers(self.frame.classes[-1].names)
        self.frame.classes.pop()
        self.facts.classes.append(ClassFacts(qual, tuple(dict.fromkeys(bases)), tuple(methods), attr_types, aliases,
                                             truth, class_types, containers))


_TRY = (ast.Try, getattr(ast, "TryStar", ast.Try))  # ``try``/``except*`` (3.11+)

#: what is a function of its own: its ``except`` clauses are not the enclosing one's (a
#: class body's are: its statements run in the enclosing function's graph)
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef)


def _holds_handler(body: List[ast.stmt]) -> bool:
    """``FunctionFacts.handles`` of a body read as an ``ast``: an ``except`` clause of
    its own (a class body's it defines included), not of a function it defines."""
    todo: List[ast.AST] = list(body)
    while todo:
        node = todo.pop()
        if isinstance(node, _SCOPES):
            continue
        if isinstance(node, _TRY) and node.handlers:
            return True
        todo.extend(ast.iter_child_nodes(node))
    return False


def class_methods(body: List[ast.stmt], top: bool = True) -> List[str]:
    """The names of the functions a class body defines, also under an ``if``, ``try``
    or ``with`` of the body (``if sys.version_info >= (3, 11): def __exit__(...)``):
    Python binds them in the class as well. A later alias of the body rebinds the name
    (``persist = _noop``): then it is no method."""
    names: List[str] = []
    for st in body:
        if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names.append(st.name)
        elif isinstance(st, (ast.If, ast.With, ast.AsyncWith)):
            names += class_methods(st.body, False) + class_methods(getattr(st, "orelse", []), False)
        elif isinstance(st, _TRY):
            names += class_methods(st.body, False) + class_methods(st.orelse, False) + class_methods(st.finalbody, False)
            for h in st.handlers:
                names += class_methods(h.body, False)
        elif top and isinstance(st, ast.Assign) and isinstance(st.value, (ast.Name, ast.Attribute)):
            rebound = {t.id for t in st.targets if isinstance(t, ast.Name)}
            names = [n for n in names if n not in rebound]
    return names


def _keyword_text(node: ast.expr) -> str:
    """A keyword argument's value as ``destination`` reads it: rendered, and ``True`` as
    written (``click.echo(msg, err=True)``: as libcst's text gives it, a review)."""
    if isinstance(node, ast.Constant) and (node.value is True or node.value is None):
        return repr(node.value)  # (`file=None`: the console, a review)
    return render_ast(node)


def _text_or_none(node: Optional[ast.expr]) -> Optional[str]:
    return render_ast(node) if node is not None else None


def ast_level_args(node: ast.Call) -> Tuple[Tuple[str, str], ...]:
    """``Call.level_args`` of an ``ast`` call (``expressions.cst_level_args``)."""
    out: List[Tuple[str, str]] = []
    keyed = [(str(i), a) for i, a in enumerate(node.args)]
    for i, (key, value) in enumerate(keyed):
        if isinstance(value, ast.Starred):
            keyed = keyed[:i]
            break
    keyed += [(k.arg, k.value) for k in node.keywords if k.arg is not None]
    for key, value in keyed:
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            method = level_argument(value.value, True)
        elif isinstance(value, (ast.Name, ast.Attribute)):
            method = level_argument(render_ast(value), False)
        else:
            method = None
        if method is not None:
            out.append((key, method))
    return tuple(out)


def _ast_gathered(value: ast.expr) -> List[ast.Call]:
    """``expressions._gathered`` of an ``ast`` argument."""
    if isinstance(value, ast.Starred):
        value = value.value
    if isinstance(value, (ast.GeneratorExp, ast.ListComp)):
        value = value.elt
    if isinstance(value, (ast.List, ast.Tuple)):
        return [e for e in value.elts if isinstance(e, ast.Call)]
    return [value] if isinstance(value, ast.Call) else []


def _ast_ref(lead: Optional[ast.expr]) -> Optional[str]:
    """``Call.ref`` of an ``ast`` call whose first positional argument is ``lead``
    (``expressions._cst_ref``)."""
    if isinstance(lead, ast.Lambda):
        body = lead.body
        if not isinstance(body, ast.Call) or not isinstance(body.func, (ast.Name, ast.Attribute)):
            return None
        a = lead.args
        own = {p.arg for p in (*a.posonlyargs, *a.args, *a.kwonlyargs)}
        own |= {p.arg for p in (a.vararg, a.kwarg) if p is not None}
        text = render_ast(body.func)
        if text.split(".", 1)[0] in own:
            return None
    elif isinstance(lead, (ast.Name, ast.Attribute)):
        text = render_ast(lead)
    else:
        return None
    return text if all(p.isidentifier() for p in text.split(".")) else None


def _positional(args: List[ast.expr], index: int) -> Optional[ast.expr]:
    """The ``index``-th positional argument, when no starred one comes before it."""
    for i, arg in enumerate(args):
        if isinstance(arg, ast.Starred):
            return None
        if i == index:
            return arg
    return None


#: the walk's handler per node type (every other node is walked through)
HANDLERS: Dict[type, Callable[[Outliner, Any], Any]] = {
    ast.FunctionDef: Outliner.function,
    ast.AsyncFunctionDef: Outliner.function,
    ast.ClassDef: Outliner.klass,
    ast.Lambda: Outliner.lambda_,
    ast.ListComp: Outliner.comprehension,
    ast.SetComp: Outliner.comprehension,
    ast.GeneratorExp: Outliner.comprehension,
    ast.DictComp: Outliner.comprehension,
    ast.Call: Outliner.call,
    ast.Await: Outliner.await_,
    ast.Expr: Outliner.expression,
    ast.With: Outliner.with_,
    ast.AsyncWith: Outliner.with_,
}
_TYPE_ALIAS = getattr(ast, "TypeAlias", None)  # Python 3.12 and later
if _TYPE_ALIAS is not None:
    HANDLERS[_TYPE_ALIAS] = Outliner.type_alias
#: node types that hold nothing the walk asks about (``scopes.LEAVES`` and their subclasses)
LEAF_TYPES = frozenset(
    t for t in vars(ast).values() if isinstance(t, type) and issubclass(t, scopesmod.LEAVES)
)

__all__ = ["outline", "Outliner"]


def _handed_call(node: FunctionNode, calls: List[Call]) -> Optional[Call]:
    """``FunctionFacts.handed`` as the libcst walk gives it (``statements.handed_call``):
    a body that is one ``return`` of one call, a docstring aside."""
    body = list(node.body)
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, (str, bytes)):
        body = body[1:]
    if len(body) != 1 or not isinstance(body[0], ast.Return) or not isinstance(body[0].value, ast.Call):
        return None
    value = body[0].value
    if _calls_outside_lambdas(value) != 1:  # (a lambda's body does not run there)
        return None
    own = [c for c in calls if c.span.line == value.lineno]
    return own[0] if len(own) == 1 else None


def _own_returns(node: FunctionNode) -> List[ast.expr]:
    """The values of a function's own ``return`` statements (not a nested function's
    or class's)."""
    out: List[ast.expr] = []
    stack: List[ast.AST] = list(node.body)
    while stack:
        n = stack.pop()
        if isinstance(n, ast.Return):
            if n.value is not None:
                out.append(n.value)
        elif not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            stack.extend(ast.iter_child_nodes(n))
    return out


def returned_names(value: ast.expr) -> List[str]:
    """``statements.returned_names`` of an ``ast`` value."""
    if isinstance(value, ast.Name):
        return [value.id]
    if not isinstance(value, ast.Call):
        return []
    out = returned_names(value.func) if isinstance(value.func, ast.Call) else []
    for arg in value.args:
        if isinstance(arg, ast.Name):
            out.append(arg.id)
        elif isinstance(arg, ast.Call):
            out.extend(returned_names(arg))
    return out


def _calls_outside_lambdas(node: ast.AST) -> int:
    """The calls an expression makes where it stands (not in a lambda's body)."""
    count, stack = 0, [node]
    while stack:
        n = stack.pop()
        if isinstance(n, ast.Lambda):
            stack.extend(d for d in (*n.args.defaults, *n.args.kw_defaults) if d is not None)
            continue
        count += isinstance(n, ast.Call)
        stack.extend(ast.iter_child_nodes(n))
    return count


def _flag_params(a: ast.arguments) -> Tuple[str, ...]:
    """``FunctionFacts.flag_params``, as ``statements._flag_param`` reads them."""
    positional = [*a.posonlyargs, *a.args]
    defaults: List[Optional[ast.expr]] = [None] * (len(positional) - len(a.defaults)) + list(a.defaults)
    # (a keyword argument binds neither a positional-only parameter nor `*args`/`**kw`)
    pairs = list(zip(positional, defaults))[len(a.posonlyargs):] + list(zip(a.kwonlyargs, a.kw_defaults))
    out = []
    for arg, default in pairs:
        if isinstance(default, ast.Constant) and type(default.value) is bool:
            out.append(arg.arg)
        elif arg.annotation is not None and flag_annotation(ast.unparse(arg.annotation)):
            out.append(arg.arg)
    return tuple(out)
