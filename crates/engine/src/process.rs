//! An engine run as a process of its own ([`Process`]): any engine's
//! [`Spec`] (its program, bridge script, lines and error words) run the
//! same way, and everything that can go wrong with it: it is missing, it
//! dies (gnubg 1.07 segfaults on some match positions with a cube of 512
//! and up), it hangs, it prints garbage. Each costs the one answer and a
//! restart on the next request, nothing more.

use super::answer::{Analysis, Reply, Rollout, parse_line};
use super::failure::{
    BridgeError, EngineError, EngineErrorKind, Garbage, LostAnswer, Missing, OsError, StartError,
    StartRecord,
};
use super::request::{self, Request, RolloutSettings};
use super::spec::{Capabilities, Spec};
use super::{Engine, EngineKind};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, sync_channel};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// gnubg starts in about a quarter of a second; a loaded machine gets more.
const START_LIMIT: Duration = Duration::from_secs(20);
/// Longest line accepted from the bridge: a whole game's analysis (every
/// move list gnubg kept, about 3 kB a decision) is well below.
const MAX_LINE: usize = 16 << 20;
/// Lines read ahead of the reader: an engine that floods lines waits for
/// them to be read (and thrown away) instead of filling memory.
const LINES_AHEAD: usize = 8;
/// Lines that are not the answer (gnubg's banner, a repeated ready line, an
/// answer to an abandoned request) read before an answer or the ready line
/// before the engine is taken for broken. The bridge writes a handful; an
/// engine writing thousands is flooding.
const MAX_JUNK_LINES: u32 = 1000;

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> BridgeError + '_ {
    move |e| BridgeError::Io {
        path: path.to_path_buf(),
        error: OsError::from(&e),
    }
}

/// The bridge script of `spec` on disk, written once per run.
fn bridge_path(kind: EngineKind) -> Result<&'static Path, StartError> {
    let spec = kind.spec();
    static WRITTEN: [OnceLock<Result<PathBuf, BridgeError>>; EngineKind::COUNT] =
        [const { OnceLock::new() }; EngineKind::COUNT];
    WRITTEN[kind.index()]
        .get_or_init(|| {
            // Without a cache directory the shared temporary directory is used,
            // under a name of this user's only: a script another user could
            // write there would run as gnubg's Python.
            let dir = match dirs::cache_dir() {
                Some(cache) => cache.join("bgedit"),
                // SAFETY: getuid cannot fail and touches no memory.
                None => std::env::temp_dir().join(format!("bgedit-{}", unsafe { libc::getuid() })),
            };
            private_dir(&dir)?;
            // Named by its content too: two builds of one version with
            // different scripts (a developer's worktrees, a test run beside
            // another) would otherwise rewrite one file under each other,
            // and an engine started between two writes would run the other
            // build's script.
            let path = dir.join(format!(
                "{}-{}-{:016x}.py",
                spec.bridge.name,
                env!("CARGO_PKG_VERSION"),
                fnv1a(spec.bridge.script.as_bytes())
            ));
            // Written again only when it differs (another version's, or
            // damaged): the directory is this user's alone, so what is
            // there is what an earlier bgedit wrote, and a start is spared
            // the write and its sync.
            let script = spec.bridge.script.as_bytes();
            if std::fs::read(&path).ok().as_deref() != Some(script) {
                write_atomically(&dir, &path, script)?;
            }
            Ok(path)
        })
        .as_ref()
        .map(PathBuf::as_path)
        .map_err(|e| StartError::Bridge(e.clone()))
}

/// FNV-1a, 64 bits: a name for a script's content, not a defence (the
/// directory is this user's alone).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Makes `dir` (and its parents) and checks that it is a directory of this
/// user's that nobody else may enter: created `0700`, an existing one of ours
/// narrowed to `0700`, a link or another user's directory refused.
pub(crate) fn private_dir(dir: &Path) -> Result<(), BridgeError> {
    use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
        .map_err(io_error(dir))?;
    let meta = std::fs::symlink_metadata(dir).map_err(io_error(dir))?;
    if !meta.file_type().is_dir() {
        return Err(BridgeError::NotADirectory(dir.to_path_buf()));
    }
    // SAFETY: getuid cannot fail and touches no memory.
    if meta.uid() != unsafe { libc::getuid() } {
        return Err(BridgeError::OtherUsers(dir.to_path_buf()));
    }
    if meta.mode() & 0o077 != 0 {
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))
            .map_err(io_error(dir))?;
    }
    Ok(())
}

/// Writes `path` whole or not at all: a new file of a name nobody else uses,
/// then renamed, so that another bgedit starting at the same moment reads a
/// whole script.
fn write_atomically(dir: &Path, path: &Path, bytes: &[u8]) -> Result<(), BridgeError> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let tmp = dir.join(format!(".gnubg_bridge.{}.{nanos}.tmp", std::process::id()));
    let written = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&tmp)
        .and_then(|mut f| f.write_all(bytes).and_then(|()| f.sync_all()))
        .and_then(|()| std::fs::rename(&tmp, path));
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(io_error(path)(e));
    }
    Ok(())
}

struct Running {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Drop for Running {
    fn drop(&mut self) {
        // Reaped under the list's lock: a pid in the list is always a
        // child not yet reaped, which a signal cannot miss for another.
        let mut list = children();
        let _ = self.child.kill();
        let _ = self.child.wait();
        let pid = self.child.id();
        list.retain(|&p| p != pid);
    }
}

/// The engine processes running (their pids), from their start until
/// their `Running` reaps them: what [`stop_engines`] and [`end_engines`]
/// reach, whichever threads hold them.
static CHILDREN: Mutex<Vec<u32>> = Mutex::new(Vec::new());

fn children() -> std::sync::MutexGuard<'static, Vec<u32>> {
    CHILDREN.lock().unwrap_or_else(|e| e.into_inner())
}

/// Kills every engine process now, so that the requests they are on fail
/// at once (a command stopping on a signal): each is reaped as usual by
/// whoever holds it.
pub fn stop_engines() {
    for &pid in children().iter() {
        // SAFETY: kill(2) touches no memory; the pid is a child not yet
        // reaped, so it names no other process.
        unsafe { libc::kill(pid as libc::pid_t, libc::SIGKILL) };
    }
}

/// Kills and reaps every engine process, on the way out of a process
/// ended by a signal: the parent-death signal would kill them, but they
/// would stay as zombies where nothing reaps orphans (a container whose
/// first process is not an init). Holds the list to the end, so that no
/// `Running` dropped on another thread meanwhile signals a reused pid.
pub fn end_engines() {
    let mut list = children();
    for &pid in list.iter() {
        // SAFETY: kill(2) and waitpid(2) touch no memory of ours but the
        // null status pointer, which waitpid accepts; the pid is a child
        // not yet reaped.
        unsafe {
            libc::kill(pid as libc::pid_t, libc::SIGKILL);
            libc::waitpid(pid as libc::pid_t, std::ptr::null_mut(), 0);
        }
    }
    list.clear();
    std::mem::forget(list);
}

/// An engine run as a process of its own: its bridge script under the
/// engine's program (gnubg, or the Python that has bgsage), speaking JSON
/// lines as its [`Spec`] says; started on first use and after any failure.
pub struct Process {
    kind: EngineKind,
    spec: &'static Spec,
    program: PathBuf,
    /// The engine's version, once started (Sage's bridge says it).
    pub version: Option<String>,
    /// Threads for Sage's rollouts (0: Sage's own choice, every core).
    pub threads: u8,
    running: Option<Running>,
    /// Restarts so far, for messages and tests.
    pub restarts: u32,
    starts: StartRecord,
}

/// `kind` run as a process by `program`: how an engine that is always a
/// process opens (`EngineKind::open`).
pub(crate) fn open(kind: EngineKind, program: PathBuf, starts: StartRecord) -> Box<dyn Engine> {
    Box::new(Process::sharing(kind, program, starts))
}

impl Process {
    /// `kind` run by `program`.
    pub fn new(kind: EngineKind, program: PathBuf) -> Process {
        Process::sharing(kind, program, StartRecord::default())
    }

    /// `kind` run by `program`, giving up with the others sharing `starts`.
    pub fn sharing(kind: EngineKind, program: PathBuf, starts: StartRecord) -> Process {
        Process {
            kind,
            spec: kind.spec(),
            program,
            version: None,
            threads: 0,
            running: None,
            restarts: 0,
            starts,
        }
    }

    /// Starts the engine now rather than at the first request.
    pub(crate) fn warm_up(&mut self) -> Result<(), EngineError> {
        self.ensure_running().map(|_| ())
    }

    /// `kind`, failed, as this engine's error.
    fn error(&self, kind: EngineErrorKind) -> EngineError {
        EngineError::new(self.kind, kind)
    }

    /// The process id, while running (tests kill it).
    pub(crate) fn pid(&self) -> Option<u32> {
        self.running.as_ref().map(|r| r.child.id())
    }

    fn ensure_running(&mut self) -> Result<&mut Running, EngineError> {
        if self.running.is_none() {
            let starts = self.starts.clone();
            let r = starts.start(self.kind, || self.spawn())?;
            self.running = Some(r);
        }
        Ok(self.running.as_mut().expect("just started"))
    }

    fn spawn(&mut self) -> Result<Running, EngineErrorKind> {
        let script = bridge_path(self.kind).map_err(EngineErrorKind::Start)?;
        let mut command = Command::new(&self.program);
        command
            .args(self.spec.bridge.args)
            .arg(script)
            // gnubg prints and reads numbers by locale: force the C one.
            .env("LC_ALL", "C")
            .env("LANG", "C")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        let program = || self.program.clone();
        let mut child = spawn_dying_with_bgedit(command).map_err(|e| {
            EngineErrorKind::Start(StartError::Spawn {
                program: program(),
                error: OsError::from(&e),
            })
        })?;
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        let (tx, lines) = sync_channel(LINES_AHEAD);
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match Read::take(&mut reader, MAX_LINE as u64).read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        // Moved, not copied: a games answer is megabytes.
                        let mut line = String::from_utf8(std::mem::take(&mut buf))
                            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
                        line.truncate(line.trim_end().len());
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let running = Running {
            child,
            stdin,
            lines,
        };
        // gnubg's banner comes first; the bridge says when it is ready.
        let deadline = Instant::now() + START_LIMIT;
        let mut junk = 0;
        loop {
            junk += 1;
            if junk > MAX_JUNK_LINES {
                return Err(EngineErrorKind::Start(StartError::Flooded {
                    program: program(),
                    lines: MAX_JUNK_LINES,
                }));
            }
            match recv_by(&running.lines, deadline) {
                Ok(line) if parse_line(&line) == Ok(Reply::Ready) => {
                    self.version = serde_json::from_str::<serde_json::Value>(&line)
                        .ok()
                        .and_then(|v| v.get("version")?.as_str().map(str::to_owned));
                    return Ok(running);
                }
                Ok(line) => {
                    if let Some(said) = (self.spec.bridge.missing)(&line) {
                        return Err(EngineErrorKind::Missing(Missing::NotInstalled {
                            program: program(),
                            said,
                        }));
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(EngineErrorKind::Start(StartError::NoBridge {
                        program: program(),
                        limit: START_LIMIT,
                    }));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(EngineErrorKind::Start(StartError::ExitedAtStart {
                        program: program(),
                    }));
                }
            }
        }
    }

    /// Stops the process; the next request starts a new one.
    fn restart_later(&mut self) {
        if self.running.take().is_some() {
            self.restarts += 1;
        }
    }

    /// The whole games of a match file, for an engine that reads matches
    /// itself (`Capabilities::whole_games`).
    fn games(
        &mut self,
        id: u64,
        req: &super::gnubg_match::GamesRequest,
        limit: Duration,
    ) -> Result<Vec<super::gnubg_match::GameAnswer>, EngineError> {
        self.send(&super::gnubg_match::request_line(id, req))?;
        let deadline = Instant::now() + limit;
        let mut junk = 0;
        loop {
            let running = self.running.as_mut().expect("running");
            match recv_by(&running.lines, deadline) {
                Ok(text) => {
                    use super::gnubg_match::{GameAnswerError, Line};
                    let read = match super::gnubg_match::read_line(&text, id, req.count) {
                        Ok(Line::Other) => {
                            // A stale answer, or the ready line.
                            junk += 1;
                            if junk > MAX_JUNK_LINES {
                                return Err(self.garbage(flooded()));
                            }
                            continue;
                        }
                        Err(GameAnswerError::NotJson) => {
                            let start: String = text.chars().take(80).collect();
                            return Err(self.garbage(Garbage::NotJson { start }));
                        }
                        Ok(Line::Games(games)) => Ok(games),
                        Ok(Line::Refused(said)) => {
                            Err(self.error(EngineErrorKind::Refused { said }))
                        }
                        Err(e) => Err(self.error(EngineErrorKind::Garbage(Garbage::Games(e)))),
                    };
                    self.starts.answered(None);
                    return read;
                }
                Err(e) => return Err(self.lost(e, limit)),
            }
        }
    }

    /// No answer came: none within `limit` (however many other lines
    /// came), or the engine is gone. Either way it is restarted on the next
    /// request.
    fn lost(&mut self, e: RecvTimeoutError, limit: Duration) -> EngineError {
        self.restart_later();
        match e {
            RecvTimeoutError::Timeout => {
                self.starts.answered(Some(LostAnswer::Hung(limit)));
                self.error(EngineErrorKind::Timeout(limit))
            }
            RecvTimeoutError::Disconnected => self.failed(EngineErrorKind::Died),
        }
    }

    /// The engine answered garbage: restarted on the next request.
    fn garbage(&mut self, why: Garbage) -> EngineError {
        self.restart_later();
        self.failed(EngineErrorKind::Garbage(why))
    }

    /// Records `kind` (the engine died or wrote garbage) as a lost answer.
    fn failed(&self, kind: EngineErrorKind) -> EngineError {
        self.starts.answered(Some(LostAnswer::Failed(kind.clone())));
        self.error(kind)
    }

    /// Writes one request line to the engine (started if need be); a
    /// broken pipe is a dead engine, restarted on the next request. A batch
    /// that gave the engine up asks nothing.
    fn send(&mut self, line: &str) -> Result<(), EngineError> {
        if let Some(why) = self.starts.given_up() {
            return Err(self.error(EngineErrorKind::Unanswered(why)));
        }
        let running = self.ensure_running()?;
        if writeln!(running.stdin, "{line}")
            .and_then(|()| running.stdin.flush())
            .is_err()
        {
            self.restart_later();
            return Err(self.failed(EngineErrorKind::Died));
        }
        Ok(())
    }

    /// Sends one request line and reads until its answer, handing partial
    /// answers to `progress`; each line must come within `limit`.
    fn exchange(
        &mut self,
        req: &Request,
        line: &str,
        limit: Duration,
        progress: &mut dyn FnMut(&Rollout, Option<&Analysis>) -> bool,
    ) -> Result<Analysis, EngineError> {
        let id = req.id;
        let spec = self.spec;
        let parse = |text: &str| (spec.codec.parse)(text, req);
        self.send(line)?;
        let mut stop_sent = false;
        let mut deadline = Instant::now() + limit;
        // An engine that stops a rollout at once (its own cancellation) is
        // asked for the stop every 25 ms while one runs, not only at each
        // answer.
        let mut last: Option<Rollout> = None;
        let mut junk = 0;
        loop {
            let running = self.running.as_mut().expect("running");
            let until = match (&last, stop_sent) {
                (Some(_), false) if spec.caps.cancels_rollouts => {
                    deadline.min(Instant::now() + Capabilities::STOP_POLL)
                }
                _ => deadline,
            };
            match recv_by(&running.lines, until) {
                Err(RecvTimeoutError::Timeout) if Instant::now() < deadline => {
                    if let Some(r) = &last
                        && !progress(r, None)
                    {
                        stop_sent = ask_stop(&mut running.stdin, id);
                    }
                }
                Ok(text) => match parse(&text) {
                    Ok(Reply::Answer(got, result)) if got == id => {
                        self.starts.answered(None);
                        return result
                            .map_err(|r| self.error(EngineErrorKind::Refused { said: r.said }));
                    }
                    Ok(Reply::Progress(got, partial)) if got == id => {
                        deadline = Instant::now() + limit;
                        last = partial.rollout().cloned();
                        let go_on = partial
                            .rollout()
                            .is_none_or(|r| progress(r, Some(&partial)));
                        if !stop_sent && !go_on {
                            // gnubg reads it between chunks: the rollout
                            // ends with the trials done so far.
                            stop_sent = ask_stop(&mut running.stdin, id);
                        }
                    }
                    Ok(Reply::Tick(got, r)) if got == id => {
                        deadline = Instant::now() + limit;
                        let go_on = progress(&r, None);
                        last = Some(*r);
                        if !stop_sent && !go_on {
                            stop_sent = ask_stop(&mut running.stdin, id);
                        }
                    }
                    // A stale answer, or a repeated ready line.
                    Ok(_) if junk < MAX_JUNK_LINES => junk += 1,
                    Ok(_) => return Err(self.garbage(flooded())),
                    Err(e) => return Err(self.garbage(Garbage::Reply(e))),
                },
                Err(e) => return Err(self.lost(e, limit)),
            }
        }
    }
}

impl Engine for Process {
    fn kind(&self) -> EngineKind {
        self.kind
    }

    fn version(&self) -> Option<String> {
        self.version.clone()
    }

    fn set_threads(&mut self, threads: u8) {
        self.threads = threads;
    }

    fn warm_up(&mut self) -> Result<(), EngineError> {
        Process::warm_up(self)
    }

    fn pid(&self) -> Option<u32> {
        Process::pid(self)
    }

    /// Answers to other (older) requests are dropped.
    fn analyse(&mut self, req: &Request, limit: Duration) -> Result<Analysis, EngineError> {
        if let Some(reason) = request::nothing_to_analyse(&req.position) {
            return Ok(Analysis::Over { reason });
        }
        let line = (self.spec.codec.request)(req);
        self.exchange(req, &line, limit, &mut |_, _| true)
    }

    fn analyse_played(
        &mut self,
        req: &Request,
        played_after: &str,
        limit: Duration,
    ) -> Result<Analysis, EngineError> {
        if let Some(reason) = request::nothing_to_analyse(&req.position) {
            return Ok(Analysis::Over { reason });
        }
        let line = (self.spec.codec.played)(req, played_after);
        self.exchange(req, &line, limit, &mut |_, _| true)
    }

    /// Answers so far come about every `settings.chunk_ms`; a stop ends
    /// the rollout after the chunk running, or at once for an engine that
    /// cancels its rollouts itself.
    fn rollout(
        &mut self,
        req: &Request,
        settings: &RolloutSettings,
        limit: Duration,
        progress: &mut dyn FnMut(&Rollout, Option<&Analysis>) -> bool,
    ) -> Result<Analysis, EngineError> {
        if let Some(reason) = request::nothing_to_analyse(&req.position) {
            return Ok(Analysis::Over { reason });
        }
        let line = (self.spec.codec.rollout)(req, settings, self.threads);
        self.exchange(req, &line, limit, progress)
    }

    fn analyse_games(
        &mut self,
        id: u64,
        req: &super::gnubg_match::GamesRequest,
        limit: Duration,
    ) -> Result<Vec<super::gnubg_match::GameAnswer>, EngineError> {
        if !self.spec.caps.whole_games {
            return Err(self.error(EngineErrorKind::NoWholeGames));
        }
        self.games(id, req, limit)
    }
}

/// Why an engine that wrote too many lines that are not its answer is
/// restarted.
fn flooded() -> Garbage {
    Garbage::Flooded {
        lines: MAX_JUNK_LINES,
    }
}

/// The next line from the engine, if it comes before `until`. Checked
/// before each line, so that an engine flooding lines that are not the
/// answer still runs out of time.
fn recv_by(lines: &Receiver<String>, until: Instant) -> Result<String, RecvTimeoutError> {
    let left = until.saturating_duration_since(Instant::now());
    if left.is_zero() {
        return Err(RecvTimeoutError::Timeout);
    }
    lines.recv_timeout(left)
}

/// Starts `command` so that it is killed when bgedit ends, however it ends:
/// a signal that kills bgedit (SIGTERM, SIGKILL) would otherwise leave
/// gnubg running, adopted by init. Linux's parent-death signal; elsewhere
/// the engine ends when it reads the end of its input. That signal comes
/// when the *thread* that started the child ends, and engines outlive the
/// threads that start them (a quiz grade's thread starts the grader, which
/// is kept): every engine is started by one thread that lives as long as
/// bgedit.
fn spawn_dying_with_bgedit(mut command: Command) -> std::io::Result<Child> {
    type Order = (Command, std::sync::mpsc::Sender<std::io::Result<Child>>);
    static SPAWNER: OnceLock<Mutex<std::sync::mpsc::Sender<Order>>> = OnceLock::new();
    die_with_this_process(&mut command);
    let spawner = SPAWNER.get_or_init(|| {
        let (orders, rx) = std::sync::mpsc::channel::<Order>();
        // If it cannot start, the orders fail below with the reason.
        let _ = std::thread::Builder::new()
            .name("bgedit-spawner".to_owned())
            .spawn(move || {
                for (mut command, reply) in rx {
                    let child = command.spawn();
                    if let Ok(c) = &child {
                        children().push(c.id());
                    }
                    let _ = reply.send(child);
                }
            });
        Mutex::new(orders)
    });
    let (reply, answer) = std::sync::mpsc::channel();
    let sent = spawner
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .send((command, reply));
    let gone = || std::io::Error::other("the thread that starts engines is gone");
    sent.map_err(|_| gone())?;
    answer.recv().map_err(|_| gone())?
}

/// Sets Linux's parent-death signal on `command`: SIGKILL when the thread
/// that starts it ends. The engine gets a process group of its own: the
/// terminal's Ctrl-C is bgedit's to act on (it stops its work, says what
/// it kept and ends its engines), and never kills or interrupts an engine
/// mid-answer behind its back.
fn die_with_this_process(command: &mut Command) {
    {
        use std::os::unix::process::CommandExt;
        command.process_group(0);
    }
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::process::CommandExt;
        let parent = std::process::id();
        // SAFETY: the closure runs in the child between fork and exec and
        // makes only async-signal-safe calls (prctl, getppid, _exit).
        unsafe {
            command.pre_exec(move || {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) == -1 {
                    return Err(std::io::Error::last_os_error());
                }
                // bgedit died before the line above: nobody will kill us.
                if u32::try_from(libc::getppid()).ok() != Some(parent) {
                    libc::_exit(1);
                }
                Ok(())
            });
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = command;
}

/// Asks the bridge to stop rollout `id`; whether the line was sent.
fn ask_stop(stdin: &mut ChildStdin, id: u64) -> bool {
    writeln!(stdin, "{{\"stop\":{id}}}")
        .and_then(|()| stdin.flush())
        .is_ok()
}

#[cfg(test)]
mod private_dir_tests {
    use super::private_dir;
    use std::os::unix::fs::PermissionsExt;

    fn mode(p: &std::path::Path) -> u32 {
        std::fs::metadata(p).unwrap().permissions().mode() & 0o777
    }

    #[test]
    fn the_bridge_directory_is_made_private_and_links_are_refused() {
        let base = tempfile::tempdir().unwrap();
        let dir = base.path().join("a/bgedit");
        private_dir(&dir).unwrap();
        assert_eq!(mode(&dir), 0o700);
        // One left open by an older bgedit is narrowed.
        let open = base.path().join("open");
        std::fs::create_dir(&open).unwrap();
        std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o777)).unwrap();
        private_dir(&open).unwrap();
        assert_eq!(mode(&open), 0o700);
        // A link planted under the expected name is not followed.
        let link = base.path().join("link");
        std::os::unix::fs::symlink(&open, &link).unwrap();
        let e = private_dir(&link).unwrap_err();
        assert!(
            matches!(e, crate::failure::BridgeError::NotADirectory(_)),
            "{e}"
        );
        assert!(e.to_string().contains("not a directory"), "{e}");
    }
}
