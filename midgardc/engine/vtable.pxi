# ---------------------------------------------------------------------------- the rules' table
# What a spec's rules module exports to the generic engine (midgardc/engine/generic.pyx):
# its sizes, its flags and its entry points, behind one PyCapsule named "midgardc.rules".
# The generic side sees a state only as MGC_STATE_SIZE opaque bytes (copied with memcpy)
# and calls the game through these pointers; the hot loops (random games, perft, traces)
# stay inside the rules module with direct, inlined calls. This text is copied verbatim
# into every generated module and into the generic one: both build keys hash it, so a
# change here rebuilds both sides, and MGC_ABI must match at load time.

from libc.stdint cimport uint64_t

cdef enum:
    MGC_ABI = 2
    # field ids of get_field/set_field (i, j: the indices the field takes; 0 otherwise)
    MGC_BOARD = 0           # [cell]: piece id (cell N_CELLS: the off-board cell, -1)
    MGC_HEIGHT = 1          # [cell]: stack height (stacks only)
    MGC_HAND = 2            # [player][kind]
    MGC_COUNTER = 3         # [row][counter], row N_PLAYERS the game's
    MGC_CURRENT = 4
    MGC_LAST = 5
    MGC_PLY = 6
    MGC_PASSES = 7
    MGC_TERMINAL = 8
    MGC_PLY_LIMITED = 9
    MGC_AGAIN = 10          # (again only)
    MGC_CHANCE = 11         # a roll is due (dice only)
    MGC_ROLL = 12           # [die] (dice only)
    MGC_DECK = 13           # [player][i] (decks only)
    MGC_DRAWN = 14          # [player] (decks only)
    MGC_UP = 15             # [player][kind] (decks only)
    MGC_DISCARD = 16        # [player][kind] (decks only)
    MGC_ZSIZE = 17          # [slot] (zones only)
    MGC_ZCOUNT = 18         # [slot][kind] (zones only)
    MGC_ZPILE = 19          # [pile][i] (zones only)
    # the layout of the Stats struct as long longs: these, then wins[N_PLAYERS], then
    # firsts[N_PLAYERS * N_PLAYERS] ([p * N_PLAYERS + k - 1]: p first with k - 1 others)
    MGC_S_GAMES = 0
    MGC_S_DRAWS = 1
    MGC_S_SHARED = 2
    MGC_S_PLIES = 3
    MGC_S_MARGIN = 4
    MGC_S_PLY_LIMITED = 5
    MGC_S_WINS = 6

ctypedef void (*mgc_seed_f)(void* st, uint64_t seed) noexcept nogil
ctypedef void (*mgc_state_f)(void* st) noexcept nogil
ctypedef int (*mgc_list_f)(void* st, int* moves) noexcept nogil
ctypedef int (*mgc_apply_f)(void* st, int move, int* moves) noexcept nogil
ctypedef int (*mgc_int_f)(void* st) noexcept nogil
ctypedef int (*mgc_outcome_f)(void* st, long long* margin, int* lead) noexcept nogil
ctypedef void (*mgc_keys_f)(void* st, long long* keys) noexcept nogil
ctypedef void (*mgc_playouts_f)(const void* start, int deal, uint64_t seed, long long first, long long count, void* stats, int* moves, int steps) noexcept nogil
ctypedef int (*mgc_trace_f)(void* st, uint64_t seed, int* moves, int* trace, int cap, int steps) noexcept nogil
ctypedef long long (*mgc_perft_f)(void* st, int depth, int n, int* moves) noexcept nogil
ctypedef void (*mgc_tensor_f)(const void* st, float* out, const int* L, const unsigned char* seen_places, const unsigned char* seen_counters) noexcept nogil
ctypedef long long (*mgc_get_f)(const void* st, int field, int i, int j) noexcept nogil
ctypedef void (*mgc_set_f)(void* st, int field, int i, int j, long long value) noexcept nogil
ctypedef uint64_t (*mgc_key_f)(void* st, int turn) noexcept nogil
ctypedef void (*mgc_place_f)(void* st, int src, int target, const unsigned char* items, int n) noexcept nogil

ctypedef struct MgcRules:
    int abi                         # MGC_ABI of the rules module
    size_t state_size               # sizeof(State)
    size_t stats_size               # sizeof(Stats)
    int n_cells
    int n_players
    int n_kinds
    int n_counters
    int n_moves
    int n_pieces
    int n_rank
    int max_plies
    int trace_cap                   # the longest playout trace (moves and rolls)
    int n_tensor_parts              # the layout array of fill_tensor has n_tensor_parts + 1 entries
    int n_dice                      # 0 without dice
    int n_item_kinds                # 0 without items
    int deck_size                   # 0 without decks
    int n_zslots                    # 0 without zones
    int zone_cap
    int max_height                  # 0 without stacks
    const int* slot_pile            # [slot]: its pile, -1 for an unordered slot (NULL without zones)
    const int* chance_weight        # [outcome]: equally likely draws (NULL without dice)
    int chance_base                 # the first outcome's move id
    # byte offsets of the fields MCTS reads in its loops (-1: the game has no such field)
    int off_current
    int off_terminal
    int off_chance
    int has_chance
    int has_decks
    int has_zones
    int has_stacks
    int has_history
    int has_again
    const void* start               # START: the start position (set up and settled)
    mgc_seed_f new_game             # a new game for seed, as Core(seed) starts
    mgc_seed_f prepare_game         # (zones) new_game() up to its start effects
    mgc_state_f start_game          # (zones) the start effects, then settling
    mgc_state_f load_finish         # after writing a position: cell sets, history, settling
    mgc_state_f prepare_runs        # a start position brought up to date once before many games
    mgc_seed_f perft_start          # the position perft() counts from without a Core
    mgc_seed_f reseed               # a new chance stream derive_seed(seed, CHANCE_STREAM) (no-op without one)
    mgc_list_f gen_legal
    mgc_apply_f apply_move          # moves may be NULL
    mgc_apply_f settle_rolls        # after a move with n legal moves: every due roll rolled (batches)
    mgc_int_f sample_outcome        # NULL without dice
    mgc_outcome_f outcome
    mgc_keys_f rank_keys
    mgc_playouts_f run_playouts
    mgc_trace_f trace
    mgc_perft_f perft
    mgc_tensor_f fill_tensor
    mgc_get_f get_field
    mgc_set_f set_field
    mgc_int_f times_seen            # NULL without history
    mgc_key_f position_key          # NULL without history
    mgc_place_f write_place         # (hidden items) place src (0 zone slot, 1 deck) `target` gets `items`
    void* compound_path             # list (*)(void* st, long long move), or NULL
