"""wc_pty_session.py SECONDS TRANSCRIPT CMDLINE: stands in for an interactive ssh login: runs `bash -i` on a new pty
(its own session, the pty as controlling terminal), types CMDLINE, keeps reading what the terminal shows into
TRANSCRIPT (the user's terminal scrollback), and after SECONDS drops the connection: the master side is closed
without logout, so the kernel hangs up the session (SIGHUP to bash, which passes it on to its jobs)."""
import os, pty, select, sys, time
secs, transcript, cmdline = float(sys.argv[1]), sys.argv[2], sys.argv[3]
pid, fd = pty.fork()
if pid == 0:
    os.environ.update(PS1="user@vm:~/job$ ", TERM="xterm")
    os.execvp("bash", ["bash", "--norc", "-i"])
out = open(transcript, "wb")
time.sleep(0.5)
os.write(fd, cmdline.encode() + b"\r")
end = time.time() + secs
while time.time() < end:
    r, _, _ = select.select([fd], [], [], 0.2)
    if r:
        try:
            out.write(os.read(fd, 4096)); out.flush()
        except OSError:
            break
out.close()
os.close(fd)                       # connection lost
for _ in range(50):
    p, st = os.waitpid(pid, os.WNOHANG)
    if p: break
    time.sleep(0.2)
