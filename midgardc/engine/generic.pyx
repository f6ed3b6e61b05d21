# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
#
# The generic engine: everything Python-facing of a compiled game, compiled once per
# midgardc version and shared by every spec (see midgardc/engine/__init__.py and
# docs/design.md, "Building engines"). A game is a rules module's table (vtable.pxi): a
# state is `state_size` opaque bytes, and every call into the game goes through the
# table's pointers. The hot loops (random games, perft, traces) run inside the rules
# module; this module calls them once per batch of games. What the templates decided
# with {% if %} (dice, decks, zones, stacks, history, compound moves) is the table's
# flags and NULL pointers here.

from libc.stdint cimport uint64_t
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memcpy, memmove, memset
from libc.math cimport log, sqrt
from cpython.exc cimport PyErr_CheckSignals
from cpython.pycapsule cimport PyCapsule_GetPointer, PyCapsule_IsValid

include "vtable.pxi"

# -- the shared RNG: SplitMix64, exactly as midgardc/runtime/rng.py (and the rules modules)

cdef extern from *:
    """
    #define MGC_GOLDEN 0x9E3779B97F4A7C15ULL
    #define MGC_MIX1 0xBF58476D1CE4E5B9ULL
    #define MGC_MIX2 0x94D049BB133111EBULL
    """
    const uint64_t GOLDEN "MGC_GOLDEN"
    const uint64_t MIX1 "MGC_MIX1"
    const uint64_t MIX2 "MGC_MIX2"

ctypedef struct Rng:
    uint64_t state


ctypedef struct ViewRun:       # one run of a learning-ready view (see Batch.use_view)
    int src, src_step, gate, length, rows, row_step, a_step, a_row_step
    float a, b
    unsigned char op


cdef inline uint64_t mix64(uint64_t z) noexcept nogil:
    z = (z ^ (z >> 30)) * MIX1
    z = (z ^ (z >> 27)) * MIX2
    return z ^ (z >> 31)


cdef inline uint64_t derive_seed(uint64_t seed, uint64_t index) noexcept nogil:
    return mix64(seed + (index + 1) * GOLDEN)


cdef inline uint64_t rng_next(Rng* rng) noexcept nogil:
    rng.state += GOLDEN
    return mix64(rng.state)


cdef inline int rng_below(Rng* rng, int n) noexcept nogil:
    """A number in 0 .. n-1: Lemire's multiply-shift on the high 32 bits."""
    return <int>(((rng_next(rng) >> 32) * <uint64_t>n) >> 32)


cdef enum:
    PLAYOUT_CHUNK = 1024   # playouts between checks for Ctrl-C
    MCTS_CHUNK = 64        # iterations between checks for Ctrl-C

ctypedef object (*compound_path_f)(void* st, long long move)


cdef inline int st_int(const MgcRules* vt, const char* st, int offset) noexcept nogil:
    """An int field of a state by its byte offset (current, terminal, chance)."""
    return (<const int*>(st + offset))[0]


cdef inline bint st_chance(const MgcRules* vt, const char* st) noexcept nogil:
    """A roll is due and the game is not over."""
    return vt.off_chance >= 0 and st_int(vt, st, vt.off_chance) != 0 and st_int(vt, st, vt.off_terminal) == 0


cdef char* new_state(const MgcRules* vt) except NULL:
    cdef char* st = <char*>malloc(vt.state_size)
    if st == NULL:
        raise MemoryError()
    return st


#: rules module name -> its Engine (for Cores unpickled in this process)
_ENGINES = {}


cdef class Engine:
    """One game: its rules module's table behind the protocol a generated module had
    (Core, playouts, rollouts, perft, playout_trace, write_tensor, Batch, mcts_search,
    mcts_search_set); any other attribute (INFO, GAME, VARIANT, SPEC, __file__) is the
    rules module's."""

    cdef const MgcRules* vt
    cdef readonly object rules
    cdef int* scratch          # a move buffer for the Python-facing methods (used with the GIL held)

    def __cinit__(self, rules):
        cap = getattr(rules, "RULES", None)
        if cap is None or not PyCapsule_IsValid(cap, b"midgardc.rules"):
            raise ImportError(f"{rules!r} exports no rules table")
        self.vt = <const MgcRules*>PyCapsule_GetPointer(cap, b"midgardc.rules")
        if self.vt.abi != MGC_ABI:
            raise ImportError(f"{rules.__name__}: rules table version {self.vt.abi}, the generic engine reads {MGC_ABI}")
        self.rules = rules
        self.scratch = <int*>malloc(self.vt.n_moves * sizeof(int))
        if self.scratch == NULL:
            raise MemoryError()
        _ENGINES[rules.__name__] = self

    def __dealloc__(self):
        free(self.scratch)

    def __getattr__(self, name):
        if name == "Core":
            return self.new_core
        if name == "Batch":
            return self.new_batch
        return getattr(self.rules, name)

    def new_core(self, uint64_t seed=0):
        """A new game for `seed` (Core(seed) of a generated module)."""
        cdef Core core = blank_core(self)
        self.vt.new_game(core.st, seed)
        return core

    def new_batch(self, *args, **kwargs):
        return Batch(self, *args, **kwargs)

    # -- playouts and perft

    def playouts(self, long long n, uint64_t seed, bint steps=False):
        """`n` random games from the start; game i uses derive_seed(seed, i). Returns the
        dict of midgardc.runtime.results: games, wins, draws, shared, firsts, plies, margin,
        ply_limited. `steps`: moves of two steps drawn step by step
        (midgardc/runtime/sampling.py)."""
        return stats_from(self, <const char*>self.vt.start, True, n, seed, steps)

    def rollouts(self, Core core, long long n, uint64_t seed, bint steps=False):
        """`n` random games from `core`'s position (game i: derive_seed(seed, i)), the same
        dict as playouts(): exact counts of first places, from which returns are summed."""
        if core is None:
            raise TypeError("rollouts() needs a Core")
        check_core(self, core)
        return stats_from(self, core.st, False, n, seed, steps)

    def playout_trace(self, uint64_t seed, Core core=None, bint steps=False):
        """The moves of one random game from the start (or from `core`) with Rng(seed)
        (`steps`: drawn step by step, as playouts())."""
        cdef const MgcRules* vt = self.vt
        cdef int count = 0
        cdef int cap = vt.trace_cap
        cdef char* st = new_state(vt)
        cdef int* moves = <int*>malloc(vt.n_moves * sizeof(int))
        cdef int* trace = <int*>malloc(cap * sizeof(int))
        try:
            if moves == NULL or trace == NULL:
                raise MemoryError()
            if core is None:
                vt.new_game(st, seed)
            else:
                check_core(self, core)
                memcpy(st, core.st, vt.state_size)
            with nogil:
                count = vt.trace(st, seed, moves, trace, cap, steps)
            return [trace[i] for i in range(count)]
        finally:
            free(st)
            free(moves)
            free(trace)

    def perft(self, int depth, Core core=None):
        """The number of legal move sequences of length `depth` from the start (or `core`)."""
        cdef const MgcRules* vt = self.vt
        cdef long long total
        cdef int n
        cdef int* moves
        cdef char* st
        if depth < 0:
            raise ValueError("perft depth must be at least 0")
        st = new_state(vt)
        moves = <int*>malloc((depth + 1) * vt.n_moves * sizeof(int))
        try:
            if moves == NULL:
                raise MemoryError()
            if core is None:
                vt.perft_start(st, 0)
            else:
                check_core(self, core)
                memcpy(st, core.st, vt.state_size)
            with nogil:
                n = vt.gen_legal(st, moves)
                total = vt.perft(st, depth, n, moves)
            return total
        finally:
            free(st)
            free(moves)

    # -- observation tensors

    def write_tensor(self, Core core, float[::1] out, const int[::1] layout, const unsigned char[::1] seen_places, const unsigned char[::1] seen_counters):
        """Fill ``out`` with one viewer's observation tensor of ``core`` in C. ``layout``: the
        part offsets (compiler/tensor.py TENSOR_PARTS) then the size; the viewer's
        visibility masks (each at least one byte long)."""
        cdef const MgcRules* vt = self.vt
        check_core(self, core)
        if layout.shape[0] != vt.n_tensor_parts + 1 or out.shape[0] < layout[vt.n_tensor_parts]:
            raise ValueError("the tensor buffer does not match the layout")
        if seen_places.shape[0] < 1 or seen_counters.shape[0] < max((vt.n_players + 1) * vt.n_counters, 1):
            raise ValueError("visibility masks too short")
        with nogil:
            vt.fill_tensor(core.st, &out[0], &layout[0], &seen_places[0], &seen_counters[0])

    # -- tree search

    def mcts_search(self, Core root, long long iterations, double c, long long rollouts, uint64_t rng_state):
        """UCT from `root` (the player to move's search on one position): returns (the RNG's new
        state, [(move, visits, reward)] of the root's children in creation order)."""
        cdef MPool P
        cdef long long done = 0
        cdef long long chunk
        cdef int rc = 0
        if root is None:
            raise TypeError("mcts_search() needs a Core")
        check_core(self, root)
        try:
            mc_open(&P, self.vt, True, iterations, c, rollouts, rng_state)
            memcpy(P.states, root.st, self.vt.state_size)
            if mc_tree_node(&P, -1, -1, -1) < 0:
                raise MemoryError()
            while done < iterations:
                chunk = min(iterations - done, <long long>MCTS_CHUNK)
                with nogil:
                    rc = mc_tree_iterations(&P, chunk)
                if rc < 0:
                    raise MemoryError()
                done += chunk
                PyErr_CheckSignals()
            return P.rng.state, mc_root_children(&P)
        finally:
            mc_close(&P)

    def mcts_search_set(self, Core base, groups, allowed, long long iterations, double c, long long rollouts, uint64_t rng_state):
        """SO-ISMCTS from the player's information set: `base` is a state as the player may know
        it (hidden counters estimated), `groups` the hidden pools (per pool, its places as
        (source, target, items): source 0 a zone slot, 1 a player's deck), `allowed` the
        player's legal moves. Returns what mcts_search() returns."""
        cdef const MgcRules* vt = self.vt
        cdef MPool P
        cdef char* st = NULL
        cdef long long done = 0
        cdef long long chunk
        cdef int rc = 0
        cdef int n_places, n_items, g, pl, it, widest, m
        if base is None:
            raise TypeError("mcts_search_set() needs a Core")
        check_core(self, base)
        try:
            mc_open(&P, vt, False, iterations, c, rollouts, rng_state)
            st = new_state(vt)
            memcpy(P.base, base.st, vt.state_size)
            for m in allowed:
                if not 0 <= m < vt.n_moves:
                    raise ValueError(f"move id {m} out of range")
                P.allowed[m] = 1
            n_places = sum(len(group) for group in groups)
            n_items = sum(len(items) for group in groups for _src, _target, items in group)
            widest = max([sum(len(items) for _src, _target, items in group) for group in groups] or [0])
            P.n_groups = len(groups)
            P.g_start = <int*>malloc((P.n_groups + 1) * sizeof(int))
            P.i_start = <int*>malloc((P.n_groups + 1) * sizeof(int))
            P.p_src = <int*>malloc((n_places + 1) * sizeof(int))
            P.p_target = <int*>malloc((n_places + 1) * sizeof(int))
            P.p_len = <int*>malloc((n_places + 1) * sizeof(int))
            P.items = <unsigned char*>malloc(n_items + 1)
            P.shuffle = <unsigned char*>malloc(widest + 1)
            if P.g_start == NULL or P.i_start == NULL or P.p_src == NULL or P.p_target == NULL or P.p_len == NULL or P.items == NULL or P.shuffle == NULL:
                raise MemoryError()
            pl = 0
            it = 0
            for g in range(P.n_groups):
                P.g_start[g] = pl
                P.i_start[g] = it
                for src, target, items in groups[g]:
                    if src not in (0, 1) or (src == 0 and not (vt.has_zones and 0 <= target < vt.n_zslots)) or (src == 1 and not (vt.has_decks and 0 <= target < vt.n_players)):
                        raise ValueError(f"mcts_search_set: no place ({src}, {target}) in this game")
                    P.p_src[pl] = src
                    P.p_target[pl] = target
                    P.p_len[pl] = len(items)
                    for m in items:
                        if not 0 <= m < 256:
                            raise ValueError("mcts_search_set: item kinds are 0 .. 255")
                        P.items[it] = <unsigned char>m
                        it += 1
                    pl += 1
            P.g_start[P.n_groups] = pl
            P.i_start[P.n_groups] = it
            if mc_new_node(&P, -1, -1, -1) < 0:
                raise MemoryError()
            while done < iterations:
                chunk = min(iterations - done, <long long>MCTS_CHUNK)
                with nogil:
                    rc = mc_set_iterations(&P, st, chunk)
                if rc < 0:
                    raise MemoryError()
                done += chunk
                PyErr_CheckSignals()
            return P.rng.state, mc_root_children(&P)
        finally:
            free(st)
            mc_close(&P)


cdef dict stats_from(Engine e, const char* start, bint deal, long long n, uint64_t seed, bint steps):
    cdef const MgcRules* vt = e.vt
    cdef long long done = 0
    cdef long long chunk
    cdef int p, j
    cdef int np = vt.n_players
    cdef char* first = new_state(vt)  # a copy: the caller's state cannot change under us
    cdef long long* s = <long long*>calloc(1, vt.stats_size)
    cdef int* moves = <int*>malloc(vt.n_moves * sizeof(int))
    try:
        if moves == NULL or s == NULL:
            raise MemoryError()
        memcpy(first, start, vt.state_size)
        vt.prepare_runs(first)
        while done < n:
            chunk = min(n - done, <long long>PLAYOUT_CHUNK)
            with nogil:
                vt.run_playouts(first, deal, seed, done, chunk, s, moves, steps)
            done += chunk
            PyErr_CheckSignals()
        return {
            "games": s[MGC_S_GAMES],
            "wins": [s[MGC_S_WINS + p] for p in range(np)],
            "draws": s[MGC_S_DRAWS],
            "shared": s[MGC_S_SHARED],
            "firsts": [[s[MGC_S_WINS + np + p * np + j] for j in range(np)] for p in range(np)],
            "plies": s[MGC_S_PLIES],
            "margin": s[MGC_S_MARGIN],
            "ply_limited": s[MGC_S_PLY_LIMITED],
        }
    finally:
        free(first)
        free(s)
        free(moves)


# ---------------------------------------------------------------------------- the Python-facing state


cdef Core blank_core(Engine e):
    cdef Core core = Core.__new__(Core, e)
    return core


cdef inline void check_core(Engine e, Core core) except *:
    if core is not None and core.vt != e.vt:
        raise TypeError("a Core of another game")


def _core_from_bytes(str rules_name, bytes data):
    """The Core whose state Core.__reduce__ saved (in a process that loaded its game)."""
    cdef Engine e = _ENGINES.get(rules_name)
    if e is None:
        raise ValueError(f"the engine {rules_name} is not loaded in this process")
    if len(data) != e.vt.state_size:
        raise ValueError("not a state of this engine")
    cdef Core core = blank_core(e)
    memcpy(core.st, <const char*>data, e.vt.state_size)
    return core


cdef class Core:
    """One game state with the interpreter Core's protocol: legal(), apply(move), clone(),
    keys() and read-only terminal, current, last, ply, passes, ply_limited, board, hands,
    counters. Made by Engine.Core(seed), the start position."""

    cdef Engine eng
    cdef const MgcRules* vt
    cdef char* st

    def __cinit__(self, Engine eng not None):
        self.eng = eng
        self.vt = eng.vt
        self.st = <char*>calloc(1, eng.vt.state_size)
        if self.st == NULL:
            raise MemoryError()

    def __dealloc__(self):
        free(self.st)

    cdef long long get(self, int field, int i=0, int j=0):
        return self.vt.get_field(self.st, field, i, j)

    def restart(self, uint64_t seed, slots):
        """A new game for `seed` whose zones start as `slots` (every slot, as set_zones
        takes them) instead of what the shuffle dealt; then the start effects and settling,
        as the interpreter's Core(start_zones=...)."""
        if not self.vt.has_zones:
            raise ValueError("this game has no zones")
        self.vt.prepare_game(self.st, seed)
        self.set_zones(slots)
        self.vt.start_game(self.st)

    def clone(self):
        cdef Core other = blank_core(self.eng)
        memcpy(other.st, self.st, self.vt.state_size)
        return other

    def __reduce__(self):
        # the raw state: only meaningful to this very engine (same build, same machine)
        return (_core_from_bytes, (self.eng.rules.__name__, self.st[:self.vt.state_size]))

    def legal(self):
        """Legal move ids in ascending order ([] once the game is over)."""
        cdef int* scratch = self.eng.scratch
        cdef int n = self.vt.gen_legal(self.st, scratch)
        return [scratch[i] for i in range(n)]

    def apply(self, long long move):
        """Play a move known to be legal (the API layer checks legality)."""
        if not 0 <= move < self.vt.n_moves:
            raise ValueError(f"move id {move} out of range")
        self.vt.apply_move(self.st, <int>move, NULL)

    def compound_path(self, long long move):
        """The steps of a compound move legal here (see rules/compound.py): one dict per
        step, parameter name -> value."""
        if self.vt.compound_path == NULL:
            raise ValueError("this game has no compound moves")
        return (<compound_path_f>self.vt.compound_path)(self.st, move)

    def sample_chance(self):
        """The outcome of the due roll drawn from the state's chance stream (advancing it;
        the caller applies it)."""
        if not self.vt.has_chance:
            raise ValueError("this game has no dice")
        if not self.get(MGC_CHANCE) or self.get(MGC_TERMINAL):
            raise ValueError("no roll is due here")
        return self.vt.sample_outcome(self.st)

    def load(self, board, hands, int current, int last=-1, int ply=0, heights=None, counters=None):
        """Set up an arbitrary position (for rule tests and puzzles), then settle it.
        board: a piece id per cell; hands: [player][kind]; counters: [player][counter]
        then the game's row, as `counters` reads them (default: kept); heights: the stack
        height per cell (default 1 on every occupied cell)."""
        cdef const MgcRules* vt = self.vt
        cdef int c, p, k
        cdef int N_CELLS = vt.n_cells, N_PLAYERS = vt.n_players, N_KINDS = vt.n_kinds
        cdef int N_PIECES = vt.n_pieces, N_COUNTERS = vt.n_counters, MAX_HEIGHT = vt.max_height
        if len(board) < N_CELLS or len(hands) != N_PLAYERS or any(len(h) != N_KINDS for h in hands):
            raise ValueError(f"load() needs {N_CELLS} cells and {N_PLAYERS} hands of {N_KINDS} kinds")
        for c in range(N_CELLS):
            if not 0 <= board[c] < N_PIECES:
                raise ValueError(f"cell {c}: {board[c]} is not a piece id (0 .. {N_PIECES - 1})")
        if not -1 <= current < N_PLAYERS or not -1 <= last < N_PLAYERS:
            raise ValueError("current and last must be players (or -1)")
        if counters is not None and (len(counters) != N_PLAYERS + 1 or any(len(c) != N_COUNTERS for c in counters)):
            raise ValueError(f"counters: {N_PLAYERS + 1} lists (the players', then the game's) of {N_COUNTERS} values")
        if vt.has_stacks and heights is not None and (len(heights) < N_CELLS or any(not 1 <= heights[c] <= MAX_HEIGHT for c in range(N_CELLS) if board[c] > 0)):
            raise ValueError(f"heights: one per cell, 1..{MAX_HEIGHT} on occupied cells")
        for c in range(N_CELLS):
            vt.set_field(self.st, MGC_BOARD, c, 0, board[c])
            if vt.has_stacks:
                vt.set_field(self.st, MGC_HEIGHT, c, 0, ((1 if heights is None else heights[c]) if board[c] > 0 else 0))
        if vt.has_stacks:
            vt.set_field(self.st, MGC_HEIGHT, N_CELLS, 0, 0)
        vt.set_field(self.st, MGC_BOARD, N_CELLS, 0, -1)  # the off-board cell
        for p in range(N_PLAYERS):
            for k in range(N_KINDS):
                vt.set_field(self.st, MGC_HAND, p, k, hands[p][k])
        if counters is not None:
            for p in range(N_PLAYERS + 1):
                for k in range(N_COUNTERS):
                    vt.set_field(self.st, MGC_COUNTER, p, k, counters[p][k])
        vt.set_field(self.st, MGC_CURRENT, 0, 0, current)
        vt.set_field(self.st, MGC_LAST, 0, 0, last)
        vt.set_field(self.st, MGC_PLY, 0, 0, ply)
        vt.set_field(self.st, MGC_TERMINAL, 0, 0, 0)
        vt.set_field(self.st, MGC_PASSES, 0, 0, 0)
        vt.set_field(self.st, MGC_PLY_LIMITED, 0, 0, 0)
        if vt.has_again:
            vt.set_field(self.st, MGC_AGAIN, 0, 0, 0)
        if vt.has_chance:
            vt.set_field(self.st, MGC_CHANCE, 0, 0, 1)  # the loaded turn opens with a roll
        vt.load_finish(self.st)

    def set_counter(self, int row, int counter, long long value):
        """Counter ``counter`` of player ``row`` (the game's row: N_PLAYERS) becomes ``value``."""
        if not 0 <= row <= self.vt.n_players or not 0 <= counter < self.vt.n_counters:
            raise ValueError(f"set_counter: a row 0 .. {self.vt.n_players} and a counter 0 .. {self.vt.n_counters - 1}")
        self.vt.set_field(self.st, MGC_COUNTER, row, counter, value)

    def times_seen(self):
        """times_seen(): how many times this position has been reached."""
        if self.vt.times_seen == NULL:
            raise ValueError("this game keeps no history")
        return self.vt.times_seen(self.st)

    def position_key(self, int turn):
        """The hash of the position with `turn` to move (see midgardc/ir/history.py)."""
        if self.vt.position_key == NULL:
            raise ValueError("this game keeps no history")
        return self.vt.position_key(self.st, turn)

    def keys(self):
        """Ranking keys per player, as written in the spec (before lower_is_better)."""
        cdef int np = self.vt.n_players, nr = self.vt.n_rank
        cdef long long* keys = <long long*>malloc((np * nr + 1) * sizeof(long long))
        if keys == NULL:
            raise MemoryError()
        try:
            self.vt.rank_keys(self.st, keys)
            return [[keys[p * nr + j] for j in range(nr)] for p in range(np)]
        finally:
            free(keys)

    @property
    def terminal(self):
        return bool(self.get(MGC_TERMINAL))

    @property
    def current(self):
        return self.get(MGC_CURRENT)

    @property
    def last(self):
        return self.get(MGC_LAST)

    @property
    def ply(self):
        return self.get(MGC_PLY)

    @property
    def passes(self):
        return self.get(MGC_PASSES)

    @property
    def ply_limited(self):
        return bool(self.get(MGC_PLY_LIMITED))

    @property
    def chance(self):
        """Whether a roll is due (a chance node)."""
        return bool(self.get(MGC_CHANCE)) if self.vt.has_chance else False

    @property
    def roll(self):
        """The faces of the current roll (-1: not rolled yet)."""
        return [self.get(MGC_ROLL, k) for k in range(self.vt.n_dice)]

    @property
    def board(self):
        """Piece id per cell, and -1 for the off-board cell at index N_CELLS."""
        return [self.get(MGC_BOARD, c) for c in range(self.vt.n_cells + 1)]

    @property
    def deck(self):
        """Each player's deck, top first (item kinds; the first drawn[p] are gone)."""
        return [[self.get(MGC_DECK, p, i) for i in range(self.vt.deck_size)] for p in range(self.vt.n_players)]

    @property
    def drawn(self):
        return [self.get(MGC_DRAWN, p) for p in range(self.vt.n_players)] if self.vt.has_decks else [0] * self.vt.n_players

    @property
    def up(self):
        """Face-up items per player and kind."""
        return [[self.get(MGC_UP, p, k) for k in range(self.vt.n_item_kinds if self.vt.has_decks else 0)] for p in range(self.vt.n_players)]

    @property
    def discards(self):
        """Discard piles per player and kind."""
        return [[self.get(MGC_DISCARD, p, k) for k in range(self.vt.n_item_kinds if self.vt.has_decks else 0)] for p in range(self.vt.n_players)]

    @property
    def zones(self):
        """Every zone slot's content: an ordered slot's item kinds top first, an unordered
        slot's counts per kind (see midgardc/runtime/zones.py)."""
        cdef int slot
        out = []
        if not self.vt.has_zones:
            return out
        for slot in range(self.vt.n_zslots):
            if self.vt.slot_pile[slot] >= 0:
                out.append([self.get(MGC_ZPILE, self.vt.slot_pile[slot], i) for i in range(self.get(MGC_ZSIZE, slot))])
            else:
                out.append([self.get(MGC_ZCOUNT, slot, k) for k in range(self.vt.n_item_kinds)])
        return out

    def set_zones(self, slots):
        """Replace every zone slot's content (the format of `zones`), as the interpreter's
        Core.set_zones (which checks the slots the same way)."""
        cdef const MgcRules* vt = self.vt
        cdef int slot, k, i
        cdef int N_ZSLOTS = vt.n_zslots, ZONE_CAP = vt.zone_cap, N_ITEM_KINDS = vt.n_item_kinds
        if not vt.has_zones:
            if slots:
                raise ValueError("this game has no zones")
            return
        if len(slots) != N_ZSLOTS:
            raise ValueError(f"set_zones() needs {N_ZSLOTS} slots, got {len(slots)}")
        for slot in range(N_ZSLOTS):
            content = [int(v) for v in slots[slot]]
            if vt.slot_pile[slot] >= 0:
                if len(content) > ZONE_CAP or any(not 0 <= v < N_ITEM_KINDS for v in content):
                    raise ValueError(f"slot {slot}: a pile of at most {ZONE_CAP} item kinds 0..{N_ITEM_KINDS - 1}")
            elif len(content) != N_ITEM_KINDS or any(v < 0 for v in content) or sum(content) > ZONE_CAP:
                raise ValueError(f"slot {slot}: {N_ITEM_KINDS} counts, none negative, at most {ZONE_CAP} in all")
        if sum(len(slots[s]) if vt.slot_pile[s] >= 0 else sum(slots[s]) for s in range(N_ZSLOTS)) > ZONE_CAP:
            raise ValueError(f"set_zones(): at most {ZONE_CAP} items in all (the game's items)")
        for slot in range(N_ZSLOTS):
            content = [int(v) for v in slots[slot]]
            for k in range(N_ITEM_KINDS):
                vt.set_field(self.st, MGC_ZCOUNT, slot, k, 0)
            if vt.slot_pile[slot] >= 0:
                vt.set_field(self.st, MGC_ZSIZE, slot, 0, len(content))
                for i in range(len(content)):
                    vt.set_field(self.st, MGC_ZPILE, vt.slot_pile[slot], i, content[i])
                    vt.set_field(self.st, MGC_ZCOUNT, slot, content[i], self.get(MGC_ZCOUNT, slot, content[i]) + 1)
            else:
                vt.set_field(self.st, MGC_ZSIZE, slot, 0, sum(content))
                for k in range(N_ITEM_KINDS):
                    vt.set_field(self.st, MGC_ZCOUNT, slot, k, content[k])

    @property
    def heights(self):
        """Pieces stacked per cell, and 0 for the off-board cell at index N_CELLS."""
        if self.vt.has_stacks:
            return [self.get(MGC_HEIGHT, c) for c in range(self.vt.n_cells + 1)]
        return [1 if 0 < self.get(MGC_BOARD, c) else 0 for c in range(self.vt.n_cells)] + [0]

    @property
    def hands(self):
        return [[self.get(MGC_HAND, p, k) for k in range(self.vt.n_kinds)] for p in range(self.vt.n_players)]

    @property
    def counters(self):
        return [[self.get(MGC_COUNTER, p, k) for k in range(self.vt.n_counters)] for p in range(self.vt.n_players + 1)]  # then the game's row

    # -- determinization writes (midgardc.runtime.determinize): a player's sample of what it
    # cannot see is written into a copy of the state; the interpreter's Core sets the same
    # fields directly

    def set_deck(self, int player, items):
        """The undrawn part of ``player``'s deck becomes ``items`` (item kinds, top first;
        exactly as many as are left)."""
        cdef int i
        if not self.vt.has_decks:
            raise ValueError("this game has no decks")
        if not 0 <= player < self.vt.n_players or len(items) != self.vt.deck_size - self.get(MGC_DRAWN, player):
            raise ValueError("set_deck: a player and as many items as are left in the deck")
        if any(not 0 <= k < self.vt.n_item_kinds for k in items):
            raise ValueError(f"set_deck: item kinds are 0 .. {self.vt.n_item_kinds - 1}")
        drawn = self.get(MGC_DRAWN, player)
        for i in range(len(items)):
            self.vt.set_field(self.st, MGC_DECK, player, drawn + i, items[i])

    def reseed(self, uint64_t seed):
        """A new chance stream, ``derive_seed(seed, CHANCE_STREAM)`` (as rollouts give each
        game): a sampled state must not carry the real game's future draws."""
        self.vt.reseed(self.st, seed)


# ---------------------------------------------------------------------------- batches of games
# B games stepped at once for learning (midgardc/batch.py): the actions in, then for every
# game in C without the GIL: the move, the dice (the game's own chance stream), the result
# (returns from ranks, as midgardc/runtime/results.py), a new game when it ends
# (auto-reset), the observation tensor of the player to move (the rules' fill_tensor) and
# its legal-action mask. Slot i's k-th game is seeded derive_seed(derive_seed(seed, i), k)
# and starts as Core(that seed) does.


cdef class Batch:
    """B games in C (see midgardc/batch.py, which owns the arrays: they are bound here once,
    and every call writes into them). Observations are for the player to move; the tensor
    layout and every viewer's visibility masks are given once (layout: the part offsets
    then the size; viewer v's masks at v * their length)."""

    cdef Engine eng
    cdef const MgcRules* vt
    cdef char* st             # n states of vt.state_size bytes
    cdef long long* started   # games started in each slot (the k of its seed)
    cdef int* n_legal         # legal actions in each slot
    cdef int* legal           # each slot's legal actions, ascending (the first `cap` of them)
    cdef int cap              # room per slot in `legal`: min(n_actions, room); a slot with more scans its mask
    cdef int* moves           # a legal-move buffer (N_MOVES)
    cdef int* lead            # N_PLAYERS: the leaders of a finished game
    cdef int n
    cdef uint64_t seed
    cdef Rng rng              # the random actions of step_random()
    cdef int* layout
    cdef unsigned char* seen_places
    cdef unsigned char* seen_counters
    cdef int n_places, n_seen_counters, n_actions
    # a declared action space (midgardc/research/actions.py): amap[p * n_pm + move] is the
    # action id of a player's move for seat p (-1: none); act_move[i * n_actions + a] is the
    # move of slot i's legal action a (valid where the mask is set). NULL: ids are moves.
    cdef int* amap
    cdef int* act_move
    cdef int n_pm             # the players' move ids (below them: a player's move)
    cdef int bad              # 1 + a slot whose legal moves the map does not number one to one
    # the bound arrays (kept alive by the views) and their data
    cdef float[:, ::1] obs_v
    cdef signed char[:, ::1] mask_v
    cdef float[:, ::1] rewards_v
    cdef unsigned char[::1] done_v
    cdef unsigned char[::1] truncated_v
    cdef int[::1] player_v
    cdef float* obs
    cdef signed char* mask
    cdef float* rewards
    cdef unsigned char* done
    cdef unsigned char* truncated
    cdef int* player
    cdef float[:, :, ::1] final_v  # each seat's tensor of a game that ended in the last step
    cdef float* final               # (NULL: not kept; see keep_final)
    cdef int osize                  # floats per observation: the tensor's, or the view's
    # a learning-ready view (midgardc/research/view.py's Runs; NULL vrun: the raw tensor):
    # per seat, vruns runs; a run writes `rows` rows of `length` elements, element t of row
    # u `op` on ext[src + u * row_step + t * src_step] (one-hot value a + u * a_row_step +
    # t * a_step), all 0 unless ext[gate] != 0; ext is the slot's
    # extended raw vector: the tensor, the board parts of the positions before (vk - 1,
    # newest first), times_seen() at vrep (-1: none)
    cdef ViewRun* vrun            # [players][vruns]
    cdef int vruns
    cdef float* ext                 # n * vext floats
    cdef int vext, vk, vhist_src, vhist_off, vhist_size, vrep

    def __cinit__(self, Engine eng not None, int n, uint64_t seed, layout, bytes places, bytes counters, int n_places, int n_actions,
                  float[:, ::1] obs, signed char[:, ::1] mask, float[:, ::1] rewards, unsigned char[::1] done, unsigned char[::1] truncated, int[::1] player,
                  int room=512, const int[:, ::1] table=None):
        cdef const MgcRules* vt = eng.vt
        cdef int i
        cdef int parts = vt.n_tensor_parts
        cdef int N_PLAYERS = vt.n_players
        self.eng = eng
        self.vt = vt
        if n < 1:
            raise ValueError("a batch holds at least one game")
        if len(layout) != parts + 1:
            raise ValueError(f"layout: {parts} part offsets and the size")
        if len(places) != N_PLAYERS * n_places or len(counters) != N_PLAYERS * (N_PLAYERS + 1) * vt.n_counters:
            raise ValueError("visibility masks of the wrong size")
        self.amap = NULL
        self.act_move = NULL
        self.bad = 0
        if table is None:
            if not 0 < n_actions <= vt.n_moves:
                raise ValueError("n_actions: the players' move ids")
            self.n_pm = n_actions
        else:
            if n_actions < 1 or table.shape[0] != N_PLAYERS or not 0 < table.shape[1] <= vt.n_moves:
                raise ValueError("table: [players, the players' move ids] of action ids")
            self.n_pm = table.shape[1]
            self.amap = <int*>malloc(<size_t>N_PLAYERS * self.n_pm * sizeof(int))
            self.act_move = <int*>malloc(<size_t>n * n_actions * sizeof(int))
            if not (self.amap and self.act_move):
                raise MemoryError()
            memcpy(self.amap, &table[0, 0], <size_t>N_PLAYERS * self.n_pm * sizeof(int))
            for i in range(N_PLAYERS * self.n_pm):
                if self.amap[i] >= n_actions:
                    raise ValueError("table: an action id beyond n_actions")
        if obs is not None and (obs.shape[0] != n or obs.shape[1] != layout[parts]):  # (None: a view's, see use_view)
            raise ValueError("the batch's arrays do not match its games")
        if (mask.shape[0] != n or mask.shape[1] != n_actions
                or rewards.shape[0] != n or rewards.shape[1] != N_PLAYERS or done.shape[0] != n or truncated.shape[0] != n or player.shape[0] != n):
            raise ValueError("the batch's arrays do not match its games")
        self.st = <char*>malloc(<size_t>n * vt.state_size)
        self.started = <long long*>malloc(n * sizeof(long long))
        self.n_legal = <int*>malloc(n * sizeof(int))
        if room < 1:
            raise ValueError("room: at least one legal action kept per slot")
        self.cap = min(n_actions, room)
        self.legal = <int*>malloc(<size_t>n * self.cap * sizeof(int))
        self.moves = <int*>malloc(vt.n_moves * sizeof(int))
        self.lead = <int*>malloc(N_PLAYERS * sizeof(int))
        self.layout = <int*>malloc((parts + 1) * sizeof(int))
        self.seen_places = <unsigned char*>malloc(len(places) + 1)
        self.seen_counters = <unsigned char*>malloc(len(counters) + 1)
        if not (self.st and self.started and self.n_legal and self.legal and self.moves and self.lead and self.layout and self.seen_places and self.seen_counters):
            raise MemoryError()
        memcpy(self.seen_places, <const char*>places, len(places))
        memcpy(self.seen_counters, <const char*>counters, len(counters))
        for i in range(parts + 1):
            self.layout[i] = layout[i]
        self.n = n
        self.seed = seed
        self.rng.state = derive_seed(seed, <uint64_t>-1)
        self.n_places = n_places
        self.n_seen_counters = (N_PLAYERS + 1) * vt.n_counters
        self.n_actions = n_actions
        self.mask_v, self.rewards_v, self.done_v, self.truncated_v, self.player_v = mask, rewards, done, truncated, player
        self.obs = NULL
        if obs is not None:
            self.obs_v = obs
            self.obs = &obs[0, 0]
        self.mask, self.rewards = &mask[0, 0], &rewards[0, 0]
        self.done, self.truncated, self.player = &done[0], &truncated[0], &player[0]
        self.final = NULL
        self.osize = layout[parts]
        self.vrun = NULL
        self.ext = NULL
        for i in range(n):
            self.started[i] = 0
            self.n_legal[i] = 0

    def __dealloc__(self):
        free(self.st)
        free(self.started)
        free(self.n_legal)
        free(self.legal)
        free(self.moves)
        free(self.lead)
        free(self.layout)
        free(self.seen_places)
        free(self.seen_counters)
        free(self.amap)
        free(self.act_move)
        free(self.vrun)
        free(self.ext)

    def use_view(self, float[:, ::1] obs, int size, runs, int ext_size, int k, int hist_src, int hist_off, int hist_size, int rep):
        """Observe through a view: ``runs`` are midgardc/research/view.py's Runs (arrays
        [players, runs]); obs [n, size] is bound in place of the raw tensor's array. Before
        the first reset."""
        cdef int P = self.vt.n_players
        cdef int raw = self.layout[self.vt.n_tensor_parts]
        cdef const int[:, ::1] src = runs.src
        cdef const int[:, ::1] sstep = runs.src_step
        cdef const int[:, ::1] gate = runs.gate
        cdef const unsigned char[:, ::1] op = runs.op
        cdef const float[:, ::1] a = runs.a
        cdef const int[:, ::1] astep = runs.a_step
        cdef const float[:, ::1] b = runs.b
        cdef const int[:, ::1] length = runs.length
        cdef const int[:, ::1] rows = runs.rows
        cdef const int[:, ::1] rstep = runs.row_step
        cdef const int[:, ::1] arstep = runs.a_row_step
        cdef long long first, last
        cdef int R = src.shape[1]
        cdef size_t cells = <size_t>P * R
        cdef int i, r, total
        cdef ViewRun* w
        if self.vrun != NULL:
            raise ValueError("the batch already observes through a view")
        if any(x.shape != (P, R) for x in (runs.src_step, runs.gate, runs.op, runs.a, runs.a_step, runs.b, runs.length, runs.rows, runs.row_step, runs.a_row_step)) or src.shape[0] != P:
            raise ValueError("view runs: [players, runs] each")
        if obs.shape[0] != self.n or obs.shape[1] != size:
            raise ValueError("obs: [games, the view's size]")
        if k < 1 or ext_size != raw + (k - 1) * hist_size + (1 if rep >= 0 else 0) or hist_off != raw or not 0 <= hist_src <= raw - hist_size:
            raise ValueError("the view's extended vector does not match the tensor")
        if rep >= 0 and self.vt.times_seen == NULL:
            raise ValueError("a repetition count needs a game that keeps a history")
        for i in range(P):  # every run inside the extended vector, every seat's runs filling the view
            total = 0
            for r in range(R):
                if length[i, r] < 0 or rows[i, r] < 1 or op[i, r] > 2 or not -1 <= gate[i, r] < ext_size:
                    raise ValueError("a view run out of range")
                if length[i, r] and src[i, r] >= 0:  # its four corners inside ext (steps are even)
                    for first in (src[i, r], src[i, r] + <long long>(rows[i, r] - 1) * rstep[i, r]):
                        last = first + <long long>(length[i, r] - 1) * sstep[i, r]
                        if not (0 <= first < ext_size and 0 <= last < ext_size):
                            raise ValueError("a view run outside the extended vector")
                total += length[i, r] * rows[i, r]
            if total != size:
                raise ValueError("a seat's view runs do not fill the view")
        self.vrun = <ViewRun*>malloc(cells * sizeof(ViewRun) + 1)
        self.ext = <float*>calloc(<size_t>self.n * ext_size, sizeof(float))
        if not (self.vrun and self.ext):
            raise MemoryError()
        for i in range(P):
            for r in range(R):
                w = &self.vrun[i * R + r]
                w.src, w.src_step, w.gate, w.length = src[i, r], sstep[i, r], gate[i, r], length[i, r]
                w.rows, w.row_step, w.a_step, w.a_row_step = rows[i, r], rstep[i, r], astep[i, r], arstep[i, r]
                w.a, w.b, w.op = a[i, r], b[i, r], op[i, r]
        self.vruns = R
        self.vext, self.vk, self.vhist_src, self.vhist_off, self.vhist_size, self.vrep = ext_size, k, hist_src, hist_off, hist_size, rep
        self.osize = size
        self.obs_v = obs
        self.obs = &obs[0, 0]

    cdef void fill_obs(self, int i, int p, float* out) noexcept nogil:
        """Slot i's observation as seat p sees it: the raw tensor, or the view's (its runs)."""
        cdef const char* st = self.slot(i)
        cdef float* ext
        cdef int r, t, u, n, s, ss, rows, rs, base = p * self.vruns
        cdef const ViewRun* w
        cdef float x, y, a, b, astep
        cdef unsigned char op
        if self.vrun == NULL:
            self.vt.fill_tensor(st, out, self.layout, self.seen_places + p * self.n_places, self.seen_counters + p * self.n_seen_counters)
            return
        ext = self.ext + <long long>i * self.vext
        self.vt.fill_tensor(st, ext, self.layout, self.seen_places + p * self.n_places, self.seen_counters + p * self.n_seen_counters)
        if self.vrep >= 0:
            ext[self.vrep] = self.vt.times_seen(<void*>st)
        for r in range(base, base + self.vruns):
            w = &self.vrun[r]
            n = w.length
            s = w.src
            if s < 0 or (w.gate >= 0 and ext[w.gate] == 0):
                memset(out, 0, n * w.rows * sizeof(float))
                out += n * w.rows
                continue
            ss = w.src_step
            if ss == 0 and w.row_step == 0 and (w.op != 2 or (w.a_step == 0 and w.a_row_step == 0)):  # a constant
                x = ext[s]
                if w.op == 1:
                    y = (x - w.a) * w.b
                    x = 0 if y < 0 else (1 if y > 1 else y)
                elif w.op == 2:
                    x = 1 if x == w.a else 0
                n *= w.rows
                for t in range(n):
                    out[t] = x
                out += n
                continue
            if w.op == 0 and ss == 1:  # board planes, rows (mirrored: rows read backwards)
                rows, rs = w.rows, w.row_step  # (locals: no reload after each store)
                for u in range(rows):
                    memcpy(out, ext + s, n * sizeof(float))
                    out += n
                    s += rs
                continue
            rows, rs, op, a, b = w.rows, w.row_step, w.op, w.a, w.b
            astep = <float>w.a_step
            for u in range(rows):
                if op == 0:
                    if ss == 0:
                        x = ext[s]
                        for t in range(n):
                            out[t] = x
                    else:
                        for t in range(n):
                            out[t] = ext[s + t * ss]
                elif op == 1:
                    for t in range(n):
                        y = (ext[s + t * ss] - a) * b
                        out[t] = 0 if y < 0 else (1 if y > 1 else y)
                else:
                    for t in range(n):
                        out[t] = 1 if ext[s + t * ss] == a + t * astep else 0
                    a += <float>w.a_row_step
                out += n
                s += rs

    cdef void push_position(self, int i) noexcept nogil:
        """Before a player's move in slot i: its position's board part (in ext since its
        last observation) becomes the newest of the history, the oldest dropped."""
        cdef float* ext
        if self.vrun == NULL or self.vk < 2:
            return
        ext = self.ext + <long long>i * self.vext
        if self.vk > 2:
            memmove(ext + self.vhist_off + self.vhist_size, ext + self.vhist_off, <size_t>(self.vk - 2) * self.vhist_size * sizeof(float))
        memcpy(ext + self.vhist_off, ext + self.vhist_src, <size_t>self.vhist_size * sizeof(float))

    cdef inline char* slot(self, int i) noexcept nogil:
        return self.st + <size_t>i * self.vt.state_size

    cdef int start(self, int i) noexcept nogil:
        """Slot i's next game, its dice rolled; its legal moves in self.moves."""
        cdef char* st = self.slot(i)
        self.vt.new_game(st, derive_seed(derive_seed(self.seed, <uint64_t>i), <uint64_t>self.started[i]))
        self.started[i] += 1
        if self.vrun != NULL and self.vk > 1:  # a new game: no positions before
            memset(self.ext + <long long>i * self.vext + self.vhist_off, 0, <size_t>(self.vk - 1) * self.vhist_size * sizeof(float))
        return self.vt.settle_rolls(st, self.vt.gen_legal(st, self.moves), self.moves)

    cdef void returns(self, char* st, float* out) noexcept nogil:
        """Each seat's return of a finished game: k tied leaders get (n - k) / k (1 in a
        one-seat game), the others -1; 0 for everyone in a game stopped by the ply limit."""
        cdef long long margin
        cdef int N_PLAYERS = self.vt.n_players
        cdef int p, k = self.vt.outcome(st, &margin, self.lead)
        for p in range(N_PLAYERS):
            if k == 0:
                out[p] = 0
            elif self.lead[p]:
                out[p] = 1 if N_PLAYERS == 1 else <float>(N_PLAYERS - k) / k
            else:
                out[p] = -1

    cdef void observe(self, int i, int n) noexcept nogil:
        """Slot i's tensor for the player to move, its n legal moves (listed in self.moves:
        kept, and written as the mask), who that is."""
        cdef char* st = self.slot(i)
        cdef int current = st_int(self.vt, st, self.vt.off_current)
        cdef int p = current if current >= 0 else 0
        cdef int k, m, mv, a
        cdef signed char* row = self.mask + <long long>i * self.n_actions
        cdef int* legal = self.legal + <long long>i * self.cap
        self.player[i] = current
        self.fill_obs(i, p, self.obs + <long long>i * self.osize)
        memset(row, 0, self.n_actions)
        k = 0
        for m in range(n):
            mv = self.moves[m]
            if mv < self.n_pm:  # (always: a player's move)
                a = mv
                if self.amap != NULL:
                    a = self.amap[p * self.n_pm + mv]
                    if a < 0 or row[a]:  # no id, or one taken: not one to one (step raises)
                        if not self.bad:
                            self.bad = 1 + i
                        continue
                    self.act_move[<long long>i * self.n_actions + a] = mv
                row[a] = 1
                if k < self.cap:
                    legal[k] = a
                k += 1
        self.n_legal[i] = k

    cdef inline int to_move(self, int i, int a) noexcept nogil:
        """The move of slot i's legal action a."""
        if self.amap == NULL:
            return a
        return self.act_move[<long long>i * self.n_actions + a]

    cdef check_bad(self):
        """Raise when an observation met legal moves the action map does not number one to one."""
        cdef int i = self.bad - 1
        if self.bad:
            self.bad = 0
            raise ValueError(f"game {i}: a legal move has no action id, or two share one (the spec's action_space)")

    cdef void advance(self, int i, int move) noexcept nogil:
        cdef char* st = self.slot(i)
        cdef int p
        cdef int N_PLAYERS = self.vt.n_players
        cdef int n
        self.push_position(i)
        n = self.vt.settle_rolls(st, self.vt.apply_move(st, move, self.moves), self.moves)
        self.done[i] = 0
        self.truncated[i] = 0
        if st_int(self.vt, st, self.vt.off_terminal):
            if self.final != NULL:  # the finished game, as every seat sees it, before the next starts
                self.write_seats(i, self.final + <long long>i * N_PLAYERS * self.osize)
            self.returns(st, self.rewards + i * N_PLAYERS)
            self.done[i] = 1
            self.truncated[i] = <unsigned char>self.vt.get_field(st, MGC_PLY_LIMITED, 0, 0)
            n = self.start(i)
        else:
            for p in range(N_PLAYERS):
                self.rewards[i * N_PLAYERS + p] = 0
        self.observe(i, n)

    cdef void write_seats(self, int i, float* out) noexcept nogil:
        """Slot i's tensor as each seat sees it, seat after seat."""
        cdef int p
        for p in range(self.vt.n_players):
            self.fill_obs(i, p, out + p * self.osize)

    cdef check_seats(self, float[:, :, ::1] a, str what):
        """a is [games, players, tensor size] for this batch, else a ValueError."""
        if a.shape[0] != self.n or a.shape[1] != self.vt.n_players or a.shape[2] != self.osize:
            raise ValueError(f"{what}: [games, players, tensor size]")

    def keep_final(self, float[:, :, ::1] final):
        """Bind [n, players, size]: when a step ends slot i's game, row i gets that game's
        last tensor for every seat (before the next game starts); other rows are left."""
        self.check_seats(final, "final")
        self.final_v = final
        self.final = &final[0, 0, 0]

    def observe_seats(self, float[:, :, ::1] out):
        """Write every slot's tensor for every seat into out [n, players, size]."""
        cdef int i
        self.check_seats(out, "out")
        with nogil:
            for i in range(self.n):
                self.write_seats(i, &out[i, 0, 0])

    def reseed(self, uint64_t seed):
        """Seed the batch again: slot i's next game is its game 0 of `seed`; step_random's
        stream restarts from `seed`."""
        cdef int i
        self.seed = seed
        self.rng.state = derive_seed(seed, <uint64_t>-1)
        for i in range(self.n):
            self.started[i] = 0

    def reset_slots(self, const unsigned char[::1] which):
        """The slots i with which[i] != 0 start their next game (observation, mask, player
        written; done, truncated and rewards 0); the others are left as they are."""
        cdef int i, p, n
        cdef int N_PLAYERS = self.vt.n_players
        if which.shape[0] != self.n:
            raise ValueError(f"one flag per game: {self.n}, got {which.shape[0]}")
        with nogil:
            for i in range(self.n):
                if which[i]:
                    n = self.start(i)
                    self.observe(i, n)
                    self.done[i] = 0
                    self.truncated[i] = 0
                    for p in range(N_PLAYERS):
                        self.rewards[i * N_PLAYERS + p] = 0
        self.check_bad()

    def save(self):
        """The games (their opaque state bytes), their counts, their kept legal actions and
        the random stream, as bytes (restore() takes them back; the bound arrays are the
        caller's to copy)."""
        cdef size_t n = self.n
        cdef size_t na = n * self.n_actions if self.act_move != NULL else 0
        cdef size_t ne = n * self.vext if self.ext != NULL else 0
        return (self.seed, self.rng.state, self.st[:n * self.vt.state_size], (<char*>self.started)[:n * sizeof(long long)],
                (<char*>self.n_legal)[:n * sizeof(int)], (<char*>self.legal)[:n * self.cap * sizeof(int)],
                (<char*>self.act_move)[:na * sizeof(int)] if na else b"", (<char*>self.ext)[:ne * sizeof(float)] if ne else b"")

    def restore(self, saved):
        """Back to a save() of a batch of the same game, size and room (checked whole
        before anything is written)."""
        cdef size_t n = self.n
        cdef size_t na = n * self.n_actions if self.act_move != NULL else 0
        cdef size_t ne = n * self.vext if self.ext != NULL else 0
        seed, rng, st, started, n_legal, legal, act_move, ext = saved
        if (len(st), len(started), len(n_legal), len(legal), len(act_move), len(ext)) != (n * self.vt.state_size, n * sizeof(long long), n * sizeof(int), n * self.cap * sizeof(int), na * sizeof(int), ne * sizeof(float)):
            raise ValueError("a save of another batch (not this game, size and room)")
        memcpy(self.st, <const char*>st, len(st))
        memcpy(self.started, <const char*>started, len(started))
        memcpy(self.n_legal, <const char*>n_legal, len(n_legal))
        memcpy(self.legal, <const char*>legal, len(legal))
        if na:
            memcpy(self.act_move, <const char*>act_move, len(act_move))
        if ne:
            memcpy(self.ext, <const char*>ext, len(ext))
        self.seed = seed
        self.rng.state = rng

    def reset(self):
        """Every slot starts its next game; their observations, masks and players."""
        cdef int i, n
        if self.obs == NULL:
            raise ValueError("no observation array: pass obs, or call use_view first")
        with nogil:
            for i in range(self.n):
                n = self.start(i)
                self.observe(i, n)
                self.done[i] = 0
                self.truncated[i] = 0
        for i in range(self.n * self.vt.n_players):
            self.rewards[i] = 0
        self.check_bad()

    def step(self, const long long[::1] actions):
        """One legal action per slot (checked against the slot's mask), then everything
        else in C (see above)."""
        cdef int i
        if actions.shape[0] != self.n:
            raise ValueError(f"one action per game: {self.n}, got {actions.shape[0]}")
        for i in range(self.n):
            if not 0 <= actions[i] < self.n_actions or not self.mask[<long long>i * self.n_actions + actions[i]]:
                raise ValueError(f"game {i}: action {actions[i]} is not legal there (see the mask)")
        with nogil:
            for i in range(self.n):
                self.advance(i, self.to_move(i, <int>actions[i]))
        self.check_bad()

    def step_random(self):
        """step() with a uniformly random legal action in every slot, drawn in C: the r-th
        of the slot's legal actions (ascending), r = rng_below(their count) from the
        batch's own stream (derive_seed(seed, 2**64 - 1))."""
        cdef int i, r, m
        cdef signed char* row
        with nogil:
            for i in range(self.n):
                r = rng_below(&self.rng, self.n_legal[i])
                if r < self.cap:
                    m = self.legal[<long long>i * self.cap + r]
                else:  # beyond the kept list: the r-th one of the mask
                    row = self.mask + <long long>i * self.n_actions
                    m = 0
                    while True:
                        if row[m]:
                            if r == 0:
                                break
                            r -= 1
                        m += 1
                self.advance(i, self.to_move(i, m))
        self.check_bad()

    def step_sample(self, const float[:, ::1] probs, long long[::1] chosen):
        """step() with an action per slot drawn in C from ``probs`` [n, n_actions] restricted
        to the slot's legal actions (weights max(p, 0), not renormalised by the caller;
        uniform when they sum to 0); the actions drawn are written to ``chosen``. Draws
        come from step_random's stream: u = (next >> 11) / 2**53, the first legal action
        (ascending) whose running weight exceeds u * total."""
        cdef int i, k, a, kept
        cdef double total, u, w
        cdef signed char* row
        cdef const float* pr
        cdef int* legal
        if probs.shape[0] != self.n or probs.shape[1] != self.n_actions or chosen.shape[0] != self.n:
            raise ValueError(f"probs: [{self.n}, {self.n_actions}]; chosen: [{self.n}]")
        with nogil:
            for i in range(self.n):
                pr = &probs[i, 0]
                row = self.mask + <long long>i * self.n_actions
                legal = self.legal + <long long>i * self.cap
                kept = self.n_legal[i] <= self.cap  # all legal actions listed: no mask scan
                total = 0
                if kept:
                    for k in range(self.n_legal[i]):
                        w = pr[legal[k]]
                        if w > 0:
                            total += w
                else:
                    for a in range(self.n_actions):
                        if row[a] and pr[a] > 0:
                            total += pr[a]
                u = <double>(rng_next(&self.rng) >> 11) * (1.0 / 9007199254740992.0)
                a = -1
                if total > 0:
                    u *= total
                    if kept:
                        for k in range(self.n_legal[i]):
                            w = pr[legal[k]]
                            if w > 0:
                                a = legal[k]  # (the last positive one, should rounding leave u)
                                u -= w
                                if u < 0:
                                    break
                    else:
                        for k in range(self.n_actions):
                            if row[k] and pr[k] > 0:
                                a = k
                                u -= pr[k]
                                if u < 0:
                                    break
                else:  # no weight on a legal action: uniform
                    k = <int>(u * self.n_legal[i])
                    if kept:
                        a = legal[k]
                    else:
                        a = 0
                        while True:
                            if row[a]:
                                if k == 0:
                                    break
                                k -= 1
                            a += 1
                chosen[i] = a
                self.advance(i, self.to_move(i, a))
        self.check_bad()

    def core(self, int i):
        """A copy of slot i's state as a Core (for tests and inspection)."""
        cdef Core c
        if not 0 <= i < self.n:
            raise IndexError(f"no game {i} in a batch of {self.n}")
        c = blank_core(self.eng)
        memcpy(c.st, self.slot(i), self.vt.state_size)
        return c

    @property
    def games_started(self):
        """Games started in each slot so far."""
        return [self.started[i] for i in range(self.n)]


# ---------------------------------------------------------------------------- tree search (MCTS)
# The MCTS player's whole search in C without the GIL: the algorithm of
# midgardc/players/mcts.py (its plain Python twin), draw for draw on the same SplitMix64
# stream and with the same float arithmetic and tie-breaking, so a seed plays the same game
# on both engines. Nodes live in a pool of C structs (indices, no Python objects) that
# doubles when full; children are kept in creation order (a linked list), which is the
# order the twin scans them in, so ties go the same way. The rollouts from a leaf are one
# call of the rules module's run_playouts (its loop inlined there).
#
# mcts_search():     UCT on one position (nothing hidden): each node keeps its state, its
#                    untried moves (drawn at random, removed by swapping the last in) and
#                    its chance outcomes (drawn by their odds, a child made the first time).
# mcts_search_set(): single-observer information-set MCTS: each iteration samples what the
#                    player cannot see (a Fisher-Yates shuffle of each hidden pool of items,
#                    as midgardc/runtime/determinize.py deals it), descends through the
#                    children legal in that sample, expands one legal untried move, selects
#                    by UCB1 with availability counts.
# Both return the root's children as (move, visits, reward) in creation order and the
# RNG's new state; the player picks the most visited move (ties at random) in Python.

ctypedef struct MNode:
    long long visits                 # rollouts through this node
    long long avail                  # (information sets) iterations in which its move was legal at its parent, times rollouts
    double reward                    # summed share of the win of `mover`
    double mean                      # reward / visits, as of the last backup (UCB1's first term)
    int mover                        # who moved into it (-1: nobody, the root or a roll)
    int move                         # the move into it
    int parent
    int first_child                  # children in creation order: first_child, then next_sibling
    int last_child
    int next_sibling
    int n_untried                    # (one position) untried moves, at MPool.moves[untried_at ..]
    long long untried_at
    bint chance                      # (one position) a roll is due here

ctypedef struct MPool:
    const MgcRules* vt
    size_t ss                        # the state size
    MNode* nodes
    char* states                     # (one position) each node's state (ss bytes each); NULL for information sets
    int n_nodes
    int cap_nodes
    int* moves                       # the untried moves of every node, block by block
    long long n_moves
    long long cap_moves
    int* buf                         # N_MOVES scratch: legal moves, outcomes, untried moves
    int* legal                       # N_MOVES scratch: the legal moves of a sample
    int* roll                        # N_MOVES scratch for the rollouts
    int* slot_of                     # N_MOVES: move -> its child at the node being looked at (-1)
    unsigned char* allowed           # N_MOVES: (information sets) the player's real legal moves
    char* base                       # (information sets) the state samples start from
    Rng rng
    double c
    long long n                      # rollouts per iteration
    # (one position) UCB1's second term k / sqrt(v) for a child of v visits, memoised per
    # selection step: siblings often share a visit count, and k is the same for all of them
    # (the same operands, so the same double as computing it afresh)
    double* explore                  # [v]: k / sqrt(v) of the selection step stamped at [v]
    long long* explore_at            # [v]: the selection step it was computed in (0: never)
    long long n_explore              # entries (visit counts 0 .. n_explore - 1)
    long long step                   # selection steps so far
    long long* stats                 # the rules' Stats (MGC_S_* layout)
    double* shares                   # N_PLAYERS
    # (information sets) the hidden pools: pool g holds places g_start[g] .. g_start[g+1]-1;
    # place i is a zone slot (p_src 0) or a player's deck (1), p_target, p_len items; the
    # pool's items (as the state holds them) are items[i_start[g] .. i_start[g+1]-1]
    int n_groups
    int* g_start
    int* i_start
    int* p_src
    int* p_target
    int* p_len
    unsigned char* items
    unsigned char* shuffle


cdef inline char* mc_state(MPool* P, int node) noexcept nogil:
    return P.states + <size_t>node * P.ss


cdef int mc_new_node(MPool* P, int parent, int move, int mover) noexcept nogil:
    """A new node (the last child of `parent`), or -1 when memory runs out. Pointers into
    the pool are stale afterwards (it may move)."""
    cdef MNode* grown
    cdef char* states
    cdef int cap
    cdef int i = P.n_nodes
    cdef MNode* nd
    if i == P.cap_nodes:
        cap = P.cap_nodes * 2
        grown = <MNode*>realloc(P.nodes, cap * sizeof(MNode))
        if grown == NULL:
            return -1
        P.nodes = grown
        if P.states != NULL:
            states = <char*>realloc(P.states, <size_t>cap * P.ss)
            if states == NULL:
                return -1
            P.states = states
        P.cap_nodes = cap
    P.n_nodes += 1
    nd = &P.nodes[i]
    nd.visits = 0
    nd.avail = 0
    nd.reward = 0.0
    nd.mean = 0.0
    nd.mover = mover
    nd.move = move
    nd.parent = parent
    nd.first_child = -1
    nd.last_child = -1
    nd.next_sibling = -1
    nd.n_untried = 0
    nd.untried_at = 0
    nd.chance = False
    if parent >= 0:
        if P.nodes[parent].last_child >= 0:
            P.nodes[P.nodes[parent].last_child].next_sibling = i
        else:
            P.nodes[parent].first_child = i
        P.nodes[parent].last_child = i
    return i


cdef int mc_child(MPool* P, int node, int move) noexcept nogil:
    """The child of `node` reached by `move`, or -1."""
    cdef int ch = P.nodes[node].first_child
    while ch >= 0:
        if P.nodes[ch].move == move:
            return ch
        ch = P.nodes[ch].next_sibling
    return -1


cdef int mc_draw_outcome(MPool* P, char* st, int* buf) noexcept nogil:
    """A due roll's outcome by its odds (as draw_outcome() in midgardc/players/mcts.py)."""
    cdef const MgcRules* vt = P.vt
    cdef int n, i, pick, weight
    cdef int total = 0
    if vt.chance_weight == NULL:
        return -1
    n = vt.gen_legal(st, buf)
    for i in range(n):
        total += vt.chance_weight[buf[i] - vt.chance_base]
    pick = rng_below(&P.rng, total)
    for i in range(n):
        weight = vt.chance_weight[buf[i] - vt.chance_base]
        if pick < weight:
            return buf[i]
        pick -= weight
    return -1


cdef void mc_backup(MPool* P, const char* st, int leaf) noexcept nogil:
    """Rollouts from `st` (one seed drawn), then each node from `leaf` up to the root gains
    the visits and its mover's summed share (midgardc.runtime.results.summed_shares)."""
    cdef int np = P.vt.n_players
    cdef double s
    cdef long long count
    cdef int p, j
    cdef int node = leaf
    cdef const long long* firsts = P.stats + MGC_S_WINS + np
    memset(P.stats, 0, P.vt.stats_size)
    P.vt.run_playouts(st, False, rng_next(&P.rng), 0, P.n, P.stats, P.roll, False)
    for p in range(np):
        s = 0.0
        for j in range(np):
            count = firsts[p * np + j]
            if count:
                s = s + <double>count / <double>(j + 1)
        P.shares[p] = s + <double>P.stats[MGC_S_PLY_LIMITED] / <double>np
    while node >= 0:
        P.nodes[node].visits += P.n
        if P.nodes[node].mover >= 0:
            P.nodes[node].reward += P.shares[P.nodes[node].mover]
        P.nodes[node].mean = P.nodes[node].reward / <double>P.nodes[node].visits
        node = P.nodes[node].parent


# -- one position (nothing hidden)

cdef int mc_tree_node(MPool* P, int parent, int move, int mover) noexcept nogil:
    """A new node whose state is its parent's after `move` (the root: its state as it is),
    with its untried moves listed; -1 when memory runs out."""
    cdef int i = mc_new_node(P, parent, move, mover)
    cdef int* grown
    cdef long long cap
    cdef int n, k
    cdef char* st
    if i < 0:
        return -1
    st = mc_state(P, i)
    if parent >= 0:
        memcpy(st, mc_state(P, parent), P.ss)
        n = P.vt.apply_move(st, move, P.buf)  # (settling lists the legal moves: gen_legal's)
    else:
        n = P.vt.gen_legal(st, P.buf)
    if st_chance(P.vt, st):
        P.nodes[i].chance = True
        return i
    if P.n_moves + n > P.cap_moves:
        cap = P.cap_moves * 2
        while cap < P.n_moves + n:
            cap *= 2
        grown = <int*>realloc(P.moves, cap * sizeof(int))
        if grown == NULL:
            return -1
        P.moves = grown
        P.cap_moves = cap
    P.nodes[i].untried_at = P.n_moves
    P.nodes[i].n_untried = n
    for k in range(n):
        P.moves[P.n_moves + k] = P.buf[k]
    P.n_moves += n
    return i


cdef int mc_tree_iterations(MPool* P, long long count) noexcept nogil:
    """`count` iterations of UCT from the root's state; -1 when memory runs out."""
    cdef long long it, at
    cdef int node, child, best, move, mover, i, u
    cdef double k, v, score, top, e
    cdef long long visits
    cdef MNode* nd
    for it in range(count):
        node = 0
        # selection: UCB1 down through fully expanded nodes, chance nodes by their odds
        while True:
            nd = &P.nodes[node]
            if nd.chance:
                move = mc_draw_outcome(P, mc_state(P, node), P.buf)
                child = mc_child(P, node, move)
                if child < 0:
                    child = mc_tree_node(P, node, move, -1)  # nobody chose it
                    if child < 0:
                        return -1
                node = child
                continue
            if nd.n_untried == 0 and nd.first_child >= 0:
                k = P.c * sqrt(log(<double>nd.visits))
                P.step += 1
                best = -1
                top = -1.0
                child = nd.first_child
                while child >= 0:
                    # score = reward / v + k / sqrt(v), both terms as the twin computes them
                    visits = P.nodes[child].visits
                    if visits < P.n_explore:
                        if P.explore_at[visits] != P.step:
                            P.explore_at[visits] = P.step
                            P.explore[visits] = k / sqrt(<double>visits)
                        e = P.explore[visits]
                    else:
                        e = k / sqrt(<double>visits)
                    score = P.nodes[child].mean + e
                    if score > top:
                        best = child
                        top = score
                    child = P.nodes[child].next_sibling
                node = best
                continue
            break
        # expansion: one untried move, drawn at random
        nd = &P.nodes[node]
        if nd.n_untried > 0:
            u = nd.n_untried
            at = nd.untried_at
            i = rng_below(&P.rng, u)
            move = P.moves[at + i]
            P.moves[at + i] = P.moves[at + u - 1]
            nd.n_untried = u - 1
            mover = st_int(P.vt, mc_state(P, node), P.vt.off_current)
            node = mc_tree_node(P, node, move, mover)
            if node < 0:
                return -1
        # simulation, then back-propagation of each mover's share
        mc_backup(P, mc_state(P, node), node)
    return 0


# -- information sets (something hidden)

cdef void mc_sample(MPool* P, char* st) noexcept nogil:
    """A state consistent with the player's observation: the base with each hidden pool's
    items dealt again (Fisher-Yates from the end) and a new chance stream, drawn as
    midgardc.runtime.determinize.determinize draws them."""
    cdef int g, pl, i, j, at, size
    cdef unsigned char t
    cdef uint64_t seed
    memcpy(st, P.base, P.ss)
    for g in range(P.n_groups):
        size = P.i_start[g + 1] - P.i_start[g]
        for i in range(size):
            P.shuffle[i] = P.items[P.i_start[g] + i]
        for i in range(size - 1, 0, -1):
            j = rng_below(&P.rng, i + 1)
            t = P.shuffle[i]
            P.shuffle[i] = P.shuffle[j]
            P.shuffle[j] = t
        at = 0
        for pl in range(P.g_start[g], P.g_start[g + 1]):
            P.vt.write_place(st, P.p_src[pl], P.p_target[pl], P.shuffle + at, P.p_len[pl])
            at += P.p_len[pl]
    seed = rng_next(&P.rng) if P.n_groups > 0 else mix64(P.rng.state)
    P.vt.reseed(st, seed)


cdef inline void mc_clear_slots(MPool* P, int node) noexcept nogil:
    cdef int ch = P.nodes[node].first_child
    while ch >= 0:
        P.slot_of[P.nodes[ch].move] = -1
        ch = P.nodes[ch].next_sibling


cdef int mc_set_iterations(MPool* P, char* st, long long count) noexcept nogil:
    """`count` iterations of SO-ISMCTS (the root is node 0); -1 when memory runs out."""
    cdef const MgcRules* vt = P.vt
    cdef long long it
    cdef int node, child, best, move, mover, pick, i, n, u, ch
    cdef double v, score, top
    for it in range(count):
        mc_sample(P, st)
        node = 0
        while not st_int(vt, st, vt.off_terminal):
            if st_chance(vt, st):  # a roll: an outcome by its odds
                move = mc_draw_outcome(P, st, P.buf)
                child = mc_child(P, node, move)
                if child < 0:
                    child = mc_new_node(P, node, move, -1)
                    if child < 0:
                        return -1
                vt.apply_move(st, move, NULL)
                node = child
                continue
            n = vt.gen_legal(st, P.legal)
            if node == 0:  # only the player's real moves at the root
                u = 0
                for i in range(n):
                    if P.allowed[P.legal[i]]:
                        P.legal[u] = P.legal[i]
                        u += 1
                n = u
                if n == 0:  # (a sample where none of the real moves is legal)
                    break
            ch = P.nodes[node].first_child
            while ch >= 0:
                P.slot_of[P.nodes[ch].move] = ch
                ch = P.nodes[ch].next_sibling
            u = 0
            for i in range(n):
                if P.slot_of[P.legal[i]] < 0:
                    P.buf[u] = P.legal[i]
                    u += 1
            if u > 0:  # expansion: one legal untried move, drawn at random
                move = P.buf[rng_below(&P.rng, u)]
                mover = st_int(vt, st, vt.off_current)
                child = mc_new_node(P, node, move, mover)
                if child < 0:
                    mc_clear_slots(P, node)
                    return -1
                P.slot_of[move] = child
                for i in range(n):  # every child whose move is legal here was available
                    ch = P.slot_of[P.legal[i]]
                    if ch >= 0:
                        P.nodes[ch].avail += P.n
                mc_clear_slots(P, node)
                vt.apply_move(st, move, NULL)
                node = child
                break
            # selection: UCB1 over the children legal in this sample, by availability
            best = -1
            top = -1.0
            pick = -1
            for i in range(n):
                ch = P.slot_of[P.legal[i]]
                v = <double>P.nodes[ch].visits
                score = P.nodes[ch].reward / v + P.c * sqrt(log(<double>P.nodes[ch].avail) / v)
                if score > top:
                    best = ch
                    top = score
                    pick = P.legal[i]
            for i in range(n):
                P.nodes[P.slot_of[P.legal[i]]].avail += P.n
            mc_clear_slots(P, node)
            vt.apply_move(st, pick, NULL)
            node = best
        mc_backup(P, st, node)
    return 0


# -- from Python

cdef int mc_open(MPool* P, const MgcRules* vt, bint with_states, long long iterations, double c, long long rollouts, uint64_t rng_state) except -1:
    cdef int i
    cdef int N_MOVES = vt.n_moves
    memset(P, 0, sizeof(MPool))
    P.vt = vt
    P.ss = vt.state_size
    P.cap_nodes = <int>min(iterations + 2, 256)  # (doubled when full)
    P.cap_moves = 1024
    P.nodes = <MNode*>malloc(P.cap_nodes * sizeof(MNode))
    P.moves = <int*>malloc(P.cap_moves * sizeof(int))
    P.buf = <int*>malloc(N_MOVES * sizeof(int))
    P.legal = <int*>malloc(N_MOVES * sizeof(int))
    P.roll = <int*>malloc(N_MOVES * sizeof(int))
    P.slot_of = <int*>malloc(N_MOVES * sizeof(int))
    P.allowed = <unsigned char*>malloc(N_MOVES)
    P.stats = <long long*>malloc(vt.stats_size)
    P.shares = <double*>malloc(vt.n_players * sizeof(double))
    P.base = <char*>malloc(vt.state_size)
    if with_states:
        P.states = <char*>malloc(<size_t>P.cap_nodes * P.ss)
        P.n_explore = min(iterations * max(rollouts, 0) + 1, <long long>65536)
        P.explore = <double*>malloc(P.n_explore * sizeof(double))
        P.explore_at = <long long*>calloc(P.n_explore, sizeof(long long))
        if P.explore == NULL or P.explore_at == NULL:
            raise MemoryError()
    if P.nodes == NULL or P.moves == NULL or P.buf == NULL or P.legal == NULL or P.roll == NULL or P.slot_of == NULL or P.allowed == NULL or P.stats == NULL or P.shares == NULL or P.base == NULL or (with_states and P.states == NULL):
        raise MemoryError()
    for i in range(N_MOVES):
        P.slot_of[i] = -1
        P.allowed[i] = 0
    P.rng.state = rng_state
    P.c = c
    P.n = rollouts
    return 0


cdef void mc_close(MPool* P) noexcept:
    free(P.nodes)
    free(P.states)
    free(P.moves)
    free(P.buf)
    free(P.legal)
    free(P.roll)
    free(P.slot_of)
    free(P.allowed)
    free(P.stats)
    free(P.shares)
    free(P.base)
    free(P.explore)
    free(P.explore_at)
    free(P.g_start)
    free(P.i_start)
    free(P.p_src)
    free(P.p_target)
    free(P.p_len)
    free(P.items)
    free(P.shuffle)


cdef list mc_root_children(MPool* P):
    out = []
    cdef int ch = P.nodes[0].first_child
    while ch >= 0:
        out.append((P.nodes[ch].move, P.nodes[ch].visits, P.nodes[ch].reward))
        ch = P.nodes[ch].next_sibling
    return out
