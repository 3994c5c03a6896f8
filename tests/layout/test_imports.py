"""The layering docs/architecture.md draws holds in the code: every import goes down a layer or stays in its package,
and a tool borrows nothing from a sibling tool."""

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "narnat_agent"
LAYERS = [
    "__main__", "cli", ("run", "acp"), "commands", "ui", "core", "conversation", "provider", "prompts", "checkpoints",
    "tools", "safety", "config",
]  # fmt: skip  # a tuple: packages side by side on one layer (an editor's run is another kind of run)
BASE = len(
    LAYERS
)  # atomic, encodable, i18n, inert, keyguard, logger, state, processes, platform and the package itself
# what every tool may use; the registry alone names the tools
SHARED_BY_TOOLS = {"base", "tool", "workspace", "files", "verification"}
CARRIED = (["workspace"], "web")  # the workspace carries the one HTTP session both web tools share


def _module(path: Path) -> list[str]:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return parts[:-1] if parts[-1] == "__init__" else parts


def _imports(path: Path) -> list[list[str]]:
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("narnat_agent"):
            found += [node.module.split(".") + [alias.name] for alias in node.names]
        elif isinstance(node, ast.Import):
            found += [alias.name.split(".") for alias in node.names if alias.name.startswith("narnat_agent")]
    return found


def _layer(module: list[str]) -> int:
    side_by_side = [layer if isinstance(layer, tuple) else (layer,) for layer in LAYERS]
    return next((i for i, names in enumerate(side_by_side) if len(module) > 1 and module[1] in names), BASE)


def _sibling_tool(importer: list[str], imported: list[str]) -> bool:
    if importer[:2] != ["narnat_agent", "tools"] or imported[:2] != ["narnat_agent", "tools"] or len(imported) < 3:
        return False
    own, other = importer[2:3], imported[2]
    return own != ["registry"] and [other] != own and other not in SHARED_BY_TOOLS and (own, other) != CARRIED


MODULES = sorted(PACKAGE.rglob("*.py"))


@pytest.mark.parametrize("path", MODULES, ids=[str(p.relative_to(PACKAGE)) for p in MODULES])
def test_imports_go_down_the_layers_and_never_to_a_sibling_tool(path):
    importer = _module(path)
    wrong = [
        ".".join(imported[:3])
        for imported in _imports(path)
        if _layer(imported) < _layer(importer) or _sibling_tool(importer, imported)
    ]
    assert not wrong, f"{'.'.join(importer)} imports upward or from a sibling tool: {', '.join(wrong)}"


PLATFORM = sorted((PACKAGE / "platform").glob("*.py"))


@pytest.mark.parametrize("path", PLATFORM, ids=[p.name for p in PLATFORM])
def test_the_platform_seams_are_below_everything_else(path):
    """platform/ is what every layer, the base modules included, may stand on: it imports only itself."""
    wrong = [".".join(m) for m in _imports(path) if m[:2] != ["narnat_agent", "platform"]]
    assert not wrong, f"platform/{path.name} imports {', '.join(wrong)}"


def _graph() -> dict[str, set[str]]:
    """Each module and the package modules it imports (type-only imports included: a circle is one either way)."""
    names = {".".join(_module(path)) for path in MODULES}

    def known(name: str) -> str:
        while name not in names:
            name = name.rpartition(".")[0]
        return name

    return {
        ".".join(_module(path)): {known(".".join(imported)) for imported in _imports(path)} - {".".join(_module(path))}
        for path in MODULES
    }


def test_no_module_imports_itself_through_others():
    graph, done, path = _graph(), set(), []

    def visit(module: str) -> list[str]:
        if module in path:
            return path[path.index(module) :] + [module]
        if module in done:
            return []
        path.append(module)
        circle = next((found for imported in sorted(graph[module]) if (found := visit(imported))), [])
        path.pop()
        done.add(module)
        return circle

    circle = next((found for module in sorted(graph) if (found := visit(module))), [])
    assert not circle, "an import circle: " + " -> ".join(circle)
