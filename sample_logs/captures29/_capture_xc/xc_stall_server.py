"""xc_stall_server.py PORT LOG: stand-in for the site's hard-negative mining service in the state it was in during
the run: the listener accepts connections and reads the request, but the backend never answers (logs each request)."""
import socket, sys, threading, datetime
port, logp = int(sys.argv[1]), sys.argv[2]
out = open(logp, "a", buffering=1)
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); s.bind(("127.0.0.1", port)); s.listen(16)
out.write(f"{datetime.datetime.now().isoformat(timespec='seconds')} mining-svc listening on 127.0.0.1:{port}\n")
held = []
while True:
    c, addr = s.accept(); held.append(c)
    req = c.recv(4096).decode("latin-1").split("\r\n")[0]
    out.write(f"{datetime.datetime.now().isoformat(timespec='seconds')} {addr[0]}:{addr[1]} \"{req}\" queued "
              f"(backend busy, {len(held)} waiting)\n")
