// bgedit's C interface to Open Sage's C++ core (vendor/bgsage), for
// crates/engine/src/sage/native/ffi.rs. Part of bgedit (MIT OR Apache-2.0); it
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
// Rollouts follow bgsage's `_RolloutAnalyzer` under `_CubefulAnalyzer`
// (analyzer.py) and the `cubeful_evaluate_board` / `cube_decision` bindings
// step by step: the same filters, the same Sage calls, in the same order, so
// a seed gives Sage's own numbers.
//
// No C++ exception leaves: each entry point catches everything and returns
// an error code, with the message copied into the caller's buffer. The
// caller's progress function is called from Sage's worker threads too; a
// throw from it is caught here and stops the rollout.
#include "bgbot/bearoff.h"
#include "bgbot/board.h"
#include "bgbot/cube.h"
#include "bgbot/encoding.h"
#include "bgbot/moves.h"
#include "bgbot/multipy.h"
#include "bgbot/neural_net.h"
#include "bgbot/match_equity.h"
#include "bgbot/pubeval.h"
#include "bgbot/rollout.h"
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

using namespace bgbot;

struct BgeSage {
    BearoffDB db;
    std::shared_ptr<Strategy> base;      // the network alone (a rollout takes it so)
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

// A rollout's settings, as bgedit's bridge hands them to BgBotAnalyzer.
typedef struct {
    int trials;
    int truncate;    // half-moves; 0 plays each trial out
    int ply;         // the players' depth, Sage's count (1 the network)
    int threads;     // 0: as bgsage picks (at least 2)
    int candidates;  // moves rolled out (bgsage's filter_max_moves)
    unsigned seed;
    int truncation_ply;  // the depth at the truncation point, Sage's count; -1 the players'
} BgeSageRollout;

// One move of a rollout's list.
typedef struct {
    int board[26];
    double probs[5];
    double equity;     // cubeful
    double cubeless;
    double std_error;  // bgsage's MoveAnalysis.std_error; the cubeful one while partial
    int level;         // 0 rolled out, else the Sage ply of the filter's value
} BgeSageRolled;

typedef struct {
    BgeSageCube cube;
    double no_double_se, double_take_se;
} BgeSageRolledCube;

// A rollout's stop, set from any thread (bge_sage_stop_set); Sage's workers
// read it between chunks of trials.
struct BgeSageStop {
    std::atomic<bool> flag{false};
};

// How far a rollout is: `done` of `total` trials (done > total while moves
// the filter dropped are rolled out after all), and a move when one is
// finished. Returns 0 to stop the rollout. Called from Sage's worker
// threads as well as the caller's.
typedef int (*BgeSageProgress)(void* ctx, int done, int total, const BgeSageRolled* finished);

enum { BGE_OK = 0, BGE_FAILED = 1, BGE_TOO_SMALL = 2, BGE_STOPPED = 4 };

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
        s.away2 < 0 || ((s.away1 == 0) != (s.away2 == 0)))
        throw std::invalid_argument("a cube or score Sage does not take");
    // Past its match equity table Sage reads the table at its last row:
    // numbers, but not equities (bgedit refuses such a score before).
    if (s.away1 > MAX_MATCH_LENGTH || s.away2 > MAX_MATCH_LENGTH)
        throw std::invalid_argument("a score past Sage's match equity table");
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


// A standard error in MWC as one in equity: mwc2eq is linear piecewise, so
// its slope around the mean, measured over a small step, scales it exactly.
float se_in_equity(float se, float mwc, int a1, int a2, int cv, bool craw) {
    const float step = std::max(1e-3f, se);
    const float slope = (mwc2eq(mwc + step, a1, a2, cv, craw) - mwc2eq(mwc - step, a1, a2, cv, craw)) /
                        (2.0f * step);
    return std::abs(slope) * se;
}

// ---- Rollouts ----

// Every rollout running, so that the process's exit stops them: the exit
// runs Sage's thread pool's destructor, which joins its workers, and a
// worker in a rollout would only come back at the rollout's end (minutes).
// Function-local statics, built at the first rollout: nothing of this runs
// at program start, before bgedit has checked the CPU.
std::mutex& running_lock() {
    static std::mutex m;
    return m;
}

std::vector<BgeSageStop*>& running() {
    static std::vector<BgeSageStop*> v;
    return v;
}

bool& exiting() {
    static bool e = false;
    return e;
}

void stop_all_rollouts() {
    std::lock_guard<std::mutex> lock(running_lock());
    exiting() = true;
    for (auto* stop : running()) stop->flag.store(true, std::memory_order_release);
}

// Registers the stop at exit once; Sage's pool is built first, so that the
// exit stops the rollouts before it joins the pool's workers.
void stop_at_exit() {
    static std::once_flag once;
    std::call_once(once, [] {
        multipy_parallel_run(1, [] {});
        running_lock();
        running();
        exiting();
        std::atexit(stop_all_rollouts);
    });
}

// A rollout known as running for as long as it is.
class Registered {
public:
    explicit Registered(BgeSageStop* stop) : stop_(stop) {
        stop_at_exit();
        std::lock_guard<std::mutex> lock(running_lock());
        if (exiting()) stop_->flag.store(true, std::memory_order_release);
        running().push_back(stop_);
    }
    ~Registered() {
        std::lock_guard<std::mutex> lock(running_lock());
        auto& v = running();
        v.erase(std::remove(v.begin(), v.end(), stop_), v.end());
    }
    Registered(const Registered&) = delete;
    Registered& operator=(const Registered&) = delete;

private:
    BgeSageStop* stop_;
};

// What a rollout tells its caller, and how the caller stops it. Sage's
// worker threads report here as well as the calling thread; the first "stop"
// cancels Sage's rollout (which then ends after the trials in hand).
class Reporter {
public:
    Reporter(BgeSageProgress cb, void* ctx, BgeSageStop* stop) : cb_(cb), ctx_(ctx), stop_(stop) {}
    Reporter(const Reporter&) = delete;
    Reporter& operator=(const Reporter&) = delete;

    // False once the rollout is to stop (asked by the caller's callback or
    // its stop flag).
    bool report(int done, int total, const BgeSageRolled* finished) {
        if (stopped()) return false;
        int go = 1;
        if (cb_) {
            try {
                go = cb_(ctx_, done, total, finished);
            } catch (...) {
                go = 0;
            }
        }
        if (!go) stop_->flag.store(true, std::memory_order_release);
        return go != 0;
    }

    bool stopped() const { return stop_->flag.load(std::memory_order_acquire); }

    // Sage's trial counts, shifted to the whole rollout's.
    RolloutProgressCallback trials(int offset, int total) {
        return [this, offset, total](int done, int) { report(offset + done, total, nullptr); };
    }

private:
    BgeSageProgress cb_;
    void* ctx_;
    BgeSageStop* stop_;
};

void validate(const BgeSageRollout& r) {
    if (r.trials < 1 || r.trials > 1000000 || r.truncate < 0 || r.truncate > 1000 || r.ply < 1 ||
        r.ply > 4 || r.threads < 0 || r.threads > 256 || r.candidates < 1 || r.candidates > 64 ||
        !(r.truncation_ply == -1 || (r.truncation_ply >= 1 && r.truncation_ply <= 4)))
        throw std::invalid_argument("rollout settings Sage does not take");
}

// bgsage's thread count: the one asked for, else one a CPU and at least 2
// (analyzer.py's _default_parallel_threads).
int rollout_threads(int asked) {
    if (asked > 0) return asked;
    return std::max(2, static_cast<int>(std::thread::hardware_concurrency()));
}

// BgBotAnalyzer(eval_level="rollout", ...) as bgedit's bridge makes it.
std::shared_ptr<RolloutStrategy> make_rollout(const BgeSage& e, const BgeSageRollout& r,
                                              BgeSageStop* stop) {
    RolloutConfig rc;
    rc.n_trials = r.trials;
    rc.truncation_depth = r.truncate;
    rc.decision_ply = r.ply;
    rc.truncation_ply = r.truncation_ply;
    rc.filter = MoveFilter{5, 0.08f};
    rc.n_threads = rollout_threads(r.threads);
    rc.seed = r.seed;
    rc.late_ply = -1;
    rc.late_threshold = 20;
    rc.enable_vr = true;
    rc.parallelize_trials = true;
    rc.ultra_late_threshold = 9999;
    rc.cubeful_trial_moves = true;
    rc.cubeful_late_threshold = 0;
    // Sage's cancellation reads the caller's stop flag: a stop from any
    // thread reaches its workers at their next chunk of trials.
    rc.cancel_flag = &stop->flag;
    auto ro = std::make_shared<RolloutStrategy>(e.base, rc);
    ro->set_bearoff_db(&e.db);
    return ro;
}

// One candidate as _score_candidates scores it: the chances by `st`, the
// cubeful equity by Janowski at the cube of `ci`.
struct Scored {
    double cf, cl;
    Board b;
    std::array<float, 5> p;
};

double janowski(const std::array<float, 5>& p, const Board& b, const CubeInfo& ci) {
    auto [pp, op] = pip_counts(b);
    const float x = cube_efficiency(p, is_race(b), pp, op);
    return ci.is_money() ? cl2cf_money(p, ci.owner, x, ci.jacoby_active()) : cl2cf(p, ci, x);
}

std::vector<Scored> score_all(const Strategy& st, const Board& before,
                              const std::vector<Board>& boards, const CubeInfo& ci) {
    std::vector<Scored> out;
    for (const auto& b : boards) {
        Scored c{0, 0, b, st.evaluate_probs(b, before)};
        c.cl = compute_equity(c.p);
        c.cf = janowski(c.p, b, ci);
        out.push_back(c);
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const Scored& a, const Scored& b) { return a.cf > b.cf; });
    return out;
}

// _filter_candidates: within `threshold` of the best, at most `max`.
std::vector<Scored> within(const std::vector<Scored>& scored, double threshold, size_t max) {
    std::vector<Scored> out;
    for (const auto& c : scored)
        if (out.size() < max && scored[0].cf - c.cf < threshold) out.push_back(c);
    return out;
}

bool holds(const std::vector<Scored>& v, const Board& b) {
    return std::any_of(v.begin(), v.end(), [&](const Scored& c) { return c.b == b; });
}

BgeSageRolled entry(const Board& b, const std::array<float, 5>& p, double cubeless, int level) {
    BgeSageRolled m{};
    std::copy(b.begin(), b.end(), m.board);
    for (int i = 0; i < 5; ++i) m.probs[i] = p[i];
    m.cubeless = cubeless;
    m.equity = cubeless;
    m.std_error = -1.0;
    m.level = level;
    return m;
}

// A rolled-out move (cubeful_evaluate_board's numbers, as analyzer.py keeps
// them); `cubeful_se` is kept in `equity`'s place until the list is final.
struct Rolled {
    BgeSageRolled m;
    double cubeful_se;
};

Rolled roll(const BgeSage& e, const RolloutStrategy& ro, const Board& b, const CubeInfo& ci,
            RolloutProgressCallback progress) {
    auto r = ro.cubeful_rollout_position(b, ci, std::move(progress));
    auto p = r.cubeless.mean_probs;
    if (e.db.is_bearoff(b)) p = e.db.lookup_probs(b, true);
    Rolled out{entry(b, p, r.cubeless.equity, 0), static_cast<float>(r.cubeful_se)};
    out.m.equity = static_cast<float>(r.cubeful_equity);  // the binding's float
    out.m.std_error = r.cubeless.std_error;
    return out;
}

// The stage before the rollout: which moves are rolled out (`survivors`),
// and every other move with the filter's numbers.
struct Filtered {
    std::vector<Scored> survivors;
    std::vector<BgeSageRolled> others;
};

Filtered filter_moves(const BgeSage& e, const Board& before, const std::vector<Board>& boards,
                      const CubeInfo& ci, const BgeSageRollout& r) {
    Filtered f;
    const auto one = score_all(*e.strategy, before, boards, ci);
    // bgsage's prefilter: for a rollout played to the end, a loose 1-ply cull
    // and the candidates' filter at 2-ply.
    const double prefilter = r.truncate == 0 ? 0.15 : 0.0;
    const auto stage1 = prefilter > 0 ? within(one, prefilter, one.size()) : one;
    std::vector<Scored> two;
    if (prefilter > 0 && stage1.size() > 1) {
        std::vector<Board> kept;
        for (const auto& c : stage1) kept.push_back(c.b);
        const int threads = rollout_threads(0);
        MultiPlyStrategy deeper(e.base, 2, FILTER, false, true, threads);
        deeper.set_move_prefilter(std::make_shared<PubEval>());
        deeper.set_bearoff_db(&e.db);
        two = score_all(deeper, before, kept, ci);
        deeper.clear_cache();
        f.survivors = within(two, 0.08, static_cast<size_t>(r.candidates));
    } else {
        f.survivors = within(stage1, 0.08, static_cast<size_t>(r.candidates));
    }
    const auto& pool = two.empty() ? one : two;
    for (const auto& c : pool) {
        if (f.survivors.size() >= 2 || pool.size() < 2) break;
        if (!holds(f.survivors, c.b)) f.survivors.push_back(c);
    }
    for (const auto& c : two)
        if (!holds(f.survivors, c.b)) f.others.push_back(entry(c.b, c.p, c.cl, 2));
    for (const auto& c : one)
        if (!holds(f.survivors, c.b) && !holds(two, c.b)) f.others.push_back(entry(c.b, c.p, c.cl, 1));
    return f;
}

// _CubefulAnalyzer._cubeful_equity: a move that was not rolled out, valued
// cubefully at the rollout players' depth.
double cubeful_unrolled(const BgeSage& e, const BgeSageRolled& m, const CubeInfo& ci, int ply,
                        int threads) {
    Board b;
    std::copy(m.board, m.board + 26, b.begin());
    std::array<float, 5> p;
    for (int i = 0; i < 5; ++i) p[i] = static_cast<float>(m.probs[i]);
    if (ply <= 1) return janowski(p, b, ci);
    CubeInfo opp = ci;
    opp.owner = flip_owner(ci.owner);
    opp.cube_x_override = -1.0f;
    if (ci.is_money()) opp.cube_value = 1;
    else opp.match = ci.match.flip();
    return -static_cast<double>(cubeful_equity_nply(flip(b), opp, *e.strategy, ply, FILTER, threads));
}

bool ranked(const BgeSageRolled& a, const BgeSageRolled& b) {
    if (a.equity != b.equity) return a.equity > b.equity;
    if (a.cubeless != b.cubeless) return a.cubeless > b.cubeless;
    return std::lexicographical_compare(a.board, a.board + 26, b.board, b.board + 26);
}

// The cube_decision binding's verdict from the rollout's ND and DT (MWC in
// a match) at the cube of `ci`, for the player on roll.
BgeSageRolledCube cube_verdict(const RolloutStrategy::CubefulRolloutResult& r, const CubeInfo& ci) {
    BgeSageRolledCube out{};
    BgeSageCube& c = out.cube;
    const bool may_double = can_double(ci);
    float nd, dt, dp, nd_se, dt_se;
    bool dbl = false, take = true;
    if (!ci.is_money()) {
        const int a1 = ci.match.away1, a2 = ci.match.away2, cv = ci.cube_value;
        const bool craw = ci.match.is_crawford;
        const float nd_m = static_cast<float>(r.nd_equity), dt_m = static_cast<float>(r.dt_equity);
        const float dp_m = dp_mwc(a1, a2, cv, craw);
        if (may_double) {
            // The leader's opponent at 1-away doubles whatever (post-Crawford).
            dbl = (!craw && a1 > 1 && a2 == 1) || std::min(dt_m, dp_m) > nd_m;
            take = dt_m <= dp_m;
        }
        nd = mwc2eq(nd_m, a1, a2, cv, craw);
        dt = mwc2eq(dt_m, a1, a2, cv, craw);
        dp = mwc2eq(dp_m, a1, a2, cv, craw);
        nd_se = se_in_equity(static_cast<float>(r.nd_se), nd_m, a1, a2, cv, craw);
        dt_se = se_in_equity(static_cast<float>(r.dt_se), dt_m, a1, a2, cv, craw);
        c.optimal = dbl ? std::min(dt, dp) : nd;
    } else {
        const float raw_dt = static_cast<float>(r.dt_equity);
        nd = static_cast<float>(r.nd_equity);
        dp = 1.0f;
        dt = ci.beaver && raw_dt < 0.0f ? 2.0f * raw_dt : raw_dt;
        if (may_double) {
            dbl = std::min(dt, dp) > nd;
            take = dt <= dp;
        }
        c.optimal = dbl ? std::min(dt, dp) : nd;
        nd_se = static_cast<float>(r.nd_se);
        dt_se = static_cast<float>(r.dt_se);
        c.is_beaver = ci.beaver && may_double && raw_dt < 0.0f;
    }
    c.no_double = nd;
    c.double_take = dt;
    c.double_pass = dp;
    c.should_double = dbl;
    c.should_take = take;
    out.no_double_se = nd_se;
    out.double_take_se = dt_se;
    return out;
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
        e->base = base;
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

// A stop flag for one rollout: made before it, set from any thread to stop
// it, freed after it has returned.
BgeSageStop* bge_sage_stop_new() {
    try {
        return new BgeSageStop();
    } catch (...) {
        return nullptr;
    }
}

void bge_sage_stop_set(BgeSageStop* stop) {
    if (stop) stop->flag.store(true, std::memory_order_release);
}

void bge_sage_stop_free(BgeSageStop* stop) { delete stop; }

// Rolls out the moves of dice d1-d2 as bgsage's rollout analyzer does: the
// filter's leading moves rolled out, the rest valued at the players' depth,
// best first, into `out` (room for `cap`; `*n` is how many). BGE_TOO_SMALL
// (before any rollout): ask again with room for `*n`. BGE_STOPPED: `stop` was
// set, or `progress` asked to stop; `out` holds the `*n` moves rolled out so far, in the order
// they were rolled, each with its cubeful standard error.
int bge_sage_rollout_moves(const BgeSage* e, const BgeSageState* s, int d1, int d2,
                           const BgeSageRollout* r, BgeSageStop* stop, BgeSageProgress progress,
                           void* ctx, BgeSageRolled* out, int cap, int* n, char* err, size_t len) {
    return guarded(err, len, [&] {
        if (!e || !s || !r || !stop || !n || (cap > 0 && !out))
            throw std::invalid_argument("no engine or request");
        if (d1 < 1 || d1 > 6 || d2 < 1 || d2 > 6) throw std::invalid_argument("dice out of range");
        validate(*s);
        validate(*r);
        const Board before = board_of(*s);
        const CubeInfo ci = cube_info(*s);
        std::vector<Board> candidates;
        possible_boards(before, d1, d2, candidates);
        *n = static_cast<int>(candidates.size());
        if (*n > cap) return static_cast<int>(BGE_TOO_SMALL);
        *n = 0;
        if (candidates.empty()) return static_cast<int>(BGE_OK);
        Reporter reporter(progress, ctx, stop);
        Registered alive(stop);
        auto ro = make_rollout(*e, *r, stop);
        Filtered f = filter_moves(*e, before, candidates, ci, *r);
        // The analyzer's trial rollouts take bgsage's default beaver (on);
        // the rollouts of moves promoted afterwards take the request's.
        CubeInfo trial_ci = ci;
        trial_ci.beaver = true;
        const int per = r->trials;
        const int total = per * static_cast<int>(f.survivors.size());
        std::vector<Rolled> rolled;
        auto stopped = [&] {
            for (size_t i = 0; i < rolled.size(); ++i) {
                out[i] = rolled[i].m;
                out[i].std_error = rolled[i].cubeful_se;
            }
            *n = static_cast<int>(rolled.size());
            return static_cast<int>(BGE_STOPPED);
        };
        try {
            for (size_t i = 0; i < f.survivors.size(); ++i) {
                const int done = per * static_cast<int>(i);
                if (!reporter.report(done, total, nullptr)) return stopped();
                rolled.push_back(roll(*e, *ro, f.survivors[i].b, trial_ci,
                                      reporter.trials(done, total)));
                BgeSageRolled shown = rolled.back().m;
                shown.std_error = rolled.back().cubeful_se;
                if (!reporter.report(done + per, total, &shown)) return stopped();
            }
            std::vector<BgeSageRolled> list;
            for (const auto& x : rolled) list.push_back(x.m);
            const int threads = rollout_threads(r->threads);
            for (auto m : f.others) {
                m.equity = cubeful_unrolled(*e, m, ci, r->ply, threads);
                list.push_back(m);
            }
            std::sort(list.begin(), list.end(), ranked);
            // Nothing valued only by the filter may lead: such a move is
            // rolled out in its turn until a rolled-out move leads.
            for (int promoted = 1; !list.empty() && list[0].level != 0; ++promoted) {
                if (!reporter.report(total + promoted, total, nullptr)) return stopped();
                Board b;
                std::copy(list[0].board, list[0].board + 26, b.begin());
                Rolled x = roll(*e, *ro, b, ci, reporter.trials(total + promoted, total));
                rolled.push_back(x);
                list[0] = x.m;
                BgeSageRolled shown = x.m;
                shown.std_error = x.cubeful_se;
                if (!reporter.report(total + promoted, total, &shown)) return stopped();
                std::sort(list.begin(), list.end(), ranked);
            }
            std::copy(list.begin(), list.end(), out);
            *n = static_cast<int>(list.size());
        } catch (const RolloutCancelled&) {
            return stopped();
        }
        return reporter.stopped() ? stopped() : static_cast<int>(BGE_OK);
    });
}

// Rolls out the cube decision of the player on roll, before the roll, as
// bgsage's cube_action at eval_level="rollout" does. BGE_STOPPED: stopped as
// above, and nothing is in `out`.
int bge_sage_rollout_cube(const BgeSage* e, const BgeSageState* s, const BgeSageRollout* r,
                          BgeSageStop* stop, BgeSageProgress progress, void* ctx,
                          BgeSageRolledCube* out, char* err, size_t len) {
    return guarded(err, len, [&] {
        if (!e || !s || !r || !stop || !out) throw std::invalid_argument("no engine or request");
        validate(*s);
        validate(*r);
        const Board board = board_of(*s);
        const CubeInfo ci = cube_info(*s);
        Reporter reporter(progress, ctx, stop);
        Registered alive(stop);
        auto ro = make_rollout(*e, *r, stop);
        if (!reporter.report(0, r->trials, nullptr)) return static_cast<int>(BGE_STOPPED);
        RolloutStrategy::CubefulRolloutResult cfr;
        try {
            cfr = ro->cubeful_cube_decision(board, ci, reporter.trials(0, r->trials));
        } catch (const RolloutCancelled&) {
            return static_cast<int>(BGE_STOPPED);
        }
        if (reporter.stopped()) return static_cast<int>(BGE_STOPPED);
        *out = cube_verdict(cfr, ci);
        auto p = cfr.cubeless.mean_probs;
        double cubeless = static_cast<float>(cfr.cubeless.equity);
        if (e->db.is_bearoff(board)) {
            // analyzer.py: the database's exact chances, its sum in doubles.
            p = e->db.lookup_probs(board, false);
            const double q[5] = {p[0], p[1], p[2], p[3], p[4]};
            cubeless = 2.0 * q[0] - 1.0 + q[1] - q[3] + q[2] - q[4];
        }
        for (int i = 0; i < 5; ++i) out->cube.probs[i] = p[i];
        out->cube.cubeless = cubeless;
        return static_cast<int>(BGE_OK);
    });
}

// Both sides' game plans (Sage's `GamePlan` values) of `board`, Sage's
// board from the side of its player: that player's by `classify_game_plan`
// and the opponent's by it on the board flipped, as bgsage's Python
// `classify_game_plans` asks them. Any count a board can hold is taken, a
// side borne off too; counts Sage's code would misread are refused.
int bge_sage_game_plans(const int* board, int* player, int* opponent, char* err, size_t len) {
    return guarded(err, len, [&] {
        if (!board || !player || !opponent) throw std::invalid_argument("no board");
        int mine = board[25], theirs = board[0];
        if (mine < 0 || theirs < 0 || mine > 15 || theirs > 15)
            throw std::invalid_argument("a bar count out of range");
        for (int i = 1; i < 25; ++i) {
            if (board[i] < -15 || board[i] > 15)
                throw std::invalid_argument("a point's count out of range");
            if (board[i] > 0) mine += board[i]; else theirs -= board[i];
        }
        if (mine > 15 || theirs > 15) throw std::invalid_argument("a side with more than 15 checkers");
        Board b{};
        std::copy(board, board + 26, b.begin());
        *player = static_cast<int>(classify_game_plan(b));
        *opponent = static_cast<int>(classify_game_plan(flip(b)));
        return BGE_OK;
    });
}

}  // extern "C"

#ifdef BGEDIT_SAGE_PROBES
// For the fuzz targets (bgedit's `internals` feature): one data file read
// by Sage's own loader, then used as bgedit's Sage uses it, so that a file
// bgedit's check (data.rs) lets through is shown never to fault in Sage's
// code. Nothing of this is in bgedit's own build.
namespace {

// Boards a network or the bear-off database is asked about: the start, a
// race, a bear-off with 15 checkers a side (gammons), one with fewer.
std::vector<Board> probe_boards() {
    Board race{}, full{}, thin{};
    race[5] = 5; race[6] = 5; race[8] = 5;
    race[17] = -5; race[19] = -5; race[20] = -5;
    for (int i = 1; i <= 5; ++i) { full[i] = 3; full[25 - i] = -3; }
    thin[1] = 2; thin[3] = 1; thin[24] = -4; thin[19] = -1;
    return {STARTING_BOARD, race, full, thin};
}

void finite(const std::array<float, 5>& p, double* out) {
    for (int i = 0; i < 5; ++i) {
        if (!std::isfinite(p[i])) throw std::runtime_error("a chance that is not a number");
        out[i] = p[i];
    }
}

}  // namespace

extern "C" {

// One network file of `hidden` hidden units and `inputs` inputs, loaded by
// Sage and asked for each probe board, and for the best of every move of a
// roll (its incremental evaluation); the last chances into `out` (5).
int bge_sage_probe_net(const char* path, int hidden, int inputs, double* out, char* err,
                       size_t len) {
    return guarded(err, len, [&] {
        if (!path || !out || hidden < 1 || hidden > 4096 ||
            (inputs != TESAURO_INPUTS && inputs != EXTENDED_CONTACT_INPUTS))
            throw std::invalid_argument("no network file or size");
        NNStrategy net(path, hidden, inputs);
        std::vector<Board> moves;
        for (const auto& b : probe_boards()) {
            finite(net.evaluate_probs(b, is_race(b)), out);
            possible_boards(b, 6, 5, moves);
            if (!moves.empty() && net.best_move_index(moves, b) < 0)
                throw std::runtime_error("no best move");
        }
        return static_cast<int>(BGE_OK);
    });
}

// A bear-off database loaded by Sage, every position's distributions and
// mean read, and the probe boards' chances asked both ways round; the last
// chances into `out` (5).
int bge_sage_probe_bearoff(const char* path, double* out, char* err, size_t len) {
    return guarded(err, len, [&] {
        if (!path || !out) throw std::invalid_argument("no bear-off file");
        auto db = std::make_unique<BearoffDB>();
        if (!db->load(path)) throw std::runtime_error("Sage's loader refused it");
        double sum = 0;
        for (unsigned i = 0; i < BearoffDB::N_POSITIONS; ++i) {
            sum += db->get_distribution(i)[0] + db->get_mean_rolls(i);
            if (const auto* g = db->get_gammon_distribution(i)) sum += (*g)[BearoffDB::MAX_ROLLS - 1];
        }
        if (!std::isfinite(sum)) throw std::runtime_error("a mean that is not a number");
        for (const auto& b : probe_boards()) {
            if (!db->is_bearoff(b)) continue;
            finite(db->lookup_probs(b, false), out);
            finite(db->lookup_probs(b, true), out);
        }
        return static_cast<int>(BGE_OK);
    });
}

}  // extern "C"
#endif
