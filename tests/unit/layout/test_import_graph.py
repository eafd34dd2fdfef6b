"""The runtime (what setup.py ships to workers) imports no research code, and no module imports itself back."""
import ast
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
RUNTIME = ("pipelines", "transforms", "schemas", "dictionaries")
RESEARCH = ("training", "devsets", "benchmarks", "tests")


def module_name(path: Path) -> str:
    parts = path.relative_to(REPO).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(path: Path, known: set) -> set:
    """Every project module `path` imports, at its top or inside a function."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        else:
            continue
        found.update(name for name in names if name in known or name.split(".")[0] in RESEARCH)
    return found


def runtime_graph() -> dict:
    paths = [path for package in RUNTIME for path in (REPO / package).rglob("*.py")]
    known = {module_name(path) for path in paths}
    return {module_name(path): imported_modules(path, known) for path in paths}


def test_the_runtime_imports_no_research_code():
    offending = {module: sorted(name for name in imports if name.split(".")[0] in RESEARCH)
                 for module, imports in runtime_graph().items()}
    assert {module: names for module, names in offending.items() if names} == {}


def test_the_steps_import_nothing_from_the_entry_points():
    upward = {module: sorted(name for name in imports if name.startswith("pipelines"))
              for module, imports in runtime_graph().items() if not module.startswith("pipelines")}
    assert {module: names for module, names in upward.items() if names} == {}


def find_cycle(graph: dict):
    """One import cycle of `graph` as a list of modules, or None."""
    state = {}

    def visit(module, path):
        state[module] = "open"
        for name in sorted(graph.get(module, ())):
            if state.get(name) == "open":
                return path[path.index(name):] + [name]
            if name not in state:
                cycle = visit(name, path + [name])
                if cycle:
                    return cycle
        state[module] = "done"
        return None

    for module in sorted(graph):
        if module not in state:
            cycle = visit(module, [module])
            if cycle:
                return cycle
    return None


def test_the_runtime_has_no_import_cycle():
    assert find_cycle(runtime_graph()) is None


def test_the_cycle_finder_finds_a_cycle():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None
