"""Midgard's rules, test by test, from the rulebook's own wording (midgard.txt) and the
situations of its Figures 2-4, rebuilt as move sequences or positions on our notation.
Every test runs on both back ends."""

from __future__ import annotations

import pytest

from midgardc.errors import MoveError
from midgardc.runtime.game import replay


def owners(state, cells):
    board = state.to_json()["board"]
    return {c: board[c] for c in cells}


def tiles(state):
    return {name: s["tiles"] for name, s in state.scores().items()}


def hand(state, player):
    p = state.game.players.index(player)
    return state.core.hands[p][0]


def position(game, sea=(), land=(), to_move="sea", hands=(70, 70)):
    """A state with tiles on the given cells (setting up a figure), the rest empty."""
    ir = game.ir
    board = [0] * ir.board.n_cells
    for owner, cells in ((0, sea), (1, land)):
        for name in cells:
            board[ir.board.cell_names.index(name)] = ir.piece_id(owner, 0)
    state = game.new_state()
    state.core.load(board, [[hands[0]], [hands[1]]], ir.players.index(to_move))
    return state


# -- Rules of Play, 1: the drop ---------------------------------------------------------


def test_sea_moves_first_and_any_ice_cell_but_the_centre_is_legal(midgard):
    # "Starting with the sea player" / rule 1b: "The cell is not the center blizzard cell."
    state = midgard().new_state()
    assert state.current_player_name() == "sea"
    legal = {m.text for m in state.legal_moves()}
    assert len(legal) == 123 and "6.6" not in legal


def test_drop_on_the_centre_is_illegal(midgard):
    # Rule 1b: "Ymir was already starting to melt before the gods got to work."
    with pytest.raises(MoveError, match=r"move 1 \(6\.6\).*not legal"):
        replay(midgard(), ["6.6"])


def test_drop_next_to_a_terraformed_cell_is_illegal(midgard):
    # Rule 1a: "The ice cell is *not* adjacent to any sea or land cells." (Figure 3)
    state = replay(midgard(), ["5.1"])
    legal = {m.text for m in state.legal_moves()}
    for neighbour in ("5.0", "5.2", "4.0"):
        assert neighbour not in legal
        with pytest.raises(MoveError, match="not legal"):
            state.clone().apply(neighbour)
    # "In fact, in Figure 3, any cyan ice cell is legal": every other empty non-centre cell
    assert len(legal) == 123 - 1 - 3


def test_blizzard_cells_cannot_be_dropped_on_later(midgard):
    # "The adjacent cells become blizzard cells and neither player can drop tiles on these cells."
    state = replay(midgard(), ["5.1", "9.0"])
    assert "5.2" not in {m.text for m in state.legal_moves()}


# -- Rules of Play, 2: enclosure ---------------------------------------------------------


def test_three_cell_region_won_three_to_two(midgard):
    # Figure 2/4 'a': "he or she would enclose a region of three cells and wins the region
    # by influence counts of 3 to 2". Region 5.2-5.3-5.4 has five border edges: sea holds
    # 5.1 and 4.2, land 6.3 and 6.5; the drop on 5.5 closes it.
    state = replay(midgard(), "5.1 6.3 4.2 6.5 5.5".split())
    assert owners(state, ["5.2", "5.3", "5.4"]) == {"5.2": "sea", "5.3": "sea", "5.4": "sea"}
    assert tiles(state) == {"sea": 6, "land": 2}
    assert hand(state, "sea") == 70 - 6


def test_either_player_closing_the_region_wins_it(midgard):
    # Figure 2: "if either player played a tile to cell 'd', that player would win".
    state = replay(midgard(), "5.1 6.3 4.2 6.5 9.0 5.5".split())
    assert owners(state, ["5.2", "5.3", "5.4"]) == {"5.2": "land", "5.3": "land", "5.4": "land"}


def test_lone_perimeter_cell_won_one_to_nothing(midgard):
    # Figure 4 'b': "he or she would enclose a perimeter cell and wins it by influence
    # counts of 1 to 0". L3's only neighbour is 3.0.
    state = replay(midgard(), ["3.0"])
    assert owners(state, ["L3", "3.1", "4.1"]) == {"L3": "sea", "3.1": None, "4.1": None}
    assert tiles(state) == {"sea": 2, "land": 0}


def test_two_cells_won_three_to_one_by_sea(midgard):
    # Figure 4 'c': "If the sea player placed a tile at cell 'c', he or she would enclose
    # and win two cells by influence counts of 3 to 1." Region 5.2-5.3: sea 5.1, 4.2, the
    # drop 5.4; land 6.3.
    state = replay(midgard(), "5.1 6.3 4.2 9.0 5.4".split())
    assert owners(state, ["5.2", "5.3"]) == {"5.2": "sea", "5.3": "sea"}


def test_two_cells_split_one_each_on_a_two_two_tie(midgard):
    # Figure 4 'c': "If the land player placed a tile at cell 'c', he or she would enclose
    # the region but only tie the sea player; 2 to 2. In this case, both players would win
    # one cell." Rule 2: "each player covers half of the enclosed cells, starting with the
    # moving player" — land, the mover, takes the first cell found (5.3).
    state = replay(midgard(), "5.1 6.3 4.2 5.4".split())
    got = owners(state, ["5.2", "5.3"])
    assert sorted(got.values()) == ["land", "sea"]
    assert got["5.3"] == "land"
    assert tiles(state) == {"sea": 3, "land": 3}


def test_several_regions_enclosed_by_one_drop_are_assessed_one_by_one(midgard):
    # Rule 2: "When multiple regions are enclosed by the placement of a tile, it is possible
    # for *either* player to win some, all or none of these regions. The regions are
    # assessed one at a time." Land holds 2.0 and 3.2; sea's drop on 3.0 encloses {3.1}
    # (land 2 edges to sea 1) and {L3} (sea 1 to 0); {4.1} still touches ice.
    state = replay(midgard(), "0.0 2.0 9.18 3.2 3.0".split())
    assert owners(state, ["3.1", "L3", "4.1", "L2"]) == {"3.1": "land", "L3": "sea", "4.1": None, "L2": "land"}


def test_region_touching_ice_stays_open(midgard):
    # "Enclosed region: ... such that no cell in the region is adjacent to an ice cell."
    state = replay(midgard(), "5.1 6.3 4.2".split())
    assert owners(state, ["5.2", "5.3"]) == {"5.2": None, "5.3": None}


def test_winner_short_of_tiles_fills_what_they_can_and_the_game_ends(midgard):
    # FACTS (short of tiles): "a player who wins more cells than tiles in hand fills what
    # they can ... the rest stay empty and the game ends". Sea has 2 tiles: one for the
    # drop on 5.4, one for the two-cell region 5.2-5.3 it wins 3 to 1.
    state = position(midgard(), sea=["5.1", "4.2"], land=["6.3"], hands=(2, 60))
    state.apply("5.4")
    got = owners(state, ["5.2", "5.3"])
    assert sorted(v or "" for v in got.values()) == ["", "sea"]
    assert hand(state, "sea") == 0
    assert state.is_terminal()


# Found by an independent referee (issue 28, item 6): sea's drop on 4.8, with 5 tiles in
# hand, encloses {5.9, 5.10, 6.11, 6.12} (found first) and the perimeter cell R4, and wins
# both; 4 tiles are left for 5 cells.
SHORT_OF_TILES = (
    "9.6 6.7 4.0 R7 5.8 6.0 7.8 9.16 8.11 7.13 L7 1.0 R5 3.2 8.1 B6 6.4 1.2 9.14 8.14 9.10 "
    "R6 7.3 L3 6.10 L8 4.6 0.0 R2 B4 5.3 B1 8.4 9.18 9.3 8.7 B2 L5 5.5 9.0 4.8"
)


def test_a_winner_short_of_tiles_fills_perimeter_cells_first_across_the_regions(midgard):
    # Rule 2: "If the newly terraformed cell completes the enclosure of one or more regions
    # of blizzard cells, each of these regions' cells must be terraformed with the tiles of
    # whichever player influences the region the most"; Winning the Game: "In the case of
    # a tie, the player who occupies the most perimeter cells wins"; FACTS (short of
    # tiles): "a player who wins more cells than tiles in hand fills what they can,
    # perimeter cells first". First across every region the drop encloses, not region by
    # region: R4 is filled, and one cell of the other region (the last in board order)
    # stays empty.
    state = replay(midgard(), SHORT_OF_TILES.split())
    assert owners(state, ["R4", "5.9", "5.10", "6.11", "6.12"]) == {"R4": "sea", "5.9": "sea", "5.10": "sea", "6.11": "sea", "6.12": None}
    assert hand(state, "sea") == 0 and state.is_terminal()
    assert state.scores()["sea"] == {"tiles": 70, "perimeter": 9}


# -- Winning the Game ------------------------------------------------------------------


def test_game_ends_when_a_player_has_no_tiles(midgard):
    # "When ... one player runs out of tiles, the player owning the highest number of cells
    # on the board wins. In the case of a tie, the player who occupies the most perimeter
    # cells wins." Sea drops its last tile: 2 tiles each, land holds two corners to sea's one.
    state = position(midgard(), sea=["0.0"], land=["9.0", "9.18"], hands=(1, 5))
    state.apply("5.5")
    assert state.is_terminal() and state.current_player() == -1
    assert state.scores() == {"sea": {"tiles": 2, "perimeter": 1}, "land": {"tiles": 2, "perimeter": 2}}
    assert state.to_json()["winner"] == "land"


def test_game_ends_when_the_player_to_move_has_no_drop(midgard):
    # "If a player is unable to place a terraform tile the game ends and a winner is
    # determined." Every cell taken but the centre, which is blizzard: no ice anywhere.
    names = midgard().ir.board.cell_names
    rest = [n for n in names if n != "6.6"]
    state = position(midgard(), sea=rest[:62], land=rest[62:], hands=(8, 9))
    assert state.is_terminal()
    assert state.legal_moves() == []


def test_most_tiles_wins(midgard):
    names = [n for n in midgard().ir.board.cell_names if n != "6.6"]
    state = position(midgard(), sea=names[:70], land=names[70:], hands=(0, 10))
    assert state.is_terminal()
    assert state.winner() == 0 and state.to_json()["winner"] == "sea"


def test_tie_on_tiles_is_broken_by_perimeter_cells(midgard):
    # "In the case of a tie, the player who occupies the most perimeter cells wins."
    ir = midgard().ir
    names = list(ir.board.cell_names)
    perimeter = [n for i, n in enumerate(names) if len(ir.board.neighbours[i]) == 1]
    inner = [n for n in names if n not in perimeter]
    # 62 each: land gets 14 perimeter cells, sea 13 (the 27 are odd: no draw is possible)
    land = perimeter[:14] + inner[: 62 - 14]
    sea = perimeter[14:] + inner[62 - 14 : 62 - 14 + 62 - 13]
    assert len(land) == 62 and len(sea) == 62 and not set(land) & set(sea)
    state = position(midgard(), sea=sea, land=land, hands=(8, 8))
    assert state.is_terminal()
    assert state.scores() == {"sea": {"tiles": 62, "perimeter": 13}, "land": {"tiles": 62, "perimeter": 14}}
    assert state.to_json()["winner"] == "land"


# -- Variants --------------------------------------------------------------------------


def test_odin_delays_enclosure_to_the_end(midgard):
    # Odin: "delays the capture by enclosure. Instead of assigning enclosed regions when
    # they are enclosed, players wait until the game ends." L3 stays empty after 3.0 ...
    state = replay(midgard("odin"), ["3.0"])
    assert owners(state, ["L3"]) == {"L3": None}
    assert "L3" not in {m.text for m in state.legal_moves()}  # blizzard: not droppable


@pytest.mark.parametrize("seed", [3, 7, 11])
def test_odin_assesses_every_empty_group_at_the_end(midgard, seed):
    # FACTS (Odin): the game ends when the player to move has no drop; "then every remaining
    # empty cell counts as blizzard, and every connected group of them is assessed as an
    # enclosed region". We play a random game and check the end against a direct count.
    from midgardc.runtime.rng import Rng

    game = midgard("odin")
    ir = game.ir
    nbrs = ir.board.neighbours
    state = game.new_state()
    rng = Rng(seed)
    while True:
        moves = state.legal_move_ids()
        move = moves[rng.below(len(moves))]
        before = state.clone()
        state.apply_unchecked(move)
        if state.is_terminal():
            break
        assert sum(tiles(state).values()) == state.ply()  # nothing is filled during play
    # the board after the last drop, before the end assessment
    board = list(before.core.board[: ir.board.n_cells])
    board[move] = ir.piece_id(before.current_player(), 0)
    seen, expected = set(), {"sea": 0, "land": 0}
    for start in range(ir.board.n_cells):
        if board[start] or start in seen:
            continue
        group, todo = {start}, [start]
        while todo:
            for n in nbrs[todo.pop()]:
                if not board[n] and n not in group:
                    group.add(n)
                    todo.append(n)
        seen |= group
        influence = [0, 0]
        for c in group:
            for n in nbrs[c]:
                if board[n]:
                    influence[ir.piece_owner(board[n])] += 1
        if influence[0] != influence[1]:
            expected["sea" if influence[0] > influence[1] else "land"] += len(group)
        else:  # "half the cells are filled with sea tiles and the other half by land tiles"
            expected["sea"] += len(group) // 2
            expected["land"] += len(group) // 2
    placed = {p: sum(1 for c in range(ir.board.n_cells) if board[c] and ir.piece_owner(board[c]) == i) for i, p in enumerate(ir.players)}
    assert tiles(state) == {p: placed[p] + expected[p] for p in ir.players}
    assert all(state.core.board[c] != 0 for c in range(ir.board.n_cells))  # nothing left empty


def test_loki_seeded_cells_cannot_be_dropped_on(midgard):
    # Loki: "players seed the interior cells of the game board with a few more blizzard
    # cells"; FACTS: seeded cells are blizzard while empty, never droppable.
    state = midgard("loki").new_state()
    legal = {m.text for m in state.legal_moves()}
    seeded = {"6.6", "3.2", "7.12", "8.4"}
    assert not seeded & legal and len(legal) == 124 - 4
    for cell in seeded:
        with pytest.raises(MoveError, match="not legal"):
            state.clone().apply(cell)


def test_loki_seeds_are_interior_and_symmetric(midgard):
    # "Do not seed perimeter cells ... it is suggested that center cell symmetry is maintained."
    ir = midgard("loki").ir
    seeded = [c for c, v in enumerate(dict(ir.board.props)["seeded"]) if v]
    assert all(len(ir.board.neighbours[c]) == 3 for c in seeded)


def test_mere_mortal_marks_blizzard_cells(midgard):
    # "Blizzard tiles are used to indicate blizzard cells as they are created."
    state = replay(midgard("mere-mortal"), ["5.1"])
    marks = state.to_json()["marks"]["blizzard"]
    assert set(marks) == {"5.0", "5.2", "4.0", "6.6"}
    assert "marks" not in replay(midgard(), ["5.1"]).to_json()
