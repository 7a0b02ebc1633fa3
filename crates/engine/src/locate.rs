//! Finding gnubg: the `--gnubg` option, then `BGEDIT_GNUBG`, then `gnubg` on
//! PATH, then `/usr/games/gnubg` (where Debian puts it, often off PATH).

use std::path::{Path, PathBuf};

/// Why an engine's program was not found.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Missing {
    /// The program the user named (`--gnubg PATH`, `BGEDIT_GNUBG=PATH`)
    /// does not exist; `hint` says how to get one.
    #[error("{named}: no such program{hint}")]
    Named { named: String, hint: &'static str },
    /// None where the engine is looked for: how to install it.
    #[error("{0}")]
    Nowhere(&'static str),
}

/// How to get gnubg, after a path that is not there.
const GET_IT: &str = " (install gnubg with `apt-get install gnubg`)";

/// What to tell a user without gnubg.
pub(crate) const INSTALL_HINT: &str = "gnubg not found: install it with `apt-get install gnubg`, or give its path with --gnubg PATH or BGEDIT_GNUBG";

/// The gnubg to run. `option` is `--gnubg`; `env` is `BGEDIT_GNUBG`; `path`
/// is `PATH`. An explicit choice that does not exist is an error naming it.
pub(crate) fn find(
    option: Option<&Path>,
    env: Option<&str>,
    path: Option<&str>,
) -> Result<PathBuf, Missing> {
    if let Some(p) = option {
        return existing(p).ok_or_else(|| Missing::Named {
            named: format!("--gnubg {}", p.display()),
            hint: GET_IT,
        });
    }
    if let Some(e) = env.filter(|e| !e.is_empty()) {
        return existing(Path::new(e)).ok_or_else(|| Missing::Named {
            named: format!("BGEDIT_GNUBG={e}"),
            hint: GET_IT,
        });
    }
    path.into_iter()
        .flat_map(std::env::split_paths)
        .map(|dir| dir.join("gnubg"))
        .chain([PathBuf::from("/usr/games/gnubg")])
        .find(|p| p.is_file())
        .ok_or(Missing::Nowhere(INSTALL_HINT))
}

/// `find` with this process's environment.
pub fn find_from_env(option: Option<&Path>) -> Result<PathBuf, Missing> {
    find(
        option,
        std::env::var("BGEDIT_GNUBG").ok().as_deref(),
        std::env::var("PATH").ok().as_deref(),
    )
}

fn existing(p: &Path) -> Option<PathBuf> {
    p.is_file().then(|| p.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_explicit_path_that_is_missing_is_named() {
        let e = find(Some(Path::new("/nonexistent/gnubg")), None, None).unwrap_err();
        assert_eq!(
            e.to_string(),
            "--gnubg /nonexistent/gnubg: no such program (install gnubg with `apt-get install gnubg`)"
        );
        let e = find(None, Some("/nope/gnubg"), None).unwrap_err();
        assert_eq!(
            e.to_string(),
            "BGEDIT_GNUBG=/nope/gnubg: no such program (install gnubg with `apt-get install gnubg`)"
        );
    }

    #[test]
    fn path_is_searched_before_usr_games() {
        let dir = std::env::temp_dir().join(format!("bgedit-locate-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("gnubg"), "").unwrap();
        let found = find(None, None, Some(dir.to_str().unwrap())).unwrap();
        assert_eq!(found, dir.join("gnubg"));
        let _ = std::fs::remove_dir_all(dir);
    }
}
