//! The engines bgedit knows, in one list: each is an [`EngineKind`] (the
//! id effects, actions and settings carry) standing for its [`Spec`] (what
//! the engine is, as data). Adding an engine is its folder beside
//! `gnubg/` and `sage/`, plus one variant, its place in [`ALL`] and its
//! line in [`EngineKind::spec`] here, and its line in `open.rs`'s
//! `EngineKind::open`: nothing in the editor or the CLI.
//!
//! Data only: the errors (`failure.rs`) are worded from these specs, so
//! starting an engine, which fails in those errors, is `open.rs`'s.

use super::spec::Spec;

/// Which engine: the id the editor's effects and actions, the CLI's
/// options and the library's kept analyses carry. Everything else about
/// an engine is its [`Spec`].
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum EngineKind {
    /// gnubg 1.07: the default, the reference every other is set beside.
    Gnubg,
    /// Open Sage (bgsage), the second opinion.
    Sage,
}

/// Every engine, the reference first: the order menus and the panel's
/// cycle go in.
pub const ALL: [EngineKind; EngineKind::COUNT] = [EngineKind::Gnubg, EngineKind::Sage];

impl EngineKind {
    /// How many engines there are: [`ALL`] lists them, in this order.
    pub(crate) const COUNT: usize = 2;

    /// What the engine is.
    pub fn spec(self) -> &'static Spec {
        match self {
            EngineKind::Gnubg => &super::gnubg::SPEC,
            EngineKind::Sage => &super::sage::spec::SPEC,
        }
    }

    /// Its place in [`ALL`] (a test holds the two together).
    pub fn index(self) -> usize {
        self as usize
    }

    /// The engine every other is set beside: asked in every case by the
    /// editor (the cube before the roll, the numbers panel are its), the
    /// judge of a match unless another is picked.
    pub fn reference() -> EngineKind {
        ALL[0]
    }

    pub fn is_reference(self) -> bool {
        self == EngineKind::reference()
    }

    /// The engine whose [`key`](Self::key) is `key`.
    pub fn by_key(key: &str) -> Option<EngineKind> {
        ALL.into_iter().find(|k| k.key() == key)
    }

    /// The lowercase name JSON answers carry.
    pub fn key(self) -> &'static str {
        self.spec().key
    }

    /// The name the panel's headers and messages use ("gnubg", "Sage").
    pub fn name(self) -> &'static str {
        self.spec().name
    }

    /// A depth (gnubg's count) in this engine's own words: gnubg's 0-ply is
    /// Sage's 1-ply.
    pub fn depth_label(self, plies: u8) -> String {
        (self.spec().depth_label)(plies)
    }
}

/// Which engines answer: a set of [`ALL`]'s, the reference alone by
/// default.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Choice(u32);

impl Default for Choice {
    fn default() -> Self {
        Choice::only(EngineKind::reference())
    }
}

impl Choice {
    /// `kind` alone.
    pub fn only(kind: EngineKind) -> Choice {
        Choice(1 << kind.index())
    }

    /// Every engine, side by side.
    pub fn all() -> Choice {
        Choice((1 << ALL.len()) - 1)
    }

    /// The engines chosen, in [`ALL`]'s order.
    pub fn kinds(self) -> impl Iterator<Item = EngineKind> {
        ALL.into_iter().filter(move |k| self.uses(*k))
    }

    pub(crate) fn uses(self, kind: EngineKind) -> bool {
        self.0 & (1 << kind.index()) != 0
    }

    /// The one engine chosen, if only one is.
    pub fn alone(self) -> Option<EngineKind> {
        let mut kinds = self.kinds();
        kinds.next().filter(|_| kinds.next().is_none())
    }

    /// The engine that leads: the one chosen alone, else the reference.
    pub fn lead(self) -> EngineKind {
        self.alone().unwrap_or_else(EngineKind::reference)
    }

    /// Each engine alone in [`ALL`]'s order, then all of them, then the
    /// first again: the editor's key (gnubg, Sage, both, gnubg).
    pub fn next(self) -> Choice {
        match self.alone() {
            Some(k) => match ALL.get(k.index() + 1) {
                Some(&after) => Choice::only(after),
                None => Choice::all(),
            },
            None => Choice::only(ALL[0]),
        }
    }

    /// How the panel's key names this choice: the engine's name, or
    /// "both" for every one.
    pub fn label(self) -> String {
        match self.alone() {
            Some(k) => k.name().to_owned(),
            None => "both".to_owned(),
        }
    }
}

/// A depth the library keeps (by the engine's key, and in gnubg's count of
/// plies for every engine) in the engine's own words.
pub fn stored_depth_words(engine: &str, plies: i64) -> String {
    match (EngineKind::by_key(engine), u8::try_from(plies)) {
        (Some(kind), Ok(p)) => format!("{engine} {}", kind.depth_label(p)),
        _ => format!("{engine} {plies}-ply"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_engine_is_at_its_index_in_the_list() {
        assert_eq!(ALL.len(), EngineKind::COUNT);
        for (i, kind) in ALL.into_iter().enumerate() {
            assert_eq!(kind.index(), i, "{kind:?}");
        }
    }
    use crate::request::{Request, RolloutSettings};

    fn request(id: u64, text: &str, plies: u8, moves: usize) -> Request {
        let position = bgedit_core::codec::parse_any(text, &Default::default())
            .expect("an ID")
            .position;
        Request {
            id,
            position,
            plies,
            moves,
        }
    }

    #[test]
    fn each_engine_is_listed_once_with_its_names_and_depths() {
        let listed: Vec<_> = ALL
            .iter()
            .map(|k| (k.key(), k.name(), k.spec().full_name, k.depth_label(0)))
            .collect();
        assert_eq!(
            listed,
            [
                ("gnubg", "gnubg", "gnubg", "0-ply".to_owned()),
                ("sage", "Sage", "Open Sage", "1-ply".to_owned()),
            ]
        );
        for k in ALL {
            assert_eq!(EngineKind::by_key(k.key()), Some(k));
        }
        assert_eq!(EngineKind::reference(), EngineKind::Gnubg);
        assert_eq!(EngineKind::Sage.depth_label(2), "3-ply");
    }

    /// z's cycle as it was: gnubg, Sage, both, gnubg.
    #[test]
    fn the_choice_cycles_through_each_engine_then_all() {
        let gnubg = Choice::default();
        assert_eq!(gnubg, Choice::only(EngineKind::Gnubg));
        let sage = gnubg.next();
        assert_eq!(sage, Choice::only(EngineKind::Sage));
        assert_eq!(sage.next(), Choice::all());
        assert_eq!(Choice::all().next(), gnubg);
        assert_eq!(Choice::all().lead(), EngineKind::Gnubg);
        assert_eq!(sage.lead(), EngineKind::Sage);
        assert_eq!(
            (gnubg.label(), sage.label(), Choice::all().label()),
            ("gnubg".to_owned(), "Sage".to_owned(), "both".to_owned())
        );
    }

    /// Each engine's lines as bgedit wrote them before engines were data
    /// (`Request::to_line`, `played_line`, `rollout_line` for gnubg;
    /// `sage::request_line` for Sage), byte for byte.
    #[test]
    fn each_engines_request_is_written_as_before() {
        let money = request(1, "4HPwATDgc/ABMA:cAkFAAAAAAAE", 0, 0);
        let finish = request(7, "gTZlCGoIAAAAAA:cAnPAsAAYAAE", 2, 5);
        let owned = request(3, "4HPwATDgc/ABMA:QYkqASAAIAAA", 1, 0);
        let settings = RolloutSettings::default();
        let gnubg = &EngineKind::Gnubg.spec().codec;
        assert_eq!(
            (gnubg.request)(&money),
            r#"{"beavers":true,"double":false,"expect":"4HPwATDgc/ABMA:cAkFAAAAAAAE","gnubgid":"4HPwATDgc/ABMA:cAkFAAAAAAAE","id":1,"moves":0,"no_cube":false,"plies":0}"#
        );
        assert_eq!(
            (gnubg.played)(&finish, "4HPwATDgc/ABMA"),
            r#"{"beavers":true,"double":false,"expect":"gTZlCGoIAAAAAA:cAnPAsAAYAAE","gnubgid":"gTZlCGoIAAAAAA:cAnPAsAAYAAE","id":7,"moves":5,"no_cube":false,"played_after":"4HPwATDgc/ABMA","plies":2}"#
        );
        assert_eq!(
            (gnubg.rollout)(&owned, &settings, 2),
            r#"{"beavers":true,"double":false,"expect":"4HPwATDgc/ABMA:QYkqASAAIAAA","gnubgid":"4HPwATDgc/ABMA:QYkqASAAIAAA","id":3,"moves":0,"no_cube":false,"plies":1,"rollout":{"candidates":5,"chunk_ms":250,"cubeful":true,"plies":0,"quasi":true,"seed":1,"threads":2,"trials":1296,"truncate":0,"vr":true}}"#
        );
        let sage = &EngineKind::Sage.spec().codec;
        assert_eq!(
            (sage.request)(&money),
            r#"{"away1":0,"away2":0,"beavers":true,"board":[0,-2,0,0,0,0,5,0,3,0,0,0,-5,5,0,0,0,-3,0,-5,0,0,0,0,2,0],"crawford":false,"cube":1,"dice":[2,1],"double":false,"id":1,"jacoby":false,"moves":0,"no_cube":false,"owner":"centered","plies":0}"#
        );
        // Sage's lists are whole: the played move is among them.
        assert_eq!(
            (sage.played)(&finish, "4HPwATDgc/ABMA"),
            r#"{"away1":10,"away2":10,"beavers":false,"board":[2,-1,-1,0,1,0,0,-1,0,0,0,-2,0,-1,-1,0,-2,-2,-1,0,0,0,0,0,-1,0],"crawford":false,"cube":1,"dice":[6,3],"double":false,"id":7,"jacoby":false,"moves":0,"no_cube":false,"owner":"centered","plies":2}"#
        );
        assert_eq!(
            (sage.rollout)(&owned, &settings, 2),
            r#"{"away1":5,"away2":7,"beavers":false,"board":[0,-2,0,0,0,0,5,0,3,0,0,0,-5,5,0,0,0,-3,0,-5,0,0,0,0,2,0],"crawford":false,"cube":2,"dice":[5,2],"double":false,"id":3,"jacoby":false,"moves":0,"no_cube":false,"owner":"opponent","plies":1,"rollout":{"candidates":5,"chunk_ms":250,"plies":0,"seed":1,"threads":2,"trials":1296,"truncate":0}}"#
        );
    }
}
