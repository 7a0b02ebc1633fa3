//! Finding the program that runs an engine, as its `Spec`'s
//! [`ProgramOption`] says: the option (`--gnubg PATH`), then its
//! environment variable (`BGEDIT_GNUBG`), then its name on PATH, then its
//! usual places (gnubg's `/usr/games/gnubg`, where Debian puts it, often
//! off PATH). An explicit choice that does not exist is an error naming it.

use super::failure::{Given, Missing};
use super::spec::Spec;
use std::path::{Path, PathBuf};

/// The program of `spec`'s engine. `option` is its option; `env` its
/// variable's value; `path` is `PATH`.
pub(crate) fn find(
    spec: &Spec,
    option: Option<&Path>,
    env: Option<&str>,
    path: Option<&str>,
) -> Result<PathBuf, Missing> {
    let o = &spec.options.program;
    if let Some(p) = option {
        return existing(p).ok_or_else(|| Missing::Named(Given::Option(p.to_path_buf())));
    }
    if let Some(e) = env.filter(|e| !e.is_empty()) {
        return existing(Path::new(e)).ok_or_else(|| Missing::Named(Given::Env(e.to_owned())));
    }
    path.into_iter()
        .flat_map(std::env::split_paths)
        .map(|dir| dir.join(o.on_path))
        .chain(o.also.iter().map(PathBuf::from))
        .find(|p| p.is_file())
        .ok_or(Missing::Nowhere)
}

/// [`find`] with this process's environment.
pub(crate) fn find_from_env(spec: &Spec, option: Option<&Path>) -> Result<PathBuf, Missing> {
    let env = spec.options.program.env.and_then(|v| std::env::var(v).ok());
    find(
        spec,
        option,
        env.as_deref(),
        std::env::var("PATH").ok().as_deref(),
    )
}

fn existing(p: &Path) -> Option<PathBuf> {
    p.is_file().then(|| p.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{EngineError, EngineErrorKind, EngineKind};

    fn said(kind: EngineKind, m: Missing) -> String {
        EngineError::new(kind, EngineErrorKind::Missing(m)).to_string()
    }

    #[test]
    fn an_explicit_path_that_is_missing_is_named() {
        let gnubg = EngineKind::reference();
        let spec = gnubg.spec();
        let e = find(spec, Some(Path::new("/nonexistent/gnubg")), None, None).unwrap_err();
        assert_eq!(
            said(gnubg, e),
            "--gnubg /nonexistent/gnubg: no such program (install gnubg with `apt-get install gnubg`)"
        );
        let e = find(spec, None, Some("/nope/gnubg"), None).unwrap_err();
        assert_eq!(
            said(gnubg, e),
            "BGEDIT_GNUBG=/nope/gnubg: no such program (install gnubg with `apt-get install gnubg`)"
        );
    }

    /// Each engine, found nowhere, says how to install it and how to name
    /// its program, in its own words.
    #[test]
    fn an_engine_found_nowhere_says_how_to_get_it() {
        let words: Vec<String> = [EngineKind::Gnubg, EngineKind::Sage]
            .into_iter()
            .map(|k| said(k, Missing::Nowhere))
            .collect();
        assert_eq!(
            words,
            [
                "gnubg not found: install it with `apt-get install gnubg`, or give its path with --gnubg PATH or BGEDIT_GNUBG",
                "Open Sage not found: install it with `pip install bgsage` (bgedit is tested with bgsage==2.0.20260907), or give its Python with --sage-python PATH or BGEDIT_SAGE_PYTHON",
            ]
        );
    }

    #[test]
    fn path_is_searched_before_usr_games() {
        let dir = std::env::temp_dir().join(format!("bgedit-locate-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("gnubg"), "").unwrap();
        let spec = EngineKind::reference().spec();
        let found = find(spec, None, None, Some(dir.to_str().unwrap())).unwrap();
        assert_eq!(found, dir.join("gnubg"));
        let _ = std::fs::remove_dir_all(dir);
    }
}
