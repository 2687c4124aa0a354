"""wc_syslog_udp.py PORT FILE: a small UDP syslog receiver (the site's stand-in for rsyslog's imudp with the
traditional file format): writes `<Mmm dd HH:MM:SS> <host> <facility>.<severity> <msg>` lines, control characters
in a message escaped rsyslog-style (#012 for a newline)."""
import socket, sys, time
FAC = ["kern", "user", "mail", "daemon", "auth", "syslog", "lpr", "news", "uucp", "cron", "authpriv", "ftp",
       "ntp", "audit", "alert", "clock", "local0", "local1", "local2", "local3", "local4", "local5", "local6", "local7"]
SEV = ["emerg", "alert", "crit", "err", "warning", "notice", "info", "debug"]
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(("127.0.0.1", int(sys.argv[1])))
host = socket.gethostname()
with open(sys.argv[2], "a", buffering=1) as out:
    while True:
        data, _ = s.recvfrom(65536)
        msg = data.decode("utf-8", "replace").rstrip("\x00").rstrip("\n")
        pri = 13
        if msg.startswith("<") and ">" in msg[:5]:
            pri, msg = int(msg[1:msg.index(">")]), msg[msg.index(">") + 1:]
        msg = "".join(c if c >= " " or c == "\t" else "#%03o" % ord(c) for c in msg)
        out.write(f"{time.strftime('%b %e %H:%M:%S')} {host} {FAC[pri >> 3]}.{SEV[pri & 7]} {msg}\n")
