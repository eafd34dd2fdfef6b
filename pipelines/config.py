"""Typed configuration: a profile YAML file parsed into frozen dataclasses.

Two profiles ship in `pipelines/profiles/`: `paper` reproduces the published
cleaning, `default` is what capclean recommends. Every field can be overridden
from the command line; nothing here reads global state.

A profile has a section for the input, the validation and the output, and one
for every step that has settings, named after the step; the step's module
defines that section's dataclass (`Settings`), and pipelines/cleaning/steps.py's STEPS
says which steps there are. Every section checks its values when it is built.
"""
import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

import yaml

from pipelines.cleaning.steps import STEPS
from transforms.errors import ConfigError
from transforms.annotation_stream import SizeLimits
from transforms.read import CaptionLimits

PROFILE_DIR = Path(__file__).resolve().parent / "profiles"
# The steps --steps and a profile's `steps` may name, in the order they run (the others always run).
ALL_STEPS = tuple(step.name for step in STEPS if step.optional)


@dataclass(frozen=True)
class InputConfig:
    # A longer caption is not given to the steps: it goes to removed/ (step read) with
    # the reason. It is pasted text rather than a caption, and it would cost the
    # spelling and near-duplicate steps time out of all proportion. MSR-VTT's longest
    # caption has 72 words and 367 characters.
    max_caption_words: int = 500
    max_caption_characters: int = 5000
    # An annotation file (a zip's member unpacked) larger than this many MiB is refused, before
    # it is read when its size is declared; so is a file with a record larger than this many KiB.
    max_file_megabytes: int = SizeLimits.max_file_megabytes
    max_record_kilobytes: int = SizeLimits.max_record_kilobytes

    def __post_init__(self):
        for setting in dataclasses.fields(self):
            if getattr(self, setting.name) < 1:
                raise ConfigError(f"input.{setting.name} must be >= 1, not {getattr(self, setting.name)}")

    @property
    def caption_limits(self) -> CaptionLimits:
        return CaptionLimits(self.max_caption_words, self.max_caption_characters)

    @property
    def size_limits(self) -> SizeLimits:
        return SizeLimits(self.max_file_megabytes, self.max_record_kilobytes)


@dataclass(frozen=True)
class ValidationConfig:
    allowed_characters: str = "abcdefghijklmnopqrstuvwxyz0123456789 $%&"
    splits: tuple = ("train", "validate", "test")
    # Inclusive video-number ranges per split (MSR-VTT v1); empty: not checked.
    split_video_ranges: dict = field(default_factory=dict)


@dataclass(frozen=True)
class OutputConfig:
    # Rows per Parquet file: files cover consecutive sen_id ranges of this size,
    # so the files of a table read in name order are sorted by sen_id.
    sen_ids_per_file: int = 50_000

    def __post_init__(self):
        if self.sen_ids_per_file < 1:
            raise ConfigError("output.sen_ids_per_file must be >= 1")


# Every section of a profile, in the order a profile lists them, with its dataclass.
SECTIONS = {
    "input": InputConfig,
    **{step.name: step.Settings for step in STEPS if step.Settings is not None},
    "validation": ValidationConfig,
    "output": OutputConfig,
}


def check_steps(config) -> None:
    unknown = [step for step in config.steps if step not in ALL_STEPS]
    if unknown or not config.steps:
        raise ConfigError(f"steps must be a non-empty subset of {','.join(ALL_STEPS)}; got {','.join(config.steps)}")


# The whole configuration of a run: `profile`, `steps` (the optional steps to run), and one
# attribute per section of SECTIONS (config.input, config.spelling, config.dedup, ...).
CleaningConfig = dataclasses.make_dataclass(
    "CleaningConfig",
    [("profile", str, field(default="default")), ("steps", tuple, field(default=ALL_STEPS))]
    + [(name, section, field(default_factory=section)) for name, section in SECTIONS.items()],
    frozen=True,
    namespace={"__post_init__": check_steps, "__module__": __name__},
)


def load_config(profile: str = "default", config_file: Optional[str] = None) -> CleaningConfig:
    """The named profile, with the values of `config_file` (same YAML layout) laid over it."""
    profile_path = PROFILE_DIR / f"{profile}.yaml"
    if not profile_path.is_file():
        names = sorted(p.stem for p in PROFILE_DIR.glob("*.yaml"))
        raise ConfigError(f"unknown profile {profile!r}; profiles: {', '.join(names)}")
    values = _read_yaml(profile_path)
    if config_file:
        values = _merge(values, _read_yaml(Path(config_file)))
    return config_from_dict(values)


def config_from_dict(values: dict) -> CleaningConfig:
    values = dict(values)
    sections = {}
    for name, section_type in SECTIONS.items():
        sections[name] = _build_section(name, section_type, values.pop(name, {}) or {})
    steps = _typed("steps", values.pop("steps", ALL_STEPS), tuple)
    profile = _typed("profile", values.pop("profile", "custom"), str)
    if values:
        raise ConfigError(f"unknown configuration keys: {', '.join(sorted(values))}")
    return CleaningConfig(profile=profile, steps=tuple(steps), **sections)


def override(config: CleaningConfig, section: str, **changes) -> CleaningConfig:
    """A copy of `config` with some fields of one section replaced (None leaves a field as it is)."""
    changes = {key: value for key, value in changes.items() if value is not None}
    if not changes:
        return config
    if section == "":
        return dataclasses.replace(config, **changes)
    new_section = dataclasses.replace(getattr(config, section), **changes)
    return dataclasses.replace(config, **{section: new_section})


def _build_section(name, section_type, values):
    if not isinstance(values, dict):
        raise ConfigError(f"section {name!r} must be a mapping of settings, not {_shown(values)}")
    known = {f.name: f for f in dataclasses.fields(section_type)}
    unknown = sorted(set(values) - set(known))
    if unknown:
        raise ConfigError(f"unknown keys in section {name!r}: {', '.join(unknown)}")
    return section_type(**{key: _typed(f"{name}.{key}", value, known[key].type) for key, value in values.items()})


def _typed(setting: str, value, expected):
    """`value` as the field's type wants it, or a ConfigError naming the setting and what it needs."""
    if hasattr(expected, "from_config"):  # a setting with a type of its own reads itself (runon.policy)
        return expected.from_config(setting, value)
    if expected is bool and isinstance(value, bool):
        return value
    if expected is int and isinstance(value, int) and not isinstance(value, bool):
        return value
    if expected is float and isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    if expected is str and isinstance(value, str):
        return value
    if expected is tuple and isinstance(value, (list, tuple)) and all(isinstance(item, str) for item in value):
        return tuple(value)
    if expected is dict:
        return _video_ranges(setting, value)
    wanted = {bool: "true or false", int: "a whole number", float: "a number", str: "a string",
              tuple: "a list of strings"}.get(expected, str(expected))
    raise ConfigError(f"{setting} must be {wanted}, not {_shown(value)}")


def _video_ranges(setting: str, value) -> dict:
    """`split: [first, last]` video numbers per split; null or {} for none."""
    if value is None:
        return {}
    if isinstance(value, dict) and all(isinstance(bounds, (list, tuple)) and len(bounds) == 2
                                       and all(isinstance(n, int) and not isinstance(n, bool) for n in bounds)
                                       for bounds in value.values()):
        return {split: tuple(bounds) for split, bounds in value.items()}
    raise ConfigError(f"{setting} must map each split to [first, last] video numbers (or be null), "
                      f"not {_shown(value)}")


def _shown(value) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _read_yaml(path: Path) -> dict:
    try:
        with open(path, encoding="utf-8") as handle:
            values = yaml.safe_load(handle) or {}
    except OSError as error:
        raise ConfigError(f"cannot read configuration file {path}: {error.strerror}") from None
    except yaml.YAMLError as error:
        raise ConfigError(f"configuration file {path} is not valid YAML: {error}") from None
    if not isinstance(values, dict):
        raise ConfigError(f"configuration file {path} must hold a mapping of sections")
    return values


def _merge(base: dict, extra: dict) -> dict:
    merged = dict(base)
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _merge(merged[key], value)
        else:
            merged[key] = value
    return merged
