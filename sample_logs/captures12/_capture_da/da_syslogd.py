"""Minimal UDP syslog collector for captures12: appends every datagram received on 127.0.0.1:PORT, as received,
one per line, to FILE. Usage: python da_syslogd.py PORT FILE (runs until killed)."""
import socket, sys

s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("127.0.0.1", int(sys.argv[1])))
with open(sys.argv[2], "ab", buffering=0) as f:
    while True:
        data, _ = s.recvfrom(65535)
        f.write(data.rstrip(b"\n") + b"\n")
