// bgedit's C interface to Open Sage's C++ core (vendor/bgsage), for
// src/engine/sage/native/ffi.rs. Part of bgedit (MIT OR Apache-2.0); it
// calls Sage's code (MPL-2.0) but copies none of it.
//
// It answers as bgsage's Python `BgBotAnalyzer` does (analyzer.py,
// bindings.cpp), call for call, so the numbers are Sage's own: checker play
// is every legal move scored cubefully (1-ply: the network then Janowski;
// N-ply: Sage's cube-aware tree from the opponent's side), sorted as
// `_move_order_key` sorts; a cube decision is `evaluate_cube_decision_unified`
// (1-ply) or `cube_decision_nply_unified` (N-ply). Sage's own mobile.cpp
// does the same but stops at 2-ply and gives JSON.
//
// No C++ exception leaves: each entry point catches everything and returns
// an error code, with the message copied into the caller's buffer.
#include "bgbot/bearoff.h"
#include "bgbot/board.h"
#include "bgbot/cube.h"
#include "bgbot/moves.h"
#include "bgbot/multipy.h"
#include "bgbot/neural_net.h"
#include "bgbot/pubeval.h"
#include <algorithm>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

using namespace bgbot;

struct BgeSage {
    BearoffDB db;
    std::shared_ptr<Strategy> strategy;  // the network, with the bear-off database
    PubEval prefilter;                   // Sage's move prefilter in its cube tree
};

extern "C" {

typedef struct {
    int board[26];
    int cube_value;
    int cube_owner;  // 0 centred, 1 the player on roll, 2 the opponent
    int away1, away2, crawford, jacoby, beaver;
    int ply;  // Sage's count: 1 is the network alone
} BgeSageState;

typedef struct {
    int board[26];
    double probs[5];
    double equity;
    double cubeless;
} BgeSageMove;

typedef struct {
    double probs[5];
    double cubeless, no_double, double_take, double_pass, optimal;
    int should_double, should_take, is_beaver;
} BgeSageCube;

enum { BGE_OK = 0, BGE_FAILED = 1, BGE_TOO_SMALL = 2 };

}  // extern "C"

namespace {

void say(char* err, size_t len, const char* what) {
    if (!err || len == 0) return;
    std::strncpy(err, what, len - 1);
    err[len - 1] = '\0';
}

// The request checked as Sage's mobile.cpp checks it: a board Sage's code
// would index out of range is refused before it gets there.
void validate(const BgeSageState& s) {
    if (s.ply < 1 || s.ply > 4 || s.cube_owner < 0 || s.cube_owner > 2 || s.cube_value < 1 ||
        s.cube_value > 32768 || (s.cube_value & (s.cube_value - 1)) || s.away1 < 0 ||
        s.away2 < 0 || s.away1 > 64 || s.away2 > 64 || ((s.away1 == 0) != (s.away2 == 0)))
        throw std::invalid_argument("a cube or score Sage does not take");
    int player = s.board[25], opponent = s.board[0];
    if (player < 0 || opponent < 0 || player > 15 || opponent > 15)
        throw std::invalid_argument("a bar count out of range");
    for (int i = 1; i < 25; ++i) {
        if (s.board[i] < -15 || s.board[i] > 15)
            throw std::invalid_argument("a point's count out of range");
        if (s.board[i] > 0) player += s.board[i]; else opponent -= s.board[i];
    }
    if (player < 1 || player > 15 || opponent < 1 || opponent > 15)
        throw std::invalid_argument("a side with no checkers left, or more than 15");
}

CubeInfo cube_info(const BgeSageState& s) {
    const bool money = s.away1 == 0;
    // BgBotAnalyzer turns Jacoby and beavers off in a match.
    return CubeInfo{s.cube_value, static_cast<CubeOwner>(s.cube_owner),
                    {s.away1, s.away2, s.crawford != 0}, -1.0f,
                    money && s.jacoby != 0, money && s.beaver != 0};
}

Board board_of(const BgeSageState& s) {
    Board b{};
    std::copy(s.board, s.board + 26, b.begin());
    return b;
}

const MoveFilter FILTER{5, 0.08f};  // BgBotAnalyzer's filter_max_moves, filter_threshold

template <typename F>
int guarded(char* err, size_t len, F f) {
    try {
        return f();
    } catch (const std::exception& e) {
        say(err, len, e.what());
    } catch (...) {
        say(err, len, "Sage failed");
    }
    return BGE_FAILED;
}

// One move as _CubefulAnalyzer scores it.
BgeSageMove score(const BgeSage& e, const Board& before, const Board& after,
                  const CubeInfo& ci, int ply) {
    BgeSageMove m{};
    std::copy(after.begin(), after.end(), m.board);
    std::array<float, 5> p;
    if (ply == 1) {
        p = e.strategy->evaluate_probs(after, before);
        auto [pp, op] = pip_counts(after);
        const float x = cube_efficiency(p, is_race(after), pp, op);
        m.equity = ci.is_money() ? cl2cf_money(p, ci.owner, x, ci.jacoby_active())
                                 : cl2cf(p, ci, x);
        for (int i = 0; i < 5; ++i) m.probs[i] = p[i];
    } else {
        // From the opponent's side, rooted at the position before the move.
        auto v = cubeful_probs_and_equity_nply(flip(after), flip_cube_perspective(ci),
                                               *e.strategy, ply, FILTER, 1, nullptr, &before);
        const double q[5] = {v.probs[0], v.probs[1], v.probs[2], v.probs[3], v.probs[4]};
        m.probs[0] = 1.0 - q[0];
        m.probs[1] = q[3];
        m.probs[2] = q[4];
        m.probs[3] = q[1];
        m.probs[4] = q[2];
        m.equity = -static_cast<double>(v.equity);
    }
    const double* w = m.probs;
    m.cubeless = 2.0 * w[0] - 1.0 + w[1] - w[3] + w[2] - w[4];
    return m;
}

}  // namespace

extern "C" {

// Loads Sage's networks (`count` weight files with their hidden sizes, laid
// out as `strategy_type` says) and its bear-off database.
int bge_sage_open(const char* strategy_type, const char* const* paths, const int* hidden,
                  int count, const char* bearoff, BgeSage** out, char* err, size_t len) {
    return guarded(err, len, [&] {
        if (!strategy_type || !paths || !hidden || !bearoff || !out || count < 5 || count > 64)
            throw std::invalid_argument("an incomplete model layout");
        std::vector<std::string> p;
        std::vector<int> h;
        for (int i = 0; i < count; ++i) {
            if (!paths[i] || hidden[i] < 1 || hidden[i] > 4096)
                throw std::invalid_argument("a model file without its name or size");
            p.emplace_back(paths[i]);
            h.push_back(hidden[i]);
        }
        auto e = std::make_unique<BgeSage>();
        const std::string t(strategy_type);
        std::shared_ptr<Strategy> base;
        if (t == "backgame_pair_phased") base = std::make_shared<BackgameAwarePairStrategy>(p, h, true);
        else if (t == "backgame_pair") base = std::make_shared<BackgameAwarePairStrategy>(p, h);
        else if (t == "pair") base = std::make_shared<GamePlanPairStrategy>(p, h);
        else if (t == "5nn") base = std::make_shared<GamePlanStrategy>(p, h);
        else throw std::invalid_argument("a model layout this build does not know: " + t);
        if (!e->db.load(bearoff)) throw std::runtime_error(std::string("cannot read the bear-off database ") + bearoff);
        e->strategy = std::make_shared<BearoffStrategy>(base, &e->db);
        *out = e.release();
        return BGE_OK;
    });
}

void bge_sage_close(BgeSage* e) { delete e; }

// Every legal move of dice d1-d2, best first, into `out` (room for `cap`);
// `*n` is how many there are. BGE_TOO_SMALL: ask again with room for `*n`.
int bge_sage_moves(const BgeSage* e, const BgeSageState* s, int d1, int d2, BgeSageMove* out,
                   int cap, int* n, char* err, size_t len) {
    return guarded(err, len, [&] {
        if (!e || !s || !n || (cap > 0 && !out)) throw std::invalid_argument("no engine or request");
        if (d1 < 1 || d1 > 6 || d2 < 1 || d2 > 6) throw std::invalid_argument("dice out of range");
        validate(*s);
        const Board before = board_of(*s);
        const CubeInfo ci = cube_info(*s);
        std::vector<Board> candidates;
        possible_boards(before, d1, d2, candidates);
        *n = static_cast<int>(candidates.size());
        if (*n > cap) return static_cast<int>(BGE_TOO_SMALL);
        std::vector<BgeSageMove> moves;
        moves.reserve(candidates.size());
        for (const auto& b : candidates) moves.push_back(score(*e, before, b, ci, s->ply));
        // _move_order_key: equity, then cubeless equity, then the board.
        std::sort(moves.begin(), moves.end(), [](const BgeSageMove& a, const BgeSageMove& b) {
            if (a.equity != b.equity) return a.equity > b.equity;
            if (a.cubeless != b.cubeless) return a.cubeless > b.cubeless;
            return std::lexicographical_compare(a.board, a.board + 26, b.board, b.board + 26);
        });
        std::copy(moves.begin(), moves.end(), out);
        return static_cast<int>(BGE_OK);
    });
}

// The cube decision of the player on roll, before the roll.
int bge_sage_cube(const BgeSage* e, const BgeSageState* s, BgeSageCube* out, char* err,
                  size_t len) {
    return guarded(err, len, [&] {
        if (!e || !s || !out) throw std::invalid_argument("no engine or request");
        validate(*s);
        const Board board = board_of(*s);
        const CubeInfo ci = cube_info(*s);
        const Board flipped = flip(board);
        std::array<float, 5> p;
        CubeDecision cd;
        if (s->ply == 1) {
            p = invert_probs(e->strategy->evaluate_probs(flipped, is_race(board)));
            auto [pp, op] = pip_counts(board);
            cd = cube_decision_1ply(p, ci, cube_efficiency(p, is_race(board), pp, op));
        } else {
            cd = cube_decision_nply(board, ci, *e->strategy, s->ply, FILTER, 1, &e->prefilter);
            MultiPlyStrategy multipy(e->strategy, s->ply, FILTER, false, false, 1);
            multipy.set_bearoff_db(&e->db);
            p = invert_probs(multipy.evaluate_probs(flipped, flipped));
            multipy.clear_cache();
        }
        for (int i = 0; i < 5; ++i) out->probs[i] = p[i];
        out->cubeless = cubeless_equity(p);
        out->no_double = cd.equity_nd;
        out->double_take = cd.equity_dt;
        out->double_pass = cd.equity_dp;
        out->optimal = cd.optimal_equity;
        out->should_double = cd.should_double;
        out->should_take = cd.should_take;
        out->is_beaver = cd.is_beaver;
        return static_cast<int>(BGE_OK);
    });
}

}  // extern "C"
