"""Hard rule 1: game knowledge lives only in ``specs/``.

No module under ``midgardc/`` may name a game: every spec's ``game.name`` and the words of
its ``title`` are looked for, as whole words, in the package's code, templates and page
assets. A rule the language cannot say grows a generic primitive instead. Named
codebases the code learns from (python-chess's SVG module) are allowed by their full
name only.
"""

from __future__ import annotations

import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "midgardc"
SUFFIXES = {".py", ".pyx", ".pxi", ".pxd", ".j2", ".js", ".css", ".html", ".lark"}
# Words of titles that are ordinary English or a generic notion of the language (a hex
# board is a topology), not the name of a game.
COMMON = {"the", "of", "and", "a", "laws", "fide", "english", "mere", "mortal", "nine",
          "men", "s", "four", "dice", "poker", "micro", "magic", "connect", "go", "hold",
          "hex", "suicide"}
# Where a game's name is part of the name of a codebase that is cited.
CITED = [re.compile(r"python-chess('s)?\b", re.IGNORECASE), re.compile(r"chess/svg\.py")]


def _game_words() -> set[str]:
    words: set[str] = set()
    for path in sorted((ROOT / "specs").rglob("*.yaml")):
        game = (yaml.safe_load(path.read_text()) or {}).get("game") or {}
        for text in (game.get("name"), game.get("title")):
            if not isinstance(text, str):
                continue
            words.add(text.lower())
            words.update(w for w in re.split(r"[^a-z]+", text.lower()) if w)
    return {w for w in words if w not in COMMON and len(w) > 2}


def test_the_game_words_are_found() -> None:
    """The list is not empty by accident: the seed games and the classics are in it."""
    words = _game_words()
    assert {"midgard", "chess", "draughts", "meridian"} <= words


def test_no_module_names_a_game() -> None:
    words = _game_words()
    pattern = re.compile(r"(?<![\w-])(" + "|".join(sorted(map(re.escape, words), key=len, reverse=True))
                         + r")(?![\w-])", re.IGNORECASE)
    found = []
    for path in sorted(PACKAGE.rglob("*")):
        if path.suffix not in SUFFIXES or not path.is_file():
            continue
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            for cited in CITED:
                line = cited.sub("", line)
            for match in pattern.finditer(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {match.group(0)!r}: {line.strip()[:90]}")
    assert not found, "a module under midgardc/ names a game:\n" + "\n".join(found)
