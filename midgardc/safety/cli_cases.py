"""Command-line cases for the fuzzer: argument lists of the real commands (with records
forged from good ones) run through click in-process; they must exit 0 or 1, never with a
traceback. See ``fuzz.py``."""

from __future__ import annotations

import contextlib
import copy
import json
import os
import traceback
from dataclasses import dataclass, field
from typing import Any, Optional, Sequence

from ..errors import MidgardcError
from .outcomes import CASE_TIMEOUT, PLAY_TIMEOUT, Failure, Stats, _Timeout, time_limit
from .spec_cases import Chooser, Seed


# --------------------------------------------------------------------------- command lines

COMMANDS = {
    "validate": ["--variant", "--player-count"],
    "moves": ["--position", "--moves", "--variant", "--engine", "--player-count"],
    "replay": ["--position", "--moves", "--variant", "--seed", "--engine", "--json", "--record", "--game", "--player-count"],
    "perft": ["--position", "--depth", "--variant", "--engine", "--player-count"],
    "show": ["--position", "--moves", "--variant", "--engine", "--color", "--player-count", "--svg"],
    "match": ["--position", "--players", "--games", "--seed", "--variant", "--engine", "--json", "--workers", "--record", "--progress"],
    "tournament": ["--players", "--variant", "--games", "--seed", "--engine", "--workers", "--cluster", "--record", "--json", "--csv", "--progress", "--no-progress", "--player-count"],
    "report": ["--html", "--spec", "--max-replays", "--engine"],
}
MCTS_PLAYERS = [
    "random,mcts:iterations=2,c=0.5,rollouts=1", "mcts:1,random", "random,mcts:2,c=100", "random,mcts:iterations=1,c=0",
    "random,mcts:iterations=0", "random,mcts:iterations=99999999999", "random,mcts:c=nan", "random,mcts:c=inf", "random,mcts:c=-1",
    "random,mcts:c=1e308", "random,mcts:rollouts=0", "random,mcts:rollouts=99999999", "random,mcts:x=1", "random,mcts:iterations=1,iterations=2",
    "random,mcts:", "random,mcts:1e3", "random,mcts:1,c=", "random,mcts:1,=2", "random,mcts:1,c=0.5,", "mcts:1,mcts:2", ",mcts:1", "random,mcts:\u0661",
]
OPTION_VALUES = {
    "--variant": ["nope", "", "-", "x" * 100, "\u00e9", "base", "ordered", "multiset"],
    "--moves": ["", "a1", "zz", "a1 a1", "pass", ",,,", "a1,b2 c3", "\x00", "9.9.9", "{c}", "'", "a1 " * 50, "roll:1-2", "roll:2-1 b2", "roll:", "roll:S-S a1", "roll:x-y", "roll:1-1-1", "throw:L-H hub", "throw:H-H", "roll:A-4-blank S:a1", "b3 roll:1-1"],
    "--position": ["", " ", "x", "-", "8/8/8/8/8/8/8/8 w - -", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "/" * 40, "K" * 100, "9" * 30, "\x00", "X..|.O.|..X:o", "4k3/8/8/8/8/8/8/4K3 w KQkq e3 -5 99999999999999999999999", "8/8/8/8/8/8/8/8 w - - 0 1 extra"],
    "--seed": ["0", "1", "-1", "x", "99999999999999999999999999", "1e3", ""],
    "--engine": ["interpreted", "compiled", "both", "", "c"],
    "--game": ["0", "1", "-1", "x", "999999", "99999999999999999999"],
    "--depth": ["0", "1", "2", "-1", "x", "99999999999999999999"],
    "--players": ["random,greedy", "random", "", ",", "greedy,greedy,greedy", "script:missing.py", "script:", "nobody,random", "random," * 20, "random,greedy,random,greedy", "random," * 9, *MCTS_PLAYERS],
    "--games": ["0", "1", "2", "-1", "x", "99999999999999999999"],
    "--workers": ["0", "1", "-1", "x"],
    "--color": ["always", "never", "x"],
    "--player-count": ["0", "1", "2", "3", "4", "8", "9", "-1", "x", "99999999999999999999", ""],
    # Never a reachable scheduler nor 'local' (that would start a real cluster): every one of
    # these must fail fast with a message.
    "--cluster": ["tcp://127.0.0.1:1", "127.0.0.1:1", "nohost.invalid:8786", "tcp://", "local:0", "local:x", "local:-1", "", "udp://x:1", "tcp://127.0.0.1:99999", "x", "tcp://[::1]:1", "tcp://127.0.0.1:0", "local:99999999999999999999"],
    "--html": ["out.html", "", "/", "nodir/out.html", "."],
    "--svg": ["-", "out.svg", "", "/", "nodir/x.svg"],
    "--max-replays": ["0", "1", "-1", "x", "99999999999999999999"],
    "--json": [None], "--csv": [None], "--progress": [None], "--no-progress": [None],
}
FLAGS = {"--json", "--csv", "--progress", "--no-progress"}
OUTPUT_RECORDS = ["out.jsonl", "", "/", "nodir/x.jsonl", "."]  # where match / tournament write


@dataclass
class Records:
    """Good records made at the start of a campaign (path -> the spec they were made from),
    and their lines, which ``make_record_case`` mutates into ``case.jsonl``."""

    good: dict[str, str] = field(default_factory=dict)
    lines: dict[str, list[dict]] = field(default_factory=dict)


def make_records(seeds: Sequence[Seed], workdir: str, how_many: int = 3) -> Records:
    """Records of the smallest seeds that use dice, player counts, remove or extra_turn:
    short matches, and one tournament over the spec's variants (records with ``pairing``
    and ``players``), for ``report`` and ``replay --record`` to read, whole or forged."""
    from click.testing import CliRunner

    from ..cli import cli
    from ..spec.lower import list_variants, load_game_ir

    def newer(seed: Seed) -> bool:
        tree = seed.tree if isinstance(seed.tree, dict) else {}
        return "chance" in tree or "player_counts" in tree or "extra_turn" in seed.text or "remove:" in seed.text

    def rolls_and_variants(seed: Seed) -> bool:
        tree = seed.tree if isinstance(seed.tree, dict) else {}
        return "chance" in tree and isinstance(tree.get("variants"), dict) and bool(tree["variants"])

    out = Records()
    toured = False  # one tournament record is enough
    # the smallest seed with dice and variants first (a tournament record with rolls, so a
    # new small test spec cannot crowd them out), then the smallest others
    for seed in sorted((s for s in seeds if newer(s)), key=lambda s: (not rolls_and_variants(s), len(s.text))):
        if len(out.good) == how_many:
            break
        path = os.path.abspath(seed.path)
        try:
            n, variants = load_game_ir(path).n_players, list_variants(path)
        except MidgardcError:
            continue
        rec = os.path.join(workdir, f"good-{len(out.good)}.jsonl")
        players = ",".join((["random", "greedy", "mcts:1"] * 3)[: n + 1])
        if variants and not toured:
            toured = True
            args = ["tournament", path, "--players", players, "--games", "1", "--player-count", str(n), "--variant", "base", "--variant", variants[0]]
        else:
            args = ["match", path, "--players", ",".join((["random", "greedy"] * 4)[:n]), "--games", "2"]
        result = CliRunner().invoke(cli, [*args, "--engine", "interpreted", "--seed", "3", "--record", rec])
        if result.exit_code == 0 and os.path.exists(rec):
            out.good[rec] = path
            with open(rec, encoding="utf-8") as fh:
                out.lines[rec] = [json.loads(line) for line in fh if line.strip()]
    return out


RECORD_VALUES: list[Any] = [None, 0, -1, 2**64, 2**80, "x", "", [], {}, [1], {"a": 1}, True, 1.5, "case.yaml", "missing.yaml"]
MOVE_VALUES: list[Any] = ["", "roll:", "roll:x-y", "roll:1-1-1", "pass", 5, None, [], "b3", "throw:L-L", "roll:S-1", "\x00", "a" * 500]


def _mutate_record_line(ch: Chooser, line: dict, all_moves: list) -> None:
    op = ch.integer(0, 6)
    key = ch.choice(list(line) or ["game"])
    moves = line.get("moves") if isinstance(line.get("moves"), list) else []
    if op == 0:
        line[key] = copy.deepcopy(ch.choice(RECORD_VALUES))
    elif op == 1:
        line.pop(key, None)
    elif op == 2 and moves:  # garble the moves: drop, repeat, swap, replace, cut, or drop the rolls
        i = ch.integer(0, len(moves) - 1)
        how = ch.integer(0, 5)
        if how == 0:
            del moves[i]
        elif how == 1:
            moves.insert(i, moves[i])
        elif how == 2:
            j = ch.integer(0, len(moves) - 1)
            moves[i], moves[j] = moves[j], moves[i]
        elif how == 3:
            moves[i] = copy.deepcopy(ch.choice(MOVE_VALUES + all_moves))
        elif how == 4:
            del moves[i:]
        else:
            line["moves"] = [m for m in moves if not (isinstance(m, str) and ":" in m and m.split(":")[0] in ("roll", "throw"))]
    elif op == 3:  # forge the player count or the seats
        names = list(line.get("seat_names") or []) if isinstance(line.get("seat_names"), list) else []
        how = ch.integer(0, 3)
        if how == 0:
            line["players_count"] = ch.choice([0, 1, 3, 4, 9, -1, "2", 10**20])
        elif how == 1:
            line["seat_names"] = names + ch.choice([["green"], ["green", "yellow"], ["east"], ["x"] * 7])
        elif how == 2:
            line["seat_names"] = names[:-1]
        else:
            line["seat_names"] = names[::-1]
    elif op == 4:
        line["variant"] = ch.choice(["nope", "ordered", "multiset", 3, None, "base", ""])
    elif op == 5:
        result = line.get("result") if isinstance(line.get("result"), dict) else {}
        result[ch.choice(["winner_seat", "plies", "keys", "winner", "ply_limited"])] = copy.deepcopy(ch.choice(RECORD_VALUES))
        line["result"] = result
    else:
        line[ch.choice(["game_seed", "game"])] = ch.choice([0, 1, -1, 7, 2**64 - 1, 2**64, 2**200])


def make_record_case(ch: Chooser, records: Records, workdir: str) -> Optional[str]:
    """Write a mutated good record to ``case.jsonl``; returns the spec it was made from."""
    path = os.path.join(workdir, "case.jsonl")
    if not records.good:
        return None
    source = ch.choice(sorted(records.good))
    lines = copy.deepcopy(records.lines[source])
    all_moves = [m for line in lines for m in line.get("moves", [])][:50]
    for _ in range(ch.integer(1, 3)):
        if lines:
            _mutate_record_line(ch, ch.choice(lines), all_moves)
    texts = [json.dumps(line) for line in lines]
    op = ch.integer(0, 7)
    if op == 0 and texts:  # cut a line short
        i = ch.integer(0, len(texts) - 1)
        texts[i] = texts[i][: ch.integer(0, len(texts[i]))]
    elif op == 1:
        texts = ch.choice([[], [""], ["[]"], ["null"], ["{}"], ["\ufeff{}"], ['"game"']])
    elif op == 2 and texts:
        texts.append(ch.choice(texts))  # the same game twice
    data = "\n".join(texts) + ("\n" if texts else "")
    with open(path, "w", encoding="utf-8", errors="surrogatepass") as fh:
        fh.write(data)
    if ch.integer(0, 19) == 0:
        with open(path, "ab") as fb:
            fb.write(b"\xff\xfe\x00garbage\n")
    return records.good[source]


def _value(ch: Chooser, command: str, opt: str, specs: Sequence[str], records: list[str], workdir: str) -> str:
    if opt == "--record":
        return ch.choice(records) if command == "replay" else ch.choice(OUTPUT_RECORDS)
    if opt == "--spec":
        return ch.choice([*specs, os.path.join(workdir, "case.yaml"), "missing.yaml", ""])
    return ch.choice(OPTION_VALUES[opt])


def make_cli_case(ch: Chooser, specs: Sequence[str], workdir: str, records: Optional[Records] = None) -> list[str]:
    records = records or Records()
    case_record = os.path.join(workdir, "case.jsonl")
    record_pool = [case_record, case_record, *records.good, *records.good, "missing.jsonl", "", "/", os.path.join(workdir, "case.yaml")]
    command = ch.choice(list(COMMANDS))
    args = [command]
    made_from = None
    if command == "report" or (command == "replay" and ch.integer(0, 2) == 0):
        made_from = make_record_case(ch, records, workdir)
    if command == "report":
        args.append(ch.choice(record_pool))
    elif ch.integer(0, 3):  # mostly one spec, so that cases get past the argument checks
        args.append(ch.choice([*specs, os.path.join(workdir, "case.yaml")]))
    else:
        for _ in range(ch.integer(0, 2)):
            args.append(ch.choice([*specs, os.path.join(workdir, "case.yaml"), "missing.yaml", "", "-", "/", workdir]))
    if command == "replay" and made_from is not None:  # replay a (mutated) record on its own spec
        args = ["replay", made_from if ch.integer(0, 3) else ch.choice(specs), "--record", ch.choice([case_record, *records.good])]
    for _ in range(ch.integer(0, 4)):
        opt = ch.choice(COMMANDS[command] if ch.integer(0, 7) else ["--nope", "-x", "--"])
        args.append(opt)
        if opt in OPTION_VALUES or opt in ("--record", "--spec"):
            if opt not in FLAGS and ch.integer(0, 5):
                args.append(_value(ch, command, opt, specs, record_pool, workdir))
    if command in ("perft",) and "--depth" not in args:
        args += ["--depth", "1"]
    if command in ("match", "tournament") and "--games" not in args:
        args += ["--games", "1"]
    if command in ("match", "tournament") and "--players" not in args:
        args += ["--players", ch.choice(["random,greedy", "random,mcts:1", "random,greedy,random"])]
    return _keep_small(args)


def _keep_small(args: list[str]) -> list[str]:
    """Keep honest work small: no deep perft, no long matches, and no compiled engines except
    for an unpatched shipped spec (whose engine the suite builds anyway): each new build
    is a new module in the engine cache and seconds of work."""
    for i, a in enumerate(args[:-1]):
        if a in ("--depth", "--games") and args[i + 1].isdigit() and int(args[i + 1]) > 2:
            args[i + 1] = "2"
    shipped = len(args) > 1 and os.sep + "specs" + os.sep in args[1] and not any(a in args for a in ("--variant", "--player-count", "--record")) and args[0] in ("moves", "replay", "perft", "show")
    # a whole game of a shipped spec plays on its engine (every variant's is built by the
    # suite anyway): an interpreted game of a long spec (hundreds of plies, a lookahead per move) takes
    # tens of seconds, which a fuzz case would report as a hang
    if len(args) > 1 and os.sep + "specs" + os.sep in args[1] and args[0] in ("match", "tournament") and "--record" not in args:
        return ["compiled" if a == "interpreted" else a for a in args]
    if not shipped:
        args = ["interpreted" if a == "compiled" else a for a in args]
        if args[0] in ("match", "tournament", "report") and "--engine" not in args:
            args += ["--engine", "interpreted"]
    return args


def check_cli_args(args: list[str], workdir: str, stats: Stats, timeout: Optional[float] = None) -> None:
    """Run ``midgardc ARGS`` in-process through click; exit 0 or 1, no traceback."""
    from click.testing import CliRunner

    if timeout is None:
        timeout = PLAY_TIMEOUT if args and args[0] in ("match", "tournament") else CASE_TIMEOUT

    from ..cli import cli

    stats.cases += 1
    runner = CliRunner()
    old = os.getcwd()
    try:
        os.chdir(workdir)
        with time_limit(timeout):
            result = runner.invoke(cli, args, catch_exceptions=True)
    except _Timeout:
        stats.failures.append(Failure("hang", f"over {timeout} s", json.dumps(args)))
        return
    finally:
        os.chdir(old)
    output = result.output
    with contextlib.suppress(ValueError, AttributeError):  # click < 8.2 mixes stderr in
        output += result.stderr
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        exc = result.exception
        stats.failures.append(Failure("crash", "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))[-3000:], json.dumps(args)))
    elif result.exit_code not in (0, 1) or "Traceback" in output or "internal error" in output:
        stats.failures.append(Failure("bad-exit", f"exit {result.exit_code}: {output[-1500:]}", json.dumps(args)))
    elif result.exit_code == 0:
        stats.ok += 1
    else:
        stats.errors += 1
