//! Claims on matches being analysed (schema 11, `analysis_claims`): a
//! `library analyse` run holds the match it works on, by engine and depth,
//! under a lease it renews, so that two runs on one library share the work
//! out instead of each doing all of it; a run killed before it drops its
//! claims loses them when their lease runs out, or at once where its
//! process is seen to be gone (the same machine).

use super::*;
use rusqlite::{OptionalExtension, params};

/// What asking for a match gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Claim {
    /// It is this run's until it drops it (or its lease runs out).
    Taken,
    /// Another run holds it, its lease running.
    Held { owner: String },
}

/// This process's name on its claims: its machine, its process id and when
/// it named itself, so two runs differ on one machine and across machines
/// sharing a library.
pub fn claimant() -> String {
    let mut host = [0u8; 256];
    // SAFETY: gethostname writes at most `host.len()` bytes into it.
    let named = unsafe { libc::gethostname(host.as_mut_ptr().cast(), host.len()) } == 0;
    let host = if named {
        let end = host.iter().position(|&b| b == 0).unwrap_or(host.len());
        String::from_utf8_lossy(&host[..end]).replace(':', "_")
    } else {
        String::new()
    };
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!("{host}:{}:{nanos}", std::process::id())
}

/// Whether the run named `owner` ([`claimant`]) is seen to be gone: it ran
/// on this machine and its process is no more (a run killed with SIGKILL,
/// whose lease has not yet run out). A run elsewhere is never seen gone.
fn gone(owner: &str) -> bool {
    let mut parts = owner.split(':');
    let (Some(host), Some(pid)) = (parts.next(), parts.next()) else {
        return false;
    };
    let here = claimant();
    if here.split(':').next() != Some(host) {
        return false;
    }
    let Ok(pid) = pid.parse::<libc::pid_t>() else {
        return false;
    };
    // SAFETY: kill(2) with signal 0 sends nothing; it only asks whether
    // the process exists.
    (unsafe { libc::kill(pid, 0) } != 0)
        && std::io::Error::last_os_error().raw_os_error() == Some(libc::ESRCH)
}

impl Library {
    /// Claims match `match_id` for `owner`'s analysis by `engine` at
    /// `plies` until `lease` from now: taken when nobody holds it, its
    /// holder's lease has run out or its holder is seen gone, or `owner`
    /// holds it already.
    pub fn claim(
        &mut self,
        match_id: i64,
        engine: &str,
        plies: i64,
        owner: &str,
        lease: Duration,
    ) -> Result<Claim> {
        let now = now();
        let tx = self.write()?;
        let holder: Option<(String, i64)> = tx
            .query_row(
                "SELECT owner, until FROM analysis_claims WHERE match_id = ?1 AND engine = ?2 \
                 AND plies = ?3",
                params![match_id, engine, plies],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?;
        if let Some((other, until)) = holder
            && other != owner
            && until >= now
            && !gone(&other)
        {
            return Ok(Claim::Held { owner: other });
        }
        tx.execute(
            "INSERT OR REPLACE INTO analysis_claims (match_id, engine, plies, owner, until) \
             VALUES (?1, ?2, ?3, ?4, ?5)",
            params![match_id, engine, plies, owner, now + lease.as_secs() as i64],
        )?;
        tx.commit()?;
        Ok(Claim::Taken)
    }

    /// Renews every claim `owner` holds for `lease` from now.
    pub fn renew_claims(&mut self, owner: &str, lease: Duration) -> Result<()> {
        let until = now() + lease.as_secs() as i64;
        let tx = self.write()?;
        tx.execute(
            "UPDATE analysis_claims SET until = ?2 WHERE owner = ?1",
            params![owner, until],
        )?;
        tx.commit()?;
        Ok(())
    }

    /// Drops `owner`'s claim on match `match_id` (all of its claims when
    /// `None`).
    pub fn release_claims(&mut self, owner: &str, match_id: Option<i64>) -> Result<()> {
        let tx = self.write()?;
        tx.execute(
            "DELETE FROM analysis_claims WHERE owner = ?1 AND (?2 IS NULL OR match_id = ?2)",
            params![owner, match_id],
        )?;
        tx.commit()?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_claim_is_one_runs_until_dropped_or_its_lease_runs_out() {
        let dir = tempfile::tempdir().unwrap();
        let mut lib = Library::open(&dir.path().join("lib.sqlite")).unwrap();
        lib.conn
            .execute_batch(
                "INSERT INTO matches (id, hash, player_o, player_x, length, result, format, \
                 path, imported, content) VALUES (1, 'h', 'o', 'x', 1, '', 'SGF', 'f', 0, x'')",
            )
            .unwrap();
        let minute = Duration::from_secs(60);
        // A run of this machine whose process is gone loses its claim at
        // once; a live one keeps it.
        let me = claimant();
        let host = me.split(':').next().unwrap();
        let dead = format!("{host}:{}:1", i32::MAX);
        assert_eq!(
            lib.claim(1, "gnubg", 3, &dead, minute).unwrap(),
            Claim::Taken
        );
        assert_eq!(lib.claim(1, "gnubg", 3, &me, minute).unwrap(), Claim::Taken);
        assert_eq!(
            lib.claim(1, "gnubg", 3, "b", minute).unwrap(),
            Claim::Held { owner: me }
        );
        assert_eq!(lib.claim(1, "gnubg", 2, "a", minute).unwrap(), Claim::Taken);
        assert_eq!(lib.claim(1, "gnubg", 2, "a", minute).unwrap(), Claim::Taken);
        assert_eq!(
            lib.claim(1, "gnubg", 2, "b", minute).unwrap(),
            Claim::Held { owner: "a".into() }
        );
        // Another depth is other work.
        assert_eq!(lib.claim(1, "gnubg", 0, "b", minute).unwrap(), Claim::Taken);
        lib.release_claims("a", Some(1)).unwrap();
        assert_eq!(lib.claim(1, "gnubg", 2, "b", minute).unwrap(), Claim::Taken);
        // A lease run out (a run killed): taken over.
        lib.conn
            .execute("UPDATE analysis_claims SET until = 0 WHERE owner = 'b'", [])
            .unwrap();
        assert_eq!(lib.claim(1, "gnubg", 2, "c", minute).unwrap(), Claim::Taken);
        lib.renew_claims("c", minute).unwrap();
        lib.release_claims("c", None).unwrap();
        assert_eq!(lib.claim(1, "gnubg", 2, "d", minute).unwrap(), Claim::Taken);
    }
}
