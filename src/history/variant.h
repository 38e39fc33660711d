/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The variant interface.  Every rule of a game is reached through one
 * table of functions; the core (board, attacks, chess moves) knows no game,
 * and the record (game.h) knows no rule.
 *
 * A variant keeps its own state beside the board in State.ext: bytes it
 * lays out itself (Gifford's arrival schedules, van Gog's obligations, the
 * travelers' piece states, Chessgi's pockets), fixed in size or growing
 * from one position to the next.  The rules read a position and its
 * history through a Line (game.h): the record as it stood at some node,
 * plus any actions tried beyond it.  Actions that need the history (a king
 * going back, a whole-board travel) read it there, and say through apply()
 * which earlier position the new one follows: that is how a new timeline
 * starts.  docs/design.md shows how each game sits on this.
 */
#ifndef TTCHESS_VARIANT_H
#define TTCHESS_VARIANT_H

#include "board.h"

/* ---- Positions ---------------------------------------------------------- */

/*
 * A position: the board and the variant's own state.  The record keeps
 * each position as one block of memory of state_bytes() bytes; ext_size
 * says how many bytes of ext this position uses, so a variant whose state
 * grows over the game (van Gog's open obligations) lets it grow.
 */
typedef struct State {
    Board board;
    uint64_t ext_key;      /* Zobrist key of ext (0 for a variant with none)  */
    uint32_t ext_size;     /* bytes of ext in use                              */
    uint32_t reserved;     /* 0; keeps ext 8-byte aligned                     */
    unsigned char ext[];   /* the variant's own state, laid out by it          */
} State;

static inline size_t state_bytes(const State *s) { return offsetof(State, ext) + s->ext_size; }

/*
 * How the games lay out ext (Gifford's is in gifford.h, van Gog's in
 * vangog.h; the others are the plan docs/design.md describes):
 *
 *   van Gog      VanGogState (src/variants/vangog.h): PieceTags origin, then the open
 *                obligations, the travellers and the links as lists that grow
 *                (ext_room: now + one 8-byte entry); three modes share the code
 *                through Variant.params
 *   travelers    struct { Bitboard traveling, traveled; // untraveled: the rest
 *                         PieceTags id;                // identities for the support sets
 *                         uint16_t explosions, lost_traveling[2];
 *                         uint16_t supports[]; };      // grows: each explosion's supporters' ids
 *   Chessgi      struct { uint8_t pocket[2][7];        // counts by piece type
 *                         Traveller due[2][11];        // by due move, one per side per move
 *                         uint8_t last_travel; };      // plies since a time travel (cooldown)
 *                a general travel <T.P>m is Move{ m's fields, .flags = MOVE_AT_NODE, .arg = P }:
 *                apply copies node P's board and the opponent's pocket, keeps the mover's, plays
 *                m there and returns P, which starts a new timeline.
 */

/* ---- Options ------------------------------------------------------------ */

/* A variant's rule limits are named options (10 moves forward, 5 back, 2
 * backward travels), each with a default and a range. */
enum { OPTIONS_MAX = 8 };

typedef struct OptionSpec {
    const char *name;      /* "forward"                                  */
    const char *help;      /* "a piece travels at most this many moves forward" */
    int value;             /* the default                                */
    int min, max;
} OptionSpec;

/* The values of one game's options, in the order the variant lists them. */
typedef struct Options {
    int value[OPTIONS_MAX];
} Options;

/* ---- Outcomes ----------------------------------------------------------- */

enum Result { RESULT_NONE = 0, RESULT_WHITE_WINS, RESULT_BLACK_WINS, RESULT_DRAW, RESULT_BOTH_LOSE };

/* Why a game ended.  The words are made from the code (outcome_words), so
 * that a server or an engine can act on the reason without reading text. */
enum Reason {
    REASON_NONE = 0,
    REASON_CHECKMATE,
    REASON_STALEMATE,
    REASON_INSUFFICIENT_MATERIAL,   /* a dead position                        */
    REASON_FIFTY_MOVES,
    REASON_REPETITION,
    REASON_KING_LOST_IN_TIME,       /* side: whose king (Gifford, Chessgi)    */
    REASON_OBLIGATIONS_UNMET,       /* side: whose, or SIDE_BOTH (van Gog)    */
    REASON_GRAMMATICALLY_INCORRECT, /* side: who is (Time Traveler's Chess)  */
    REASON_RESIGNATION,             /* side: who resigned                     */
    REASON_AGREED_DRAW,
    REASON_TIME,                    /* side: whose time ran out; a draw when
                                       the other side cannot win          */
    REASON_RECORDED,                /* a result a game file states in words of
                                       its own ([Termination]); the words are
                                       kept with the game                     */
    REASON_COUNT,
    /* A game's own end, which no other game has: its words are the game's
     * (Outcome.own, one of its Variant.ends), so that a new end needs no
     * entry here and reaches every record, the server and the page as
     * words. */
    REASON_OWN = 64
};

enum { SIDE_WHITE = WHITE, SIDE_BLACK = BLACK, SIDE_BOTH = 2, SIDE_NONE = 3 };

typedef struct Outcome {
    uint8_t result;   /* enum Result  */
    uint8_t reason;   /* enum Reason  */
    uint8_t side;     /* the side the reason names, SIDE_BOTH, or SIDE_NONE */
    uint8_t board;    /* how the game ended on the board or by the players
                         (checkmate, a resignation): the same as reason,
                         unless a rule of the game's own changed the result
                         (van Gog's unmet obligations), so that a check mark
                         can still say '#' for a mate that loses */
    /* The words of a game's own end (REASON_OWN): one of its Variant.ends,
     * after the side it names unless that is SIDE_NONE ("white ..."); NULL
     * for the library's reasons. */
    const char *own;
} Outcome;

static inline Outcome outcome_make(uint8_t result, uint8_t reason, uint8_t side)
{
    Outcome o = { result, reason, side, reason, NULL };
    return o;
}
/* A game's own end, in its words (one of its Variant.ends). */
static inline Outcome outcome_own(uint8_t result, const char *words, uint8_t side)
{
    Outcome o = { result, REASON_OWN, side, REASON_OWN, words };
    return o;
}
static inline Outcome outcome_none(void) { return outcome_make(RESULT_NONE, REASON_NONE, SIDE_NONE); }
/* The side that wins when `loser` loses. */
static inline uint8_t result_loss_for(Color loser) { return loser == WHITE ? RESULT_BLACK_WINS : RESULT_WHITE_WINS; }

/* "1-0", "0-1", "1/2-1/2", "0-0" or "*". */
const char *result_string(uint8_t result);
/* The reason in words: "checkmate", "white king lost in time", ...;
 * `recorded` gives the words of REASON_RECORDED. */
void outcome_words(Outcome o, const char *recorded, Text *out);
/* The result line: "ongoing", or "1-0 checkmate", "0-1 white king lost in time". */
void outcome_line(Outcome o, const char *recorded, Text *out);
struct Variant;
/* Reads the words of a reason back ("white resigns" -> REASON_RESIGNATION,
 * white), the library's or one of the game v's own ends; false if they
 * name none. */
bool outcome_from_words(const struct Variant *v, const char *words, Outcome *o);

struct Line;
/* The end when the time of `flagged` runs out at the line's present
 * position: a loss for it ("0-1 white lost on time"), or a draw when its
 * opponent could not win by any series of legal actions ("1/2-1/2 white
 * lost on time, but black cannot win"; Variant.can_win).  Declare it with
 * game_declare: the game's own rules still judge it (van Gog's
 * obligations). */
Outcome outcome_on_time(const struct Line *l, Color flagged);

/* ---- Kinds of action ---------------------------------------------------- */

/* How a player makes an action of a kind in a graphical client, and what
 * its `arg` means: all that a client (the web page) needs to offer the
 * actions of a game it knows nothing else of. */
enum KindTravel {
    KIND_NO_TRAVEL = 0,
    KIND_FORWARD,   /* the piece leaves for move `arg` (a choice of moves)     */
    KIND_BACK,      /* the piece lands at move `arg` of the past (shown there
                       first, since it changes an earlier position)          */
    KIND_DEPART     /* the piece moves and leaves for another time            */
};

typedef struct ActionKind {
    uint8_t kind;            /* enum MoveKind, or a game's own from MOVE_OWN  */
    const char *name;        /* "send-forward": the action's kind in the API   */
    const char *words;       /* "sent forward in time"                         */
    bool board;              /* made by moving a piece from a square to another */
    uint8_t travel;          /* enum KindTravel: listed among a piece's travels */
    /* A piece put on the board from beside it (a drop, an arrival): the
     * group the client shows it in and the group's label; NULL for none.
     * `from_first`: the square chosen first is `from` (an explosion's
     * square), not `to`. */
    const char *group, *group_label;
    bool from_first;
    const char *arg_words;   /* what `arg` is, before its number: "arrives at
                                move", "to move"; NULL when it is nothing to
                                show                                         */
    /* The group a text list of actions shows the kind in ("arrivals from
     * the future", the play screen's `moves`), and where the group comes
     * among the others (lower first); NULL: among the moves. */
    const char *list_title;
    uint8_t list_order;
} ActionKind;

/* ---- Sample positions --------------------------------------------------- */

/* A position of a game worth trying (Variant.samples): its start or a
 * game under way, given as actions from a position so that the history
 * comes with it.  `ttchess bench` searches those with a bench_depth, in
 * the order of the registry; the fuzz harnesses start from every one. */
typedef struct SamplePosition {
    const char *fen;      /* NULL: the variant's start                   */
    const char *moves;    /* actions in any notation, spaces between; NULL: none */
    const char *options;  /* "name=value ...", or NULL for the defaults  */
    int bench_depth;      /* the bench's depth in plies; 0: not benched  */
} SamplePosition;

/* ---- The parts of a FEN ------------------------------------------------- */

/* Where a part of a game's FEN stands in it. */
enum FenPlace {
    FEN_FIELD = 0,   /* a field after the six of chess: FenPart.field is its
                        number, counted from 1 (7 for the first after them) */
    FEN_MARKS,       /* a mark after a piece's letter in the placement ("N'") */
    FEN_POCKETS      /* pieces between brackets after the placement ("[QNp]") */
};

/*
 * A part of a game's FEN beyond chess's (Variant.fen_parts): what a board
 * editor that knows no game needs to offer it.  A field per side holds
 * White's value, '/', then Black's ("P5,P8/Bb5"); its example and empty
 * value are one side's.  A field that is empty may be written as `empty`.
 */
typedef struct FenPart {
    const char *name;      /* "arrivals": the part's name, one word       */
    const char *label;     /* "Arrivals pending": a title for the player  */
    const char *words;     /* what it holds and how it is written          */
    const char *example;   /* "P5,Bb8": a value of the right form          */
    uint8_t place;         /* enum FenPlace                                */
    uint8_t field;         /* FEN_FIELD: the field's number (7, 8, ...)    */
    bool per_side;         /* each side has its own (a field: White's, '/',
                              Black's)                                     */
    const char *empty;     /* the value that says "none": "-", "0"         */
    /* FEN_MARKS: the marks, in the order an editor cycles through them;
     * FEN_POCKETS: the piece letters a pocket may hold, in the FEN's
     * order; NULL for a field. */
    const char *values;
} FenPart;

/* ---- The interface ------------------------------------------------------ */

struct Line;

/* How a score sheet shows an action (Variant.format_sheet's `part`). */
enum SheetPart {
    SHEET_ACTION = 0,   /* an action within one timeline                  */
    SHEET_DEPARTURE,    /* a travel back, where it ends the old sheet     */
    SHEET_ARRIVAL       /* the same travel, where it opens the new sheet  */
};

typedef struct Variant {
    const char *name;          /* "chess", "gifford", ... (--variant)          */
    const char *title;         /* "Time Travel Chess (Gifford)" (PGN Variant)  */
    /* For a game played in several modes under one title (van Gog's
     * "past", "future", "full"): this variant's mode, which records carry
     * as [VariantMode]; NULL for the others. */
    const char *mode;
    /* The fixed parameters of a variant that shares its code with others
     * (van Gog's kinds of travel); NULL when there are none. */
    const void *params;
    /* The engine's evaluation of this variant (src/variants/eval.h; the
     * library reads it through evaluator_for).  Every registered variant
     * has one, beside its rules (tests/test_variants.c checks). */
    const struct Evaluator *evaluator;
    const char *start_fen;     /* the start position in this variant's FEN     */
    const char *notation_help; /* the game's own action forms, for help; or NULL */
    const OptionSpec *options; /* the named rule limits, option_count of them  */
    int option_count;
    /* Bytes of State.ext every position has; a variant whose state grows
     * says instead, through ext_room, how many the position after an action
     * may need at most (NULL: ext_size). */
    size_t ext_size;
    size_t (*ext_room)(const struct Line *l, Move m);

    /* Reads a position in the variant's FEN into a new State (malloc'd;
     * the caller frees it); NULL with the reason in err on a bad FEN, or
     * "out of memory".  Positions that cannot arise are refused too: the
     * side not to move in check in the variant's sense, kings the variant
     * does not allow. */
    State *(*from_fen)(const Options *o, const char *fen, Text *err);
    void (*to_fen)(const Options *o, const State *s, Text *out);

    /* Appends every legal action of the side to move at the line's
     * present position; false only when out of memory. */
    bool (*generate)(const struct Line *l, MoveList *out);
    /* Optional: appends exactly the actions of generate() that are chess
     * moves (move_is_chess), in the same order; false only when out of
     * memory.  The engine's quiescence follows only those, and a game
     * whose other actions come in the thousands (van Gog's arrivals, Time
     * Traveler's explosions) saves their generation there.  NULL: the
     * caller filters generate()'s list (line_generate_chess). */
    bool (*generate_chess)(const struct Line *l, MoveList *out);
    /* Writes the state after the legal action m to *next (which has room
     * for the ext the variant declares) and returns the index of the node
     * the new state follows: the present node for an ordinary action, an
     * earlier one for an action that travels back. */
    int (*apply)(const struct Line *l, Move m, State *next);
    /* Is the side to move in check, in the variant's sense? */
    bool (*in_check)(const struct Line *l);
    /* The result by the rules (checkmate, stalemate, draws, the game's own
     * ends); RESULT_NONE while the game goes on.  False only when out of
     * memory. */
    bool (*outcome)(const struct Line *l, Outcome *out);
    /* Applies the game's own judgement to an end the players declare (a
     * resignation, an agreed draw): van Gog's unmet obligations still
     * decide the result.  NULL: a declared end stands as it is. */
    Outcome (*settle)(const struct Line *l, Outcome declared);
    /* Could `side` still win from the line's present position by some
     * series of legal actions of both sides?  The rule that judges a
     * flag: the opponent of a player whose time ran out wins only if it
     * could (docs/rules/<variant>.md, "Time").  False only where it surely
     * cannot; a position the variant cannot judge cheaply counts as
     * winnable.  NULL: it always can. */
    bool (*can_win)(const struct Line *l, Color side);
    /* The words of the game's own ends (REASON_OWN, outcome_own), ended by
     * NULL; NULL: it has none.  Records and the server write an end in its
     * words, and read it back by them. */
    const char *const *ends;
    /* The key of ext computed from nothing (the variant keeps ext_key up
     * to date in apply; tests compare the two).  NULL: no ext. */
    uint64_t (*ext_key)(const Options *o, const State *s);
    /* Are two states with equal keys the same position for repetition?
     * (Confirms a key match; never called on the hot path.) */
    bool (*same_position)(const State *a, const State *b);

    /* Notation.  parse accepts every notation the game reads; on failure
     * it writes a sentence saying what was wrong, naming the rule that
     * forbids an illegal action.  The formatters write the action, legal
     * at the line's present position, in the coordinate form, the human
     * form and (NULL: the human form) the score sheet's; they return false
     * only when out of memory. */
    bool (*parse)(const struct Line *l, const char *text, Move *out, Text *err);
    bool (*format_coord)(const struct Line *l, Move m, Text *out);
    bool (*format_human)(const struct Line *l, Move m, Text *out);
    bool (*format_sheet)(const struct Line *l, Move m, int part, Text *out);
    /* A note on what the action does besides itself (Gifford: an arrival
     * lost in time); nothing when none.  With MOVE_NULL: a note on the
     * turn no action was played at, at the end of a game.  Records keep it
     * as a comment.  May be NULL. */
    bool (*note)(const struct Line *l, Move m, Text *out);
    /* A mark for the piece on sq, shown after it on the play screen:
     * Time Traveler's Chess marks a traveling piece ' and a traveled one
     * ", as its FEN does; 0 for none.  NULL: no piece has one. */
    char (*piece_mark)(const State *s, Square sq);
    /* Extra lines for the play screen (pending arrivals, travels left,
     * what the side to move must do); may be NULL. */
    bool (*describe)(const struct Line *l, Text *out);

    /* Score sheets, for a game whose actions can end a timeline: is this
     * cell the first half of such an action (Gifford's "K// Back to 2")?
     * If so, *move is the move at which the next sheet holds the other
     * half.  sheet_join makes the whole action of the two halves.  Both
     * NULL for a game without travels back. */
    bool (*sheet_departure)(const char *cell, int *move);
    bool (*sheet_join)(const struct Line *l, const char *departure, const char *arrival, Move *out, Text *err);

    /* The game's own kinds of action (from MOVE_OWN up), ended by one
     * whose name is NULL; the kinds every game may use are the library's
     * (variant_action_kind).  NULL: none of its own. */
    const ActionKind *kinds;

    /* The kings the play screen shows in check: the side to move's kings
     * that are attacked (checked_kings_attacked), unless the game's check
     * is something else than an attack on a king.  NULL: that default. */
    Bitboard (*checked_kings)(const struct Line *l);
    /* Why the side to move is or is not in check, in a few lines (the
     * command line's `check`).  NULL: whether a king of its is attacked
     * (explain_check_attacked). */
    bool (*explain_check)(const struct Line *l, Text *out);
    /* For a game whose actions rest on the support of other pieces: what
     * supports an action on the square sq (the command line's
     * `supports`), written to out; false with the reason in err.  The
     * command's one-line summary and its help (what it shows), for help
     * texts.  All three NULL: the game has no such command. */
    bool (*explain_supports)(const struct Line *l, Square sq, Text *out, Text *err);
    const char *supports_summary;  /* "what supports ... on a square"  */
    const char *supports_help;     /* "for each piece type, ...\n"      */
    /* Positions of the game worth trying, sample_count of them: the
     * bench's and the fuzz harnesses' starts.  NULL: none. */
    const SamplePosition *samples;
    int sample_count;
    /* The parts of the game's FEN beyond chess's six fields, ended by one
     * whose name is NULL, in the order a FEN writes them; NULL: none. */
    const FenPart *fen_parts;
} Variant;

/* ---- The optional slots, with their defaults ---------------------------- */

/*
 * A game leaves a slot NULL when it has nothing to say there (no notes, no
 * piece marks, no travels back).  These are the only readers of those
 * slots: each gives the default once, so that no caller tests the table
 * for NULL itself, and a new game need fill only the slots it uses.
 */
static inline size_t variant_ext_room(const Variant *v, const struct Line *l, Move m)
{
    return v->ext_room ? v->ext_room(l, m) : v->ext_size;
}
/* A declared end stands as it is unless the game judges it. */
static inline Outcome variant_settle(const Variant *v, const struct Line *l, Outcome declared)
{
    return v->settle ? v->settle(l, declared) : declared;
}
/* A side can win unless the game knows it cannot. */
static inline bool variant_can_win(const Variant *v, const struct Line *l, Color side)
{
    return v->can_win ? v->can_win(l, side) : true;
}
/* A game with no ext has the key 0 for it. */
static inline uint64_t variant_ext_key(const Variant *v, const Options *o, const State *s)
{
    return v->ext_key ? v->ext_key(o, s) : 0;
}
/* The score sheet's form of an action is the human form unless the game
 * has its own; a game without its own writes no cell for the end of the
 * game (m is MOVE_NULL). */
static inline bool variant_format_sheet(const Variant *v, const struct Line *l, Move m, int part, Text *out)
{
    if (v->format_sheet) return v->format_sheet(l, m, part, out);
    return m.kind == MOVE_NULL ? true : v->format_human(l, m, out);
}
/* No note, unless the game has one. */
static inline bool variant_note(const Variant *v, const struct Line *l, Move m, Text *out)
{
    return v->note ? v->note(l, m, out) : true;
}
/* No mark, unless the game marks pieces. */
static inline char variant_piece_mark(const Variant *v, const State *s, Square sq)
{
    return v->piece_mark ? v->piece_mark(s, sq) : 0;
}
/* No extra lines, unless the game has some. */
static inline bool variant_describe(const Variant *v, const struct Line *l, Text *out)
{
    return v->describe ? v->describe(l, out) : true;
}
/* A cell departs only in a game with travels back. */
static inline bool variant_sheet_departure(const Variant *v, const char *cell, int *move)
{
    return v->sheet_departure ? v->sheet_departure(cell, move) : false;
}
static inline bool variant_sheet_join(const Variant *v, const struct Line *l, const char *departure,
                                      const char *arrival, Move *out, Text *err)
{
    if (v->sheet_join) return v->sheet_join(l, departure, arrival, out, err);
    return text_fail(err, "%s has no travels back", v->name);
}

/* A game's FEN has no parts beyond chess's unless it lists some: the
 * table then holds only its end. */
static inline const FenPart *variant_fen_parts(const Variant *v)
{
    static const FenPart NONE[] = { { NULL, NULL, NULL, NULL, 0, 0, false, NULL, NULL } };
    return v->fen_parts ? v->fen_parts : NONE;
}

/* The defaults of the command line's slots (defaults.c): the side to
 * move's kings that are attacked, and check as an attack on a king. */
Bitboard checked_kings_attacked(const struct Line *l);
bool explain_check_attacked(const struct Line *l, Text *out);

/* The kings in check are those attacked, unless the game says. */
static inline Bitboard variant_checked_kings(const Variant *v, const struct Line *l)
{
    return v->checked_kings ? v->checked_kings(l) : checked_kings_attacked(l);
}
/* Check explained as an attack on a king, unless the game explains it. */
static inline bool variant_explain_check(const Variant *v, const struct Line *l, Text *out)
{
    return v->explain_check ? v->explain_check(l, out) : explain_check_attacked(l, out);
}
/* Does the game have the command line's `supports`? */
static inline bool variant_has_supports(const Variant *v) { return v->explain_supports != NULL; }
static inline bool variant_explain_supports(const Variant *v, const struct Line *l, Square sq, Text *out, Text *err)
{
    if (v->explain_supports) return v->explain_supports(l, sq, out, err);
    return text_fail(err, "%s has no supports", v->name);
}

/* What a kind of action is, for the game v: its own kinds first, then the
 * kinds the library knows (kinds.c); a kind that neither knows reads as
 * "none", so that a client is never handed a NULL. */
const ActionKind *variant_action_kind(const Variant *v, uint8_t kind);

/* ---- Options ------------------------------------------------------------ */

void options_default(const Variant *v, Options *o);
/* Applies "name=value" assignments separated by spaces or commas on top of
 * *o; on a bad one writes why and returns false (*o may then be half
 * changed). */
bool options_parse(const Variant *v, Options *o, const char *assignments, Text *err);
/* Writes the options that differ from the defaults ("forward=8 back=3"),
 * or every option when `all`. */
void options_format(const Variant *v, const Options *o, bool all, Text *out);

#endif
