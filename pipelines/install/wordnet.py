"""Build the WordNet folder NLTK reads from Debian's wordnet-base package (`make install` runs this).

Debian installs the WordNet 3.0 database in /usr/share/wordnet. NLTK 3.10 reads a corpus only
from inside its data folders (nltk.data.path, which includes <venv>/nltk_data) and resolves
symbolic links before it checks, so a link to /usr/share/wordnet is refused: the files are copied.
NLTK also needs a `lexnames` file, which Debian does not ship; it is written from the table of the
package's own lexnames(5WN) man page (see `lexnames_lines`). Running this again changes nothing.

    python -m pipelines.install.wordnet --source /usr/share/wordnet --target .venv/nltk_data/corpora/wordnet
"""
import argparse
import filecmp
import gzip
import re
import shutil
import sys
from pathlib import Path

DEBIAN_WORDNET = Path("/usr/share/wordnet")
DEBIAN_LEXNAMES_MAN_PAGE = Path("/usr/share/man/man5/lexnames.5WN.gz")
# lexnames(5WN): the third field of a lexnames line is the file's syntactic category.
CATEGORY_OF_PREFIX = {"noun": 1, "verb": 2, "adj": 3, "adv": 4}
DATA_FILE_PREFIX = {"data.noun": "noun", "data.verb": "verb", "data.adj": "adj", "data.adv": "adv"}
# A row of the man page's table: the two-digit file number, a tab, the file name ("noun.animal").
_TABLE_ROW = re.compile(r"^(\d\d)\t\s*([a-z]+\.[A-Za-z]+)\s*\t")


class WordNetInstallError(RuntimeError):
    """The Debian files this script builds from are missing or not what it expects."""


def default_target() -> Path:
    """Where NLTK looks first in this virtual environment (and where transforms.evaluation.lexicon reads)."""
    return Path(sys.prefix) / "nltk_data" / "corpora" / "wordnet"


def copy_database(source: Path, target: Path) -> None:
    """Copy every file of Debian's WordNet folder; a file already the same (size and time) stays.

    Sub-folders (bin/, pixmaps/, wnres/) belong to the `wordnet` browser packages, not to the database.
    """
    files = sorted(path for path in source.iterdir() if path.is_file())
    if not any(path.name == "data.noun" for path in files):
        raise WordNetInstallError(f"no WordNet database in {source} (Debian: apt-get install wordnet-base)")
    target.mkdir(parents=True, exist_ok=True)
    for path in files:
        copy = target / path.name
        if not (copy.is_file() and filecmp.cmp(path, copy, shallow=True)):
            shutil.copy2(path, copy)  # copy2 keeps the time, so that the next run sees the copy as the same


def lexnames_lines(man_page: Path) -> list:
    """The lines of NLTK's `lexnames`: number, lexicographer file name and category, tab-separated.

    The lexnames(5WN) man page describes that file and lists its 45 rows (00 adj.all ... 44 adj.ppl)
    as a table; the category is not in the table, but the page says it is the name's prefix.
    """
    if not man_page.is_file():
        raise WordNetInstallError(
            f"{man_page} not found: the lexnames table comes from wordnet-base's man page (a Docker image "
            "may drop man pages: see path-exclude in /etc/dpkg/dpkg.cfg.d/)")
    with gzip.open(man_page, "rt", encoding="utf-8") as handle:
        rows = [_TABLE_ROW.match(line) for line in handle]
    names = {int(row.group(1)): row.group(2) for row in rows if row}
    if sorted(names) != list(range(45)):
        raise WordNetInstallError(f"{man_page}: expected lexicographer files 00 to 44, found {sorted(names)}")
    return [f"{number:02d}\t{names[number]}\t{CATEGORY_OF_PREFIX[names[number].split('.')[0]]}"
            for number in sorted(names)]


def check_against_data_files(lines: list, database: Path) -> None:
    """Every synset's lex_filenum (its second field) must name a file of its own part of speech.

    This is what ties the man page's table to the data NLTK reads: a wrong or shifted table fails here.
    """
    prefix_of_number = {int(line.split("\t")[0]): line.split("\t")[1].split(".")[0] for line in lines}
    for data_file, prefix in DATA_FILE_PREFIX.items():
        with open(database / data_file, encoding="utf-8") as handle:
            used = {int(line.split(" ", 2)[1]) for line in handle if not line.startswith("  ")}
        wrong = sorted(number for number in used if prefix_of_number.get(number) != prefix)
        if wrong:
            raise WordNetInstallError(f"{data_file} uses lexicographer files {wrong} that are not {prefix}.* files")


def install_wordnet(source: Path, man_page: Path, target: Path) -> None:
    copy_database(source, target)
    lines = lexnames_lines(man_page)
    check_against_data_files(lines, target)
    text = "".join(line + "\n" for line in lines)
    lexnames = target / "lexnames"
    # Written last and only when it differs: its presence means a complete folder (the Makefile's target).
    if not (lexnames.is_file() and lexnames.read_text(encoding="utf-8") == text):
        lexnames.write_text(text, encoding="utf-8")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, default=DEBIAN_WORDNET, help="Debian's WordNet database folder")
    parser.add_argument("--man-page", type=Path, default=DEBIAN_LEXNAMES_MAN_PAGE, help="the lexnames(5WN) man page")
    parser.add_argument("--target", type=Path, default=default_target(), help="the folder NLTK reads")
    args = parser.parse_args(argv)
    try:
        install_wordnet(args.source, args.man_page, args.target)
    except WordNetInstallError as error:
        print(f"install_wordnet: {error}", file=sys.stderr)
        return 2
    print(f"WordNet ready in {args.target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
