/* Kalah's search kernel in C: the same sowing rules, evaluation and move ordering as board.py and
 * search.py, about fifty times faster, plus an exact solver and the endgame table builder.
 *
 * Optional: setup.py builds it where a C compiler exists, and native.py falls back to the
 * pure-Python search where it does not (or when ASOBIBA_PURE_PYTHON=1). Basic stays in Python.
 *
 * Board layout as board.py: for n pits a side, player 0's pits are 0..n-1 and store n, player 1's
 * pits n+1..2n and store 2n+1. Every search allocates its own tables, so calls are independent and
 * run without the GIL; the endgame tables are read-only once loaded.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAXN 6
#define CELLS (2 * MAXN + 2)
#define SCALE 4
#define INF 10000000
#define SOLVED 1000
#define CHECK_EVERY 1024
#define EXACT 0
#define LOWER 1
#define UPPER 2
#define CAPTURE_STANDARD 0
#define CAPTURE_EMPTY 1
#define CAPTURE_NONE 2
#define UNKNOWN (-128)

typedef struct {
    int n;
    int capture;
    int leftovers;
} Rules;

typedef uint8_t Board[CELLS];

/* ---------------------------------------------------------------- sowing (board.py's sow) */

/* Sow `pit` of `player` in place; returns 1 for an extra turn; *captured gets the stones a capture
 * stored (a lone stone stored under the "empty" rule counts 1). */
static int sow(uint8_t *b, const Rules *r, int player, int pit, int *captured) {
    int n = r->n, base = player * (n + 1), idx = base + pit, stones = b[idx];
    b[idx] = 0;
    *captured = 0;
    int skip = 2 * n + 1 - base, size = 2 * n + 2;
    while (stones) {
        idx++;
        if (idx == size) idx = 0;
        if (idx != skip) {
            b[idx]++;
            stones--;
        }
    }
    int own = base + n;
    if (idx == own) return 1;
    if (idx == n || idx == 2 * n + 1) return 0;
    if (idx < base || idx > own || b[idx] != 1 || r->capture == CAPTURE_NONE) return 0;
    int opposite = 2 * n - idx, taken = b[opposite];
    if (taken) {
        b[opposite] = 0;
        b[idx] = 0;
        b[own] += taken + 1;
        *captured = taken + 1;
    } else if (r->capture == CAPTURE_EMPTY) {
        b[idx] = 0;
        b[own] += 1;
        *captured = 1;
    }
    return 0;
}

static int side(const uint8_t *b, int n, int player) {
    int s = 0, base = player * (n + 1);
    for (int i = 0; i < n; i++) s += b[base + i];
    return s;
}

/* End the game if either side is empty (board.py's finish). */
static int finish(uint8_t *b, const Rules *r) {
    int n = r->n, s0 = side(b, n, 0), s1 = side(b, n, 1);
    if (s0 && s1) return 0;
    if (r->leftovers) {
        for (int i = 0; i < n; i++) {
            b[i] = 0;
            b[n + 1 + i] = 0;
        }
        b[n] += s0;
        b[2 * n + 1] += s1;
    }
    return 1;
}

/* Legal pits, most promising first (search.py's _orderer): `first`, the extra turns nearest the
 * store first, the captures, the rest. Returns how many. */
static int order(const uint8_t *b, const Rules *r, int p, int first, int *out) {
    int n = r->n, base = p * (n + 1), cycle = 2 * n + 1;
    int extra[MAXN], captures[MAXN], rest[MAXN], ne = 0, nc = 0, nr = 0, k = 0;
    for (int i = n - 1; i >= 0; i--) {
        int s = b[base + i];
        if (!s || i == first) continue;
        int land = i + s;
        if (land >= cycle) land %= cycle;
        if (land == n)
            extra[ne++] = i;
        else if (r->capture != CAPTURE_NONE && land < n && !b[base + land] && s < cycle &&
                 b[2 * n - base - land])
            captures[nc++] = i;
        else
            rest[nr++] = i;
    }
    if (first >= 0) out[k++] = first;
    for (int i = 0; i < ne; i++) out[k++] = extra[i];
    for (int i = 0; i < nc; i++) out[k++] = captures[i];
    for (int i = 0; i < nr; i++) out[k++] = rest[i];
    return k;
}

/* ---------------------------------------------------------------- endgame tables */

/* An endgame table holds, for every way of placing at most `stones` stones in the 2n pits, the
 * mover's best future store gain over the opponent (the stores do not matter), the mover's pits
 * first. A position's index: the count of positions with fewer stones, plus the colex rank of its
 * stars-and-bars combination among those with as many. */

#define MAXCELLS (2 * MAXN)
#define MAXSTONES 96
static uint64_t binom[MAXSTONES + MAXCELLS + 2][MAXCELLS + 2];

static void init_binom(void) {
    for (int i = 0; i < MAXSTONES + MAXCELLS + 2; i++) {
        binom[i][0] = 1;
        for (int j = 1; j < MAXCELLS + 2; j++) binom[i][j] = i ? binom[i - 1][j - 1] + binom[i - 1][j] : 0;
    }
}

typedef struct {
    Rules rules;
    int stones;
    uint64_t size;
    int8_t *values;
    PyObject *owner; /* the bytes object holding `values` once loaded */
} Endgame;

#define MAXTABLES 8
static Endgame tables[MAXTABLES];
static int ntables;

static uint64_t table_size(int cells, int stones) { return binom[stones + cells][cells]; }

/* Index of the pits `a` (cells of them, `total` stones). */
static uint64_t rank_of(const uint8_t *a, int cells, int total) {
    uint64_t index = binom[total + cells - 1][cells];
    int pos = 0;
    for (int i = 0; i < cells - 1; i++) {
        pos += a[i];
        index += binom[pos + i][i + 1];
    }
    return index;
}

static const Endgame *find_table(const Rules *r) {
    for (int i = 0; i < ntables; i++) {
        const Rules *t = &tables[i].rules;
        if (t->n == r->n && t->capture == r->capture && t->leftovers == r->leftovers && tables[i].values)
            return &tables[i];
    }
    return NULL;
}

/* The mover-first pits of `b` (mover p) into `a`; returns their stone count. */
static int mover_pits(const uint8_t *b, int n, int p, uint8_t *a) {
    int base = p * (n + 1), other = (1 - p) * (n + 1), total = 0;
    for (int i = 0; i < n; i++) {
        a[i] = b[base + i];
        a[n + i] = b[other + i];
        total += a[i] + a[n + i];
    }
    return total;
}

/* The table's value for mover p on b, or UNKNOWN when the position has too many stones. */
static int probe(const Endgame *t, const uint8_t *b, int p) {
    uint8_t a[MAXCELLS];
    int total = mover_pits(b, t->rules.n, p, a);
    if (total > t->stones) return UNKNOWN;
    return t->values[rank_of(a, 2 * t->rules.n, total)];
}

/* Builder: a memoised negamax over the mover-first pits. Moves that keep every stone in the pits
 * lead to positions with as many stones, so those are computed on demand (the game never repeats
 * a position, as every such move carries stones towards the mover's store). */
static int build_value(Endgame *t, const uint8_t *a) {
    const Rules *r = &t->rules;
    int n = r->n, cells = 2 * n, total = 0;
    for (int i = 0; i < cells; i++) total += a[i];
    uint64_t index = rank_of(a, cells, total);
    if (t->values[index] != UNKNOWN) return t->values[index];
    int mine = 0, theirs = 0;
    for (int i = 0; i < n; i++) {
        mine += a[i];
        theirs += a[n + i];
    }
    int best;
    if (!mine || !theirs) {
        best = r->leftovers ? mine - theirs : 0;
    } else {
        best = -INF;
        Board b;
        for (int pit = 0; pit < n; pit++) {
            if (!a[pit]) continue;
            memset(b, 0, sizeof b);
            memcpy(b, a, n);
            memcpy(b + n + 1, a + n, n);
            int captured, extra = sow(b, r, 0, pit, &captured), value;
            int over = finish(b, r);
            int gain = b[n] - b[2 * n + 1];
            if (over) {
                value = gain;
            } else {
                uint8_t c[MAXCELLS];
                mover_pits(b, n, extra ? 0 : 1, c);
                int child = build_value(t, c);
                value = extra ? gain + child : gain - child;
            }
            if (value > best) best = value;
        }
    }
    t->values[index] = (int8_t)best;
    return best;
}

/* Fill every composition of `left` stones into cells k.. of a, computing each position. */
static void build_all(Endgame *t, uint8_t *a, int k, int left) {
    int cells = 2 * t->rules.n;
    if (k == cells - 1) {
        a[k] = (uint8_t)left;
        build_value(t, a);
        return;
    }
    for (int v = 0; v <= left; v++) {
        a[k] = (uint8_t)v;
        build_all(t, a, k + 1, left - v);
    }
}

/* ---------------------------------------------------------------- budgets */

typedef struct {
    long long nodes, max_nodes, next_check;
    double deadline; /* 0: no clock */
    int stop;
} Budget;

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void budget_start(Budget *bg, long long max_nodes, double seconds) {
    bg->nodes = 0;
    bg->max_nodes = max_nodes;
    bg->next_check = CHECK_EVERY;
    bg->deadline = seconds > 0 ? now() + seconds : 0;
    bg->stop = 0;
}

/* Count a node; returns 1 when the budget has run out. */
static inline int tick(Budget *bg) {
    bg->nodes++;
    if (bg->nodes >= bg->next_check) {
        bg->next_check = bg->nodes + CHECK_EVERY;
        if ((bg->max_nodes && bg->nodes >= bg->max_nodes) || (bg->deadline && now() >= bg->deadline))
            bg->stop = 1;
    }
    return bg->stop;
}

/* ---------------------------------------------------------------- depth-limited search */

/* search.py's Search: values in SCALE units from the mover's side, stones on a side worth a
 * quarter stone when leftovers count; a table entry at depth SOLVED holds at every depth. */

typedef struct {
    uint8_t cells[CELLS];
    uint8_t player, flag, used;
    int8_t best;
    int16_t depth;
    int32_t value;
} SearchEntry;

typedef struct {
    Rules rules;
    const Endgame *endgame;
    SearchEntry *table;
    uint64_t mask;
    Budget budget;
    long long horizon;
} Search;

static int evaluate(const Search *s, const uint8_t *b, int p) {
    int n = s->rules.n, value = (b[n] - b[2 * n + 1]) * SCALE;
    if (s->rules.leftovers) value += side(b, n, 0) - side(b, n, 1);
    return p == 0 ? value : -value;
}

static int final_value(const Search *s, const uint8_t *b, int p) {
    int n = s->rules.n, diff = b[n] - b[2 * n + 1];
    return (p == 0 ? diff : -diff) * SCALE;
}

static uint64_t hash_board(const uint8_t *b, int cells, int p) {
    uint64_t h = 1469598103934665603ULL ^ (uint64_t)p;
    for (int i = 0; i < cells; i++) h = (h ^ b[i]) * 1099511628211ULL;
    return h ^ (h >> 29);
}

#define WAYS 4

/* The entry of b in its bucket of WAYS entries, or NULL. */
static SearchEntry *search_find(Search *s, const uint8_t *b, int p) {
    int cells = 2 * s->rules.n + 2;
    SearchEntry *bucket = &s->table[hash_board(b, cells, p) & s->mask & ~(uint64_t)(WAYS - 1)];
    for (int i = 0; i < WAYS; i++)
        if (bucket[i].used && bucket[i].player == p && !memcmp(bucket[i].cells, b, cells)) return &bucket[i];
    return NULL;
}

/* Where to store b: its own entry, a free one, or the shallowest of its bucket. */
static SearchEntry *search_place(Search *s, const uint8_t *b, int p) {
    SearchEntry *own = search_find(s, b, p);
    if (own) return own;
    int cells = 2 * s->rules.n + 2;
    SearchEntry *bucket = &s->table[hash_board(b, cells, p) & s->mask & ~(uint64_t)(WAYS - 1)];
    SearchEntry *victim = &bucket[0];
    for (int i = 0; i < WAYS; i++) {
        if (!bucket[i].used) return &bucket[i];
        if (bucket[i].depth < victim->depth) victim = &bucket[i];
    }
    return victim;
}

/* The exact value from the endgame table in SCALE units, or UNKNOWN. */
static int endgame_value(const Search *s, const uint8_t *b, int p) {
    if (!s->endgame) return UNKNOWN;
    int future = probe(s->endgame, b, p);
    if (future == UNKNOWN) return UNKNOWN;
    int n = s->rules.n, lead = b[n] - b[2 * n + 1];
    return ((p == 0 ? lead : -lead) + future) * SCALE;
}

static int negamax(Search *s, const uint8_t *b, int p, int depth, int alpha, int beta) {
    const Rules *r = &s->rules;
    int n = r->n, cells = 2 * n + 2;
    if (tick(&s->budget)) return 0;
    int known = endgame_value(s, b, p);
    if (known != UNKNOWN) return known;
    if (depth <= 0) {
        s->horizon++;
        return evaluate(s, b, p);
    }
    int base = p * (n + 1);
    Board c;
    if (depth == 1) {
        int best = -INF;
        for (int pit = n - 1; pit >= 0; pit--) {
            if (!b[base + pit]) continue;
            memcpy(c, b, cells);
            int captured, extra = sow(c, r, p, pit, &captured), value;
            if ((captured || !side(c, n, p)) && finish(c, r)) {
                value = final_value(s, c, p);
            } else {
                s->budget.nodes++;
                int exact = endgame_value(s, c, extra ? p : 1 - p);
                if (exact != UNKNOWN) {
                    value = extra ? exact : -exact;
                } else {
                    s->horizon++;
                    value = extra ? evaluate(s, c, p) : -evaluate(s, c, 1 - p);
                }
            }
            if (value > best) {
                best = value;
                if (value >= beta) break;
            }
        }
        return best;
    }
    SearchEntry *e = search_find(s, b, p);
    int first = -1;
    if (e) {
        first = e->best;
        if (e->depth >= depth) {
            int hit = e->flag == EXACT || (e->flag == LOWER ? e->value >= beta : e->value <= alpha);
            if (hit) {
                if (e->depth != SOLVED) s->horizon++;
                return e->value;
            }
        }
    }
    long long horizon_before = s->horizon;
    int alpha0 = alpha, best = -INF, best_pit = -1, moves[MAXN];
    int count = order(b, r, p, first, moves);
    for (int k = 0; k < count; k++) {
        int pit = moves[k], value;
        memcpy(c, b, cells);
        int captured, extra = sow(c, r, p, pit, &captured);
        if ((captured || !side(c, n, p)) && finish(c, r)) {
            value = final_value(s, c, p);
        } else if (best_pit < 0) {
            value = extra ? negamax(s, c, p, depth - 1, alpha, beta)
                          : -negamax(s, c, 1 - p, depth - 1, -beta, -alpha);
        } else if (extra) {
            value = negamax(s, c, p, depth - 1, alpha, alpha + 1);
            if (!s->budget.stop && alpha < value && value < beta)
                value = negamax(s, c, p, depth - 1, alpha, beta);
        } else {
            value = -negamax(s, c, 1 - p, depth - 1, -alpha - 1, -alpha);
            if (!s->budget.stop && alpha < value && value < beta)
                value = -negamax(s, c, 1 - p, depth - 1, -beta, -alpha);
        }
        if (s->budget.stop) return 0;
        if (value > best) {
            best = value;
            best_pit = pit;
            if (value > alpha) {
                alpha = value;
                if (alpha >= beta) break;
            }
        }
    }
    e = search_place(s, b, p);
    memcpy(e->cells, b, cells);
    e->player = (uint8_t)p;
    e->used = 1;
    e->flag = best >= beta ? LOWER : best <= alpha0 ? UPPER : EXACT;
    e->depth = (int16_t)(s->horizon == horizon_before ? SOLVED : depth);
    e->value = best;
    e->best = (int8_t)best_pit;
    return best;
}

static int search_init(Search *s, const Rules *r, int use_endgame, int table_bits, long long max_nodes,
                       double seconds) {
    s->rules = *r;
    s->endgame = use_endgame ? find_table(r) : NULL;
    s->mask = ((uint64_t)1 << table_bits) - 1;
    s->table = calloc(s->mask + 1, sizeof(SearchEntry));
    s->horizon = 0;
    budget_start(&s->budget, max_nodes, seconds);
    return s->table != NULL;
}

/* The value of playing `pit` from b: the child searched depth-1 deep, from the mover's side. */
static int root_child(Search *s, const uint8_t *b, int p, int pit, int depth, int alpha, int beta) {
    Board c;
    memcpy(c, b, 2 * s->rules.n + 2);
    int captured, extra = sow(c, &s->rules, p, pit, &captured);
    if (finish(c, &s->rules)) return final_value(s, c, p);
    if (extra) return negamax(s, c, p, depth - 1, alpha, beta);
    return -negamax(s, c, 1 - p, depth - 1, -beta, -alpha);
}

typedef struct {
    int pit, value, depth, exact;
    long long nodes;
} Best;

/* search.py's Search.best: iterative deepening, the previous best move first. */
static Best search_best(Search *s, const uint8_t *b, int p, int max_depth) {
    int moves[MAXN];
    int count = order(b, &s->rules, p, -1, moves);
    Best result = {moves[0], 0, 0, 0, 0};
    for (int d = 1; d <= max_depth; d++) {
        long long horizon = s->horizon;
        int best = -INF, best_pit = -1;
        for (int k = 0; k < count; k++) {
            int value = root_child(s, b, p, moves[k], d, best, INF);
            if (s->budget.stop) break;
            if (value > best) {
                best = value;
                best_pit = moves[k];
            }
        }
        if (s->budget.stop) {
            if (best_pit >= 0) {
                result.pit = best_pit;
                result.value = best;
                result.exact = 0;
            }
            break;
        }
        result.pit = best_pit;
        result.value = best;
        result.depth = d;
        result.exact = s->horizon == horizon;
        if (result.exact) break;
        for (int k = 0; k < count; k++) {
            if (moves[k] == best_pit) {
                memmove(moves + 1, moves, k * sizeof(int));
                moves[0] = best_pit;
                break;
            }
        }
    }
    result.nodes = s->budget.nodes;
    return result;
}

/* search.py's Search.graded at one depth: every move with a full window; 0 if the budget ran out. */
static int search_graded(Search *s, const uint8_t *b, int p, int depth, int *pits, int *values,
                         int *exact, int *count) {
    int moves[MAXN];
    *count = order(b, &s->rules, p, -1, moves);
    for (int k = 0; k < *count; k++) {
        long long horizon = s->horizon;
        values[k] = root_child(s, b, p, moves[k], depth, -INF, INF);
        if (s->budget.stop) return 0;
        pits[k] = moves[k];
        exact[k] = s->horizon == horizon;
    }
    return 1;
}

/* ---------------------------------------------------------------- exact solver */

/* Values in stones: the mover's best future store gain over the opponent, which depends only on
 * the pits, so the board is kept mover-first (player 0 always moves) and the table is keyed by
 * the pits alone. Null-window (MTD(f)) searches store bounds. */

typedef struct {
    uint8_t pits[MAXCELLS];
    int8_t low, high, move;
    uint8_t used;
} SolveEntry;

typedef struct {
    Rules rules;
    const Endgame *endgame;
    SolveEntry *table;
    uint64_t mask;
    Budget budget;
} Solver;

static void flip(uint8_t *b, int n) {
    for (int i = 0; i <= n; i++) {
        uint8_t t = b[i];
        b[i] = b[n + 1 + i];
        b[n + 1 + i] = t;
    }
}

static SolveEntry *solve_slot(Solver *s, const uint8_t *b) {
    int n = s->rules.n;
    uint64_t h = 1469598103934665603ULL;
    for (int i = 0; i < n; i++) h = (h ^ b[i]) * 1099511628211ULL;
    for (int i = 0; i < n; i++) h = (h ^ b[n + 1 + i]) * 1099511628211ULL;
    return &s->table[(h ^ (h >> 31)) & s->mask];
}

static int same_pits(const SolveEntry *e, const uint8_t *b, int n) {
    return e->used && !memcmp(e->pits, b, n) && !memcmp(e->pits + n, b + n + 1, n);
}

/* The mover's (player 0's) best future gain on b, fail-soft against (alpha, beta). */
static int solve(Solver *s, const uint8_t *b, int alpha, int beta) {
    const Rules *r = &s->rules;
    int n = r->n;
    if (tick(&s->budget)) return 0;
    if (s->endgame) {
        int known = probe(s->endgame, b, 0);
        if (known != UNKNOWN) return known;
    }
    SolveEntry *e = solve_slot(s, b);
    int first = -1, low = -INF, high = INF;
    if (same_pits(e, b, n)) {
        low = e->low;
        high = e->high;
        if (low >= beta) return low;
        if (high <= alpha) return high;
        if (low == high) return low;
        first = e->move;
    }
    int moves[MAXN], count = order(b, r, 0, first, moves), best = -INF, best_pit = -1;
    int alpha0 = alpha;
    Board c;
    for (int k = 0; k < count; k++) {
        int pit = moves[k], value;
        memcpy(c, b, 2 * n + 2);
        int captured, extra = sow(c, r, 0, pit, &captured);
        int over = (captured || !side(c, n, 0)) && finish(c, r);
        int gain = (c[n] - b[n]) - (c[2 * n + 1] - b[2 * n + 1]);
        if (over) {
            value = gain;
        } else if (extra) {
            value = gain + solve(s, c, alpha - gain, beta - gain);
        } else {
            flip(c, n);
            value = gain - solve(s, c, gain - beta, gain - alpha);
        }
        if (s->budget.stop) return 0;
        if (value > best) {
            best = value;
            best_pit = pit;
            if (value > alpha) alpha = value;
            if (alpha >= beta) break;
        }
    }
    /* best is an upper bound when no move beat the window's bottom, a lower bound when one
     * reached its top, else exact; keep whatever the entry already knew. */
    e = solve_slot(s, b);
    if (!same_pits(e, b, n)) {
        memcpy(e->pits, b, n);
        memcpy(e->pits + n, b + n + 1, n);
        e->used = 1;
        low = -INF;
        high = INF;
    }
    if (best >= beta) {
        if (best > low) low = best;
    } else if (best <= alpha0) {
        if (best < high) high = best;
    } else {
        low = high = best;
    }
    e->low = (int8_t)(low < -127 ? -127 : low);
    e->high = (int8_t)(high > 127 ? 127 : high);
    e->move = (int8_t)best_pit;
    return best;
}

/* MTD(f): null-window searches from `guess` until the bounds meet. Returns 0 if the budget ran out. */
static int mtdf(Solver *s, const uint8_t *b, int guess, int *value) {
    int low = -127, high = 127, g = guess;
    while (low < high) {
        int beta = g == low ? g + 1 : g;
        g = solve(s, b, beta - 1, beta);
        if (s->budget.stop) return 0;
        if (g < beta)
            high = g;
        else
            low = g;
    }
    *value = g;
    return 1;
}

static int solver_init(Solver *s, const Rules *r, int use_endgame, int table_bits, long long max_nodes,
                       double seconds) {
    s->rules = *r;
    s->endgame = use_endgame ? find_table(r) : NULL;
    s->mask = ((uint64_t)1 << table_bits) - 1;
    s->table = calloc(s->mask + 1, sizeof(SolveEntry));
    budget_start(&s->budget, max_nodes, seconds);
    return s->table != NULL;
}

/* Exact value of every legal move for mover p, as final margins from the mover's side (stones). */
static int solve_moves(Solver *s, const uint8_t *board, int p, int guess, int *pits, int *values, int *count) {
    int n = s->rules.n;
    Board b;
    memcpy(b, board, 2 * n + 2);
    if (p) flip(b, n);
    int moves[MAXN];
    *count = order(b, &s->rules, 0, -1, moves);
    for (int k = 0; k < *count; k++) {
        Board c;
        memcpy(c, b, 2 * n + 2);
        int captured, extra = sow(c, &s->rules, 0, moves[k], &captured), future = 0;
        int over = finish(c, &s->rules);
        if (!over) {
            if (!extra) flip(c, n);
            if (!mtdf(s, c, extra ? guess : -guess, &future)) return 0;
            if (!extra) {
                flip(c, n);
                future = -future;
            }
        }
        pits[k] = moves[k];
        values[k] = c[n] - c[2 * n + 1] + future;
    }
    return 1;
}

/* ---------------------------------------------------------------- Python interface */

static int parse_position(PyObject *board, int n, int capture, int leftovers, Rules *r, Board b) {
    if (n < 1 || n > MAXN || capture < 0 || capture > 2) {
        PyErr_SetString(PyExc_ValueError, "unsupported rules for the C kernel");
        return 0;
    }
    r->n = n;
    r->capture = capture;
    r->leftovers = leftovers ? 1 : 0;
    Py_ssize_t len = PySequence_Length(board);
    if (len != 2 * n + 2) {
        PyErr_SetString(PyExc_ValueError, "the board must have 2n + 2 cells");
        return 0;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        PyObject *item = PySequence_GetItem(board, i);
        if (!item) return 0;
        long v = PyLong_AsLong(item);
        Py_DECREF(item);
        if (v < 0 || v > 255) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a cell holds 0..255 stones");
            return 0;
        }
        b[i] = (uint8_t)v;
    }
    return 1;
}

static int bits_for(long long nodes) {
    int bits = 16;
    while (bits < 21 && ((long long)1 << bits) < nodes) bits++;
    return bits;
}

/* The arguments best() and analyse() share: (board, player, n, capture, leftovers, depth, nodes,
 * seconds, endgame), `endgame` meaning: read the rules' endgame table if one is loaded. Sets up
 * the search; returns 0 with a Python error set on bad input. */
static int search_args(PyObject *args, Search *s, Board b, int *player, int *depth) {
    PyObject *board;
    int n, capture, leftovers, use_endgame;
    long long nodes;
    double seconds;
    if (!PyArg_ParseTuple(args, "OiiipiLdp", &board, player, &n, &capture, &leftovers, depth, &nodes, &seconds,
                          &use_endgame))
        return 0;
    Rules r;
    if (!parse_position(board, n, capture, leftovers, &r, b)) return 0;
    if (!search_init(s, &r, use_endgame, nodes ? bits_for(nodes) : 21, nodes, seconds)) {
        PyErr_NoMemory();
        return 0;
    }
    return 1;
}

/* best(...search_args) -> (pit, value, depth, exact, nodes) */
static PyObject *py_best(PyObject *self, PyObject *args) {
    Search s;
    Board b;
    int player, depth;
    if (!search_args(args, &s, b, &player, &depth)) return NULL;
    Best result;
    Py_BEGIN_ALLOW_THREADS result = search_best(&s, b, player, depth);
    Py_END_ALLOW_THREADS free(s.table);
    return Py_BuildValue("iiiOL", result.pit, result.value, result.depth, result.exact ? Py_True : Py_False,
                         result.nodes);
}

/* analyse(...search_args) -> [(pit, value, exact)] from the deepest full-window iteration that
 * finished, up to `depth` or until every value is exact. */
static PyObject *py_analyse(PyObject *self, PyObject *args) {
    Search s;
    Board b;
    int player, max_depth;
    if (!search_args(args, &s, b, &player, &max_depth)) return NULL;
    int pits[MAXN], values[MAXN], exact[MAXN], count = 0, done = 0;
    int p2[MAXN], v2[MAXN], e2[MAXN], c2;
    Py_BEGIN_ALLOW_THREADS for (int d = 1; d <= max_depth; d++) {
        if (!search_graded(&s, b, player, d, p2, v2, e2, &c2)) break;
        memcpy(pits, p2, sizeof pits);
        memcpy(values, v2, sizeof values);
        memcpy(exact, e2, sizeof exact);
        count = c2;
        done = 1;
        int all = 1;
        for (int k = 0; k < count; k++) all &= exact[k];
        if (all) break;
    }
    if (!done) {
        /* not even one move deep within the budget: that depth is instant without one */
        budget_start(&s.budget, 0, 0);
        search_graded(&s, b, player, 1, pits, values, exact, &count);
    }
    Py_END_ALLOW_THREADS free(s.table);
    PyObject *out = PyList_New(count);
    for (int k = 0; k < count; k++)
        PyList_SET_ITEM(out, k, Py_BuildValue("iiO", pits[k], values[k], exact[k] ? Py_True : Py_False));
    return out;
}

/* solve(board, player, n, capture, leftovers, nodes, seconds, table_bits, endgame)
 *   -> [(pit, final margin in stones)] or None when the budget ran out first. */
static PyObject *py_solve(PyObject *self, PyObject *args) {
    PyObject *board;
    int player, n, capture, leftovers, table_bits, use_endgame;
    long long nodes;
    double seconds;
    if (!PyArg_ParseTuple(args, "OiiipLdip", &board, &player, &n, &capture, &leftovers, &nodes, &seconds,
                          &table_bits, &use_endgame))
        return NULL;
    Rules r;
    Board b;
    if (!parse_position(board, n, capture, leftovers, &r, b)) return NULL;
    if (table_bits < 10 || table_bits > 30) {
        PyErr_SetString(PyExc_ValueError, "table_bits must be 10..30");
        return NULL;
    }
    Solver s;
    if (!solver_init(&s, &r, use_endgame, table_bits, nodes, seconds)) return PyErr_NoMemory();
    int pits[MAXN], values[MAXN], count = 0, ok;
    Py_BEGIN_ALLOW_THREADS ok = solve_moves(&s, b, player, 0, pits, values, &count);
    Py_END_ALLOW_THREADS free(s.table);
    if (!ok) Py_RETURN_NONE;
    PyObject *out = PyList_New(count);
    for (int k = 0; k < count; k++) PyList_SET_ITEM(out, k, Py_BuildValue("ii", pits[k], values[k]));
    return out;
}

static int parse_rules(int n, int capture, int leftovers, int stones, Rules *r) {
    if (n < 1 || n > MAXN || capture < 0 || capture > 2 || stones < 0 || stones > MAXSTONES) {
        PyErr_SetString(PyExc_ValueError, "unsupported endgame table");
        return 0;
    }
    r->n = n;
    r->capture = capture;
    r->leftovers = leftovers ? 1 : 0;
    return 1;
}

/* build_endgame(n, capture, leftovers, stones) -> bytes: the table (see above). */
static PyObject *py_build_endgame(PyObject *self, PyObject *args) {
    int n, capture, leftovers, stones;
    if (!PyArg_ParseTuple(args, "iipi", &n, &capture, &leftovers, &stones)) return NULL;
    Endgame t;
    if (!parse_rules(n, capture, leftovers, stones, &t.rules)) return NULL;
    t.stones = stones;
    t.size = table_size(2 * n, stones);
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)t.size);
    if (!out) return NULL;
    t.values = (int8_t *)PyBytes_AS_STRING(out);
    memset(t.values, UNKNOWN, t.size);
    uint8_t a[MAXCELLS];
    Py_BEGIN_ALLOW_THREADS for (int total = 0; total <= stones; total++) build_all(&t, a, 0, total);
    Py_END_ALLOW_THREADS return out;
}

/* load_endgame(n, capture, leftovers, stones, table: bytes): searches and solves use it from now. */
static PyObject *py_load_endgame(PyObject *self, PyObject *args) {
    int n, capture, leftovers, stones;
    PyObject *data;
    if (!PyArg_ParseTuple(args, "iipiS", &n, &capture, &leftovers, &stones, &data)) return NULL;
    Rules r;
    if (!parse_rules(n, capture, leftovers, stones, &r)) return NULL;
    if ((uint64_t)PyBytes_GET_SIZE(data) != table_size(2 * n, stones)) {
        PyErr_SetString(PyExc_ValueError, "the table's size does not match its rules and stones");
        return NULL;
    }
    Endgame *t = NULL;
    for (int i = 0; i < ntables; i++)
        if (tables[i].rules.n == n && tables[i].rules.capture == r.capture && tables[i].rules.leftovers == r.leftovers)
            t = &tables[i];
    if (!t) {
        if (ntables == MAXTABLES) {
            PyErr_SetString(PyExc_ValueError, "too many endgame tables");
            return NULL;
        }
        t = &tables[ntables++];
    }
    Py_INCREF(data);
    PyObject *old = t->owner;
    t->rules = r;
    t->stones = stones;
    t->size = table_size(2 * n, stones);
    t->values = (int8_t *)PyBytes_AS_STRING(data);
    t->owner = data;
    Py_XDECREF(old);
    Py_RETURN_NONE;
}

/* unload_endgame(): forget every table (tests that compare with the pure-Python search). */
static PyObject *py_unload_endgame(PyObject *self, PyObject *args) {
    for (int i = 0; i < ntables; i++) {
        tables[i].values = NULL;
        Py_CLEAR(tables[i].owner);
    }
    ntables = 0;
    Py_RETURN_NONE;
}

/* endgame_size(n, stones) -> entries of a table of positions with at most `stones` stones. */
static PyObject *py_endgame_size(PyObject *self, PyObject *args) {
    int n, stones;
    if (!PyArg_ParseTuple(args, "ii", &n, &stones)) return NULL;
    if (n < 1 || n > MAXN || stones < 0 || stones > MAXSTONES) {
        PyErr_SetString(PyExc_ValueError, "unsupported endgame table");
        return NULL;
    }
    return PyLong_FromUnsignedLongLong(table_size(2 * n, stones));
}

static PyMethodDef methods[] = {
    {"best", py_best, METH_VARARGS, "Iterative-deepening best move within a node/time budget."},
    {"analyse", py_analyse, METH_VARARGS, "Every move's value from the deepest finished iteration."},
    {"solve", py_solve, METH_VARARGS, "Exact final margin of every legal move, or None."},
    {"build_endgame", py_build_endgame, METH_VARARGS, "Build an endgame table."},
    {"load_endgame", py_load_endgame, METH_VARARGS, "Use an endgame table from now on."},
    {"unload_endgame", py_unload_endgame, METH_NOARGS, "Forget every endgame table."},
    {"endgame_size", py_endgame_size, METH_VARARGS, "Entries of an endgame table."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_kernel", "Kalah's compiled search kernel.", -1, methods};

PyMODINIT_FUNC PyInit__kernel(void) {
    init_binom();
    return PyModule_Create(&module);
}
