//! The engines bgedit knows, in one list: each is an [`EngineKind`] (the
//! id effects, actions and settings carry) standing for its [`Spec`] (what
//! the engine is, as data). Adding an engine is its folder beside
//! `gnubg/` and `sage/`, plus one variant and one line here.

use super::spec::Spec;

/// Which engine: the id the editor's effects and actions, the CLI's
/// options and the library's kept analyses carry. Everything else about
/// an engine is its [`Spec`].
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    serde::Serialize,
    serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum EngineKind {
    /// gnubg 1.07: the default, the reference every other is set beside.
    #[default]
    Gnubg,
    Sage,
}

/// Every engine, the reference first: the order menus and the panel's
/// cycle go in.
pub const ALL: [EngineKind; 2] = [EngineKind::Gnubg, EngineKind::Sage];

impl EngineKind {
    /// What the engine is.
    pub fn spec(self) -> &'static Spec {
        match self {
            EngineKind::Gnubg => &super::gnubg::SPEC,
            EngineKind::Sage => &super::sage::spec::SPEC,
        }
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

    /// Its place in [`ALL`].
    fn index(self) -> usize {
        ALL.iter().position(|&k| k == self).unwrap_or(0)
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

    pub fn uses(self, kind: EngineKind) -> bool {
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
