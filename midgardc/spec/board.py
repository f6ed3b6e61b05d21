"""Lowering of ``board:`` (through ``midgardc.board.topology``), cell properties, ``setup:``
and ``player_props:``."""

from __future__ import annotations

import re
from typing import Any, Optional

from ..board.topology import _DIRS8, BUILTIN_DIRECTION_SETS, DRAWN_AS, MAX_CELLS, TOPOLOGIES, TOPOLOGY_KEYS
from ..conditions.check import a_type
from ..errors import SpecError, did_you_mean
from ..ir.nodes import BOOL, CELL, DIR, INT, BoardIR
from .yamlpos import YList, YMap, YNode, YScalar


class LowerBoard:
    """Part of ``Lowerer`` (``midgardc/spec/lower.py``): the board, its cell properties, the
    setup and per-player properties."""

    def lower_board(self, node: YNode) -> BoardIR:
        if not isinstance(node, YMap):
            raise SpecError("'board' must be a mapping with a 'topology'", node.pos)
        topo_node = node.get("topology")
        if topo_node is None:
            raise SpecError(f"the board needs a 'topology' ({', '.join(TOPOLOGIES)})", node.pos)
        topo = self.scalar(topo_node, str, "board.topology")
        if topo not in TOPOLOGIES:
            raise SpecError(f"unknown board topology '{topo}' (known: {', '.join(TOPOLOGIES)})", topo_node.pos, did_you_mean(topo, TOPOLOGIES))
        allowed = TOPOLOGY_KEYS[topo] | {"topology", "props"} | ({"direction_sets"} if topo in BUILTIN_DIRECTION_SETS else set())
        for key in node.items:
            if key not in allowed:
                raise SpecError(f"unknown key '{key}' for a {topo} board", node.key_pos[key], did_you_mean(key, allowed) or f"allowed keys: {', '.join(sorted(allowed))}")

        def get(key: str, typ: type, default: Any = None, lo: Optional[int] = None, hi: Optional[int] = None, choices: tuple = ()) -> Any:
            if key not in node.items:
                if default is None:
                    raise SpecError(f"a {topo} board needs '{key}'", node.pos)
                return default
            value = self.scalar(node.items[key], typ, f"board.{key}", lo, hi)
            if choices and value not in choices:
                raise SpecError(f"board.{key} must be one of {', '.join(map(str, choices))}", node.items[key].pos)
            return value

        raw = TOPOLOGIES[topo](node, get)
        if len(raw.names) > MAX_CELLS:
            raise SpecError(f"the board has {len(raw.names)} cells; the limit is {MAX_CELLS}", node.pos)
        for i, name in enumerate(raw.names):
            if name in self.cell_index:
                raise SpecError(f"two cells are both named '{name}'; make the cell_name template unique", node.pos)
            if not name or any(ch.isspace() or ch == "," for ch in name):
                raise SpecError(f"cell name {name!r} must be non-empty, without spaces or commas (it is how moves are written)", node.pos)
            self.cell_index[name] = i
        for d, dname in enumerate(raw.directions):
            if dname in self.names.constants:
                raise SpecError(f"direction '{dname}' clashes with a player or piece name", node.pos)
            self.names.constants[dname] = (d, DIR)
        self.names.has_directions = bool(raw.directions)
        self.board_topology = topo
        self.direction_sets_node = node.items.get("direction_sets")  # lowered with the attributes
        # cell names written like names are literals in conditions (values of every type)
        self.names.n_cells = len(raw.names)
        self.names.cells = {c: i for i, c in enumerate(raw.names) if re.match(r"[A-Za-z_][A-Za-z0-9_]*\Z", c)}
        props = self.lower_props(node.get("props"), len(raw.names), topo, raw.coords)
        board = BoardIR(
            topology=DRAWN_AS.get(topo, topo),
            cell_names=tuple(raw.names),
            neighbours=tuple(tuple(n) for n in raw.neighbours),
            directions=tuple(raw.directions),
            steps=tuple(tuple(s) for s in raw.steps),
            coords=tuple(raw.coords),
            polygons=tuple(tuple(p) for p in raw.polygons),
            props=props,
        )
        return board

    def lower_direction_sets(self) -> list[tuple[str, str, tuple[int, ...], int]]:
        """The board's direction sets: the topology's own (orthogonal, diagonal on a square
        grid) and ``board.direction_sets`` (name: [directions], or name: {player:
        [directions]} for a set that differs by player, such as the directions forward).
        Each becomes attributes of dir (one per player for a per-player set), so a set
        reads as ``orthogonal(d)`` and ranges as ``any d in orthogonal: ...`` with no new
        machinery in either back end. Returns (attribute name, set name, the directions'
        indexes, seat or -1)."""
        dirs = list(self.board.directions)
        out = [(name, name, tuple(dirs.index(d) for d in members), -1)
               for name, members in BUILTIN_DIRECTION_SETS.get(getattr(self, "board_topology", ""), {}).items()]
        node = getattr(self, "direction_sets_node", None)
        if node is None:
            return out
        example = "direction_sets: {forward: {white: [n], black: [s]}, rider: [n, s]}"
        if not isinstance(node, YMap):
            raise SpecError(f"board.direction_sets maps a set's name to its directions, e.g. {example}", node.pos)

        def members(lnode: YNode, what: str) -> tuple[int, ...]:
            if not isinstance(lnode, YList) or not lnode.items:
                raise SpecError(f"{what} is a list of the board's directions, e.g. [n, e, s, w]", lnode.pos)
            got = []
            for item in lnode.items:
                d = self.scalar(item, str, "a direction")
                if d not in dirs:
                    raise SpecError(f"'{d}' is not a direction of this board ({', '.join(dirs)})", item.pos, did_you_mean(d, dirs))
                if dirs.index(d) in got:
                    raise SpecError(f"direction '{d}' is listed twice in {what}", item.pos)
                got.append(dirs.index(d))
            return tuple(sorted(got))

        for name, body in node.items.items():
            pos = node.key_pos[name]
            self.ident(name, pos, "direction set name")
            if any(name == o[1] for o in out):
                raise SpecError(f"'{name}' is already a direction set of this board", pos)
            if any(name in t for t in (self.names.props, self.names.counters, self.names.game_counters, self.names.constants, self.names.player_props, self.names.arrays)):
                raise SpecError(f"'{name}' is already a name in this spec", pos)
            if isinstance(body, YMap) and "toward" in body.items and "toward" not in self.players:
                for seat, dirs_ahead in enumerate(self._toward(name, body)):
                    out.append((f"{name}.{self.players[seat]}", name, dirs_ahead, seat))
            elif isinstance(body, YMap):
                for pname in body.items:
                    if pname not in self.players:
                        raise SpecError(f"'{pname}' is not a player", body.key_pos[pname], did_you_mean(pname, self.players))
                for seat, pname in enumerate(self.players):
                    if pname not in body.items:
                        raise SpecError(f"direction set '{name}' differs by player: give every player's directions ({pname}'s are missing)", body.pos)
                    out.append((f"{name}.{pname}", name, members(body.items[pname], f"direction set '{name}' of {pname}"), seat))
            else:
                out.append((name, name, members(body, f"direction set '{name}'"), -1))
        return out

    def _toward(self, name: str, body: YMap) -> list[tuple[int, ...]]:
        """``{toward: PROP}``: each player's directions that lead ahead along the direction
        the player property PROP gives it (on a square board: those whose step has a part
        along it, so ahead of n are nw, n and ne), read from ``player_props`` as written."""
        pos = body.key_pos["toward"]
        if len(body.items) > 1:
            extra = next(k for k in body.items if k != "toward")
            raise SpecError(f"direction set '{name}': 'toward' is the whole set, give no '{extra}' beside it", body.key_pos[extra])
        if getattr(self, "board_topology", "") != "square":
            raise SpecError(f"direction set '{name}': 'toward' needs a square board (its directions have a known geometry)", pos)
        prop = self.scalar(body.items["toward"], str, "a player property of directions")
        props = self.tree.items.get("player_props")
        given = props.items.get(prop) if isinstance(props, YMap) else None
        vec = {d: (dr, dc) for d, dr, dc in _DIRS8}
        if not isinstance(given, YMap) or any(self.scalar(given.items.get(p), str, "a direction") not in vec for p in self.players if p in given.items) or any(p not in given.items for p in self.players):
            raise SpecError(f"direction set '{name}': 'toward' names a player property that gives every player a direction (n, ne, ...), e.g. player_props: {{{prop}: {{{self.players[0]}: n}}}}", body.items["toward"].pos)
        dirs = list(self.board.directions)
        out = []
        for p in self.players:
            ar, ac = vec[self.scalar(given.items[p], str, "a direction")]
            out.append(tuple(i for i, d in enumerate(dirs) if d in vec and vec[d][0] * ar + vec[d][1] * ac > 0))
        return out

    def cell(self, node: YNode) -> int:
        name = self.scalar(node, str, "a cell name") if not isinstance(getattr(node, "value", None), int) else str(node.value)
        if name not in self.cell_index:
            cells = list(self.cell_index)
            sample = ", ".join(cells[:3]) + (f", ..., {cells[-1]}" if len(cells) > 3 else "")
            raise SpecError(f"unknown cell '{name}'", node.pos, did_you_mean(name, cells) or f"this board's cells are {sample}")
        return self.cell_index[name]

    def lower_props(self, node: Optional[YNode], n: int, topo: str = "", coords: Any = ()) -> tuple[tuple[str, tuple[int, ...]], ...]:
        """``props``: a name per list of cells (a condition), per ``cell: number`` mapping
        (a number), or per the word ``checkered`` (a square board coloured in alternate
        squares: those of its bottom-left corner's colour, named on the board rather than
        listed square by square)."""
        out = []
        if node is None:
            return ()
        if not isinstance(node, YMap):
            raise SpecError("board.props maps a property name to a list of cells (or cell: number)", node.pos)
        for pname, body in node.items.items():
            self.ident(pname, node.key_pos[pname], "property name")
            values = [0] * n
            if isinstance(body, YList):
                typ = BOOL
                for item in body:
                    values[self.cell(item)] = 1
            elif isinstance(body, YMap):
                typ = INT
                for cname, v in body.items.items():
                    values[self.cell(YScalar(cname, body.key_pos[cname]))] = self.scalar(v, int, "a property value", -(2**31), 2**31 - 1)
            elif isinstance(body, YScalar) and body.value is None:
                typ = BOOL
            elif isinstance(body, YScalar) and body.value == "checkered":
                if topo != "square":
                    raise SpecError(f"property '{pname}': 'checkered' colours a square board's squares; this board is {topo}", body.pos)
                typ = BOOL
                # each square's row from the bottom and column from the left, counted among the
                # grid places drawn (a square board draws its columns two units apart)
                rows = {r: i for i, r in enumerate(sorted({r for r, _ in coords}, reverse=True))}
                cols = {c: i for i, c in enumerate(sorted({c for _, c in coords}))}
                values = [int((rows[r] + cols[c]) % 2 == 0) for r, c in coords]
            else:
                raise SpecError(f"property '{pname}' must be a list of cells, a mapping cell: number, or checkered", body.pos)
            self.names.props[pname] = (len(out), typ)
            out.append((pname, tuple(values)))
        return tuple(out)

    def lower_setup(self, node: Optional[YNode], position: Optional[YNode] = None) -> tuple[int, ...]:
        """setup: a list of {piece, owner, cells}: those pieces stand there at the start
        (they do not come from any hand); or a text, the board row by row as the position
        notation writes it (``setup_field``)."""
        if node is None:
            return ()
        if isinstance(node, YScalar) and isinstance(node.value, str):
            return self.setup_text(node, position)
        if not isinstance(node, YList):
            raise SpecError("'setup' is a list of entries like {piece: stone, owner: white, cells: [d4, e5]}", node.pos)
        n = len(self.cell_index)
        board = [0] * n
        self.setup_heights = [0] * n  # stacks at setup: pieces per cell
        for entry in node:
            body = self.keys(entry, "setup_entry", "a setup entry")
            kind = self.kind(body["piece"])
            # a stack of `height` pieces on each of the cells (default 1)
            height = self.scalar(body["height"], int, "a setup height", 1, 32767) if "height" in body else 1
            onode = body["owner"]
            oname = self.scalar(onode, str, "a player name")
            if oname in self.unseated:
                continue
            if oname not in self.players:
                raise SpecError(f"unknown player '{oname}'", onode.pos, did_you_mean(oname, self.players))
            piece = 1 + self.players.index(oname) * len(self.kinds) + kind
            cells = body["cells"]
            if not isinstance(cells, YList):
                raise SpecError("setup cells are a list of cell names, e.g. [d4, e5]", cells.pos)
            for item in cells:
                c = self.cell(item)
                if board[c]:
                    raise SpecError(f"cell '{self.board.cell_names[c]}' is set up twice", item.pos)
                board[c] = piece
                self.setup_heights[c] = height
        return tuple(board)

    def setup_text(self, node: YScalar, position: Optional[YNode]) -> tuple[int, ...]:
        """``setup: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"``: every cell, row by row."""
        from ..ir.position import PositionTextError, _read_board
        from .position import setup_field

        field = setup_field(self, position, node.pos)
        board = [0] * len(self.cell_index)
        try:
            _read_board(field, node.value, 0, board, "the setup text")
        except PositionTextError as exc:
            raise SpecError(str(exc), node.pos) from None
        self.setup_heights = [1 if p else 0 for p in board]
        return tuple(board)

    def lower_player_props(self, node: Optional[YNode]) -> tuple[tuple[str, tuple[int, ...]], ...]:
        """player_props: name -> {player: value}; a value is a number, a direction, a cell,
        a player or a piece kind (one type per property); every player needs a value."""
        if node is None:
            return ()
        if not isinstance(node, YMap):
            raise SpecError("'player_props' maps a property name to {player: value}, e.g. ahead: {white: n, black: s}", node.pos)
        out = []
        for pname, body in node.items.items():
            ppos = node.key_pos[pname]
            self.ident(pname, ppos, "player property name")
            if pname in self.names.props or pname in self.names.counters or pname in self.names.game_counters or pname in self.names.constants or pname in self.names.player_props:
                raise SpecError(f"'{pname}' is already a name in this spec", ppos)
            if not isinstance(body, YMap):
                raise SpecError(f"player property '{pname}' maps each player to a value", body.pos)
            values = [0] * len(self.players)
            typ = None
            for player, vnode in body.items.items():
                if player in self.unseated:
                    continue
                if player not in self.players:
                    raise SpecError(f"unknown player '{player}'", body.key_pos[player], did_you_mean(player, self.players))
                if isinstance(vnode, YScalar) and isinstance(vnode.value, int) and not isinstance(vnode.value, bool):
                    value, vtyp = self.scalar(vnode, int, "a player property value", -(2**31), 2**31 - 1), INT
                else:
                    text = self.scalar(vnode, str, "a player property value")
                    if text in self.names.constants:
                        value, vtyp = self.names.constants[text]
                    elif text in self.cell_index:
                        value, vtyp = self.cell_index[text], CELL
                    else:
                        raise SpecError(f"'{text}' is not a number, direction, cell, player or piece kind", vnode.pos, did_you_mean(text, [*self.names.constants, *self.cell_index]))
                if typ is not None and vtyp != typ:
                    raise SpecError(f"player property '{pname}' mixes {a_type(typ)} and {a_type(vtyp)}", vnode.pos)
                typ = vtyp
                values[self.players.index(player)] = value
            missing = [p for p in self.players if p not in body.items]
            if missing:
                raise SpecError(f"player property '{pname}' has no value for {', '.join(missing)}", body.pos)
            self.names.player_props[pname] = (len(out), typ or INT)
            out.append((pname, tuple(values)))
        return tuple(out)
