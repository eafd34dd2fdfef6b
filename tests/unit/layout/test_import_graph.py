"""The import rules of the layout: the runtime (what setup.py ships to workers) imports no research code;
transforms/ is pure (neither Beam nor pipelines/); an evaluation command's package imports another's only
through an edge declared here; nothing imports itself back; and every name the research code imports from
the runtime exists."""
import ast
import importlib
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
RUNTIME = ("pipelines", "transforms", "schemas", "dictionaries")
RESEARCH = ("training", "devsets", "benchmarks", "tests")


def module_name(path: Path) -> str:
    parts = path.relative_to(REPO).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> list:
    """(line, module, name or None) of every absolute import in `path`, at its top or inside a function:
    `import a.b` is (line, "a.b", None), `from a import b, c` is (line, "a", "b") and (line, "a", "c")."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name, None) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found += [(node.lineno, node.module, alias.name) for alias in node.names]
    return found


def imported_modules(path: Path, known: set) -> set:
    """Every project module `path` imports (`from a import b`: a, and a.b when b is a module)."""
    names = {module for _, module, _ in imports(path)} | {f"{module}.{name}" for _, module, name in imports(path) if name}
    return {name for name in names if name in known or name.split(".")[0] in RESEARCH}


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


def test_transforms_import_neither_beam_nor_pipelines():
    """The steps and the methods stay pure functions: Beam and the entry points wrap them, never the reverse."""
    offending = {str(path.relative_to(REPO)): sorted({module for _, module, _ in imports(path)
                                                       if module.split(".")[0] in ("apache_beam", "pipelines")})
                 for path in (REPO / "transforms").rglob("*.py")}
    assert {path: modules for path, modules in offending.items() if modules} == {}


# (importer, imported) evaluation packages allowed to import one another: posrank's page is hardneg's page with
# a PoSRank section (pipelines/evaluation/posrank/command.py); fire reads a protocol's score matrix as evaluate
# reads it (evaluate/scores.py); evaluate's PoSRank reads the negatives and their scores as posrank does
# (evaluate/posrank_figures.py), its nDCG section is ndcg's table (evaluate/ndcg_figures.py); baseline scores
# the negatives' texts in the order evaluate writes them (evaluate/posrank_figures.py); ndcg --protocol reads a
# matrix and its relevance as evaluate does (ndcg/protocol.py). The protocols every one of them reads are
# pipelines/evaluation/protocol_files.py, outside the packages.
EVALUATION_EDGES = {("posrank", "hardneg"), ("fire", "evaluate"), ("evaluate", "posrank"), ("evaluate", "ndcg"),
                    ("baseline", "evaluate"), ("ndcg", "evaluate")}


def evaluation_package(module: str) -> str | None:
    """`pipelines.evaluation.NAME.x` -> NAME when NAME is a package (a command's); None otherwise."""
    parts = module.split(".")
    if parts[:2] == ["pipelines", "evaluation"] and len(parts) > 2:
        return parts[2] if (REPO / "pipelines" / "evaluation" / parts[2] / "__init__.py").is_file() else None
    return None


def test_evaluation_packages_import_one_another_only_through_declared_edges():
    edges = {(evaluation_package(module), evaluation_package(name))
             for module, names in runtime_graph().items() for name in names}
    between_packages = {(a, b) for a, b in edges if a and b and a != b}
    assert between_packages == EVALUATION_EDGES


def resolves(module: str, name: str | None) -> bool:
    """`import module` works, and `from module import name` finds a name or a submodule."""
    try:
        imported = importlib.import_module(module)
        if name is None or hasattr(imported, name):
            return True
        importlib.import_module(f"{module}.{name}")
        return True
    except ImportError:
        return False


def test_every_runtime_name_the_research_code_imports_exists():
    """The layout moves modules about; a benchmark or a training script that imports an old path must fail
    here, not months later when someone runs it."""
    unresolved = [f"{path.relative_to(REPO)}:{line}: {module}" + (f" import {name}" if name else "")
                  for package in ("benchmarks", "training", "devsets") for path in sorted((REPO / package).rglob("*.py"))
                  for line, module, name in imports(path)
                  if module.split(".")[0] in ("pipelines", "transforms", "schemas") and not resolves(module, name)]
    assert unresolved == []
