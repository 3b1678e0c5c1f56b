"""The imports run one way: exchange -> standings -> battles -> campaign -> armies -> accounts -> core, and no circle.

Read from the source with ``ast`` (every import, also those inside functions,
except ``if TYPE_CHECKING:`` blocks), so a lazy import cannot hide a circle.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
APPS = ("core", "accounts", "armies", "rules", "campaign", "battles", "standings", "exchange")

# What each app may import from the project. ``config`` is the composition root
# (settings, the Celery app); only core reaches it, for the Celery app.
ALLOWED: dict[str, set[str]] = {
    "core": {"config"},
    "accounts": {"core"},
    "armies": {"core", "accounts"},
    "rules": {"core", "accounts", "armies"},
    # The campaign stores a rule set and checks it with the pure engine; it needs no more of rules.
    "campaign": {"core", "accounts", "armies", "rules.engine"},
    "battles": {"core", "accounts", "armies", "rules", "campaign"},
    # The standings read the campaign's results (and the battles' reports, through the database only).
    "standings": {"core", "accounts", "armies", "campaign", "battles"},
    # Export and import read and write every part of a campaign; nothing imports them.
    "exchange": {"core", "accounts", "armies", "campaign", "battles", "standings"},
}

# Pure engines: plain Python, importing nothing of Django and, of the project,
# only these plain modules.
PURE = {
    "rules.engine": {"core.errors"},
    "rules.matchup": {"core.errors", "rules.engine"},
    "armies.validation": {"core.errors", "core.names", "armies.blocs"},
    "armies.textlists": {"core.errors", "armies.blocs", "armies.validation", "armies.textnames"},
    "armies.textnames": {"core.errors", "armies.blocs", "armies.validation"},
    "campaign.engine": {"core.errors", "core.numbers", "armies.blocs"},
    "battles.judging": {"core.errors", "rules.engine"},
    "standings.engine": set(),
}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _sources() -> dict[str, Path]:
    found = {}
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" not in path.parts:
                found[_module_name(path)] = path
    return found


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(path: Path, module: str, known: set[str]) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            for alias in node.names:
                candidate = f"{base}.{alias.name}"
                found.add(candidate if candidate in known else base)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return {name for name in found if name.split(".")[0] in {*APPS, "config"}}


def _graph() -> dict[str, set[str]]:
    sources = _sources()
    known = set(sources)
    return {module: _imports(path, module, known) for module, path in sources.items()}


def _allowed(app: str, target: str) -> bool:
    return any(target == allowed or target.startswith(f"{allowed}.") for allowed in ALLOWED[app])


def test_it_imports_only_down_the_layers():
    wrong = sorted(
        f"{module} imports {target}"
        for module, targets in _graph().items()
        for target in targets
        if (app := module.split(".")[0]) != target.split(".")[0] and not _allowed(app, target)
    )
    assert wrong == []


def test_it_keeps_the_pure_engines_apart_from_the_project():
    wrong = sorted(
        f"{module} imports {target}"
        for module, targets in _graph().items()
        for prefix, allowed in PURE.items()
        if module == prefix or module.startswith(f"{prefix}.")
        for target in targets
        if not (target == prefix or target.startswith(f"{prefix}."))
        and not any(target == ok or target.startswith(f"{ok}.") for ok in allowed)
    )
    assert wrong == []


def test_it_has_no_import_circle():
    graph = _graph()
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []

    def connect(node: str) -> None:  # Tarjan's strongly connected components
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph.get(node, ()):
            if target not in graph:
                continue
            if target not in index:
                connect(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for module in sorted(graph):
        if module not in index:
            connect(module)
    assert circles == []


@pytest.mark.parametrize("package", sorted(PURE))
def test_it_runs_the_pure_engines_without_django(package):
    code = f"import sys, {package}; print(sorted(m for m in sys.modules if m.split('.')[0] == 'django'))"
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True, timeout=60
    )
    assert result.stdout.strip() == "[]"
