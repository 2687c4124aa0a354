#!/usr/bin/env python3
"""lc_syslogd.py SOCKET OUTFILE: a minimal local syslog daemon for the job's mount namespace (the machine has no
rsyslog/journald): receives RFC 3164 datagrams from `logger` on a unix socket and appends them to OUTFILE the way
rsyslog's traditional file format writes them (`Mmm dd HH:MM:SS host tag[pid]: message`), priority dropped."""
import os, re, socket, sys

sock_path, out = sys.argv[1], sys.argv[2]
if os.path.exists(sock_path):
    os.unlink(sock_path)
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sock_path)
host = socket.gethostname()
with open(out, "a", buffering=1) as f:
    while True:
        msg = s.recv(65536).decode("utf-8", "replace").rstrip("\n")
        m = re.match(r"<\d+>(\w{3} [ \d]\d \d\d:\d\d:\d\d) (.*)", msg, re.S)
        if m:
            f.write(f"{m.group(1)} {host} {m.group(2)}\n")
        else:
            f.write(msg + "\n")
