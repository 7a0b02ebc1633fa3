"""Starts bgedit on a pseudo-terminal of its own, waits for its screen,
edits once, then closes the terminal (as closing a terminal window does)
and says how the editor ended: `exited STATUS SECONDS`, or `hung` (then
it is killed). Used by tests/editor/editor_edge.rs; argv: BGEDIT STATE_DIR."""
import os, pty, select, signal, sys, time

bgedit, state = sys.argv[1], sys.argv[2]
pid, fd = pty.fork()
if pid == 0:
    os.environ["BGEDIT_STATE_DIR"] = state
    if os.environ.get("HANGUP_STDERR"):
        # To see what the editor says on its way out, once the terminal is
        # gone (the test leaves standard error on the terminal, as a user's).
        os.dup2(os.open(os.environ["HANGUP_STDERR"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC), 2)
    os.environ["TERM"] = "xterm-256color"
    os.execv(bgedit, [bgedit, "--new"])

seen = b""
deadline = time.time() + 20
while b"GNUBG ID" not in seen and time.time() < deadline:
    r, _, _ = select.select([fd], [], [], 0.2)
    if r:
        try:
            seen += os.read(fd, 65536)
        except OSError:
            break
os.write(fd, b"E")
time.sleep(0.5)
os.close(fd)
start = time.time()
while time.time() - start < 10:
    done, status = os.waitpid(pid, os.WNOHANG)
    if done:
        print("exited", os.waitstatus_to_exitcode(status), round(time.time() - start, 2))
        sys.exit(0)
    time.sleep(0.05)
os.kill(pid, signal.SIGKILL)
os.waitpid(pid, 0)
print("hung")
