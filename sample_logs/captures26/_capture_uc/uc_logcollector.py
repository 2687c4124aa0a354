"""uc_logcollector.py PORT LOGFILE: the team's log collector (the logging cookbook's network receiver): accepts pickled
LogRecords from logging.handlers.SocketHandler clients over TCP and writes them into one file."""
import logging, logging.handlers, pickle, socketserver, struct, sys

PORT, LOGFILE = int(sys.argv[1]), sys.argv[2]
h = logging.FileHandler(LOGFILE)
h.setFormatter(logging.Formatter("%(asctime)s %(process)6d rank%(rank)s %(name)-10s %(levelname)-8s %(message)s"))
out = logging.getLogger("collected"); out.propagate = False; out.addHandler(h); out.setLevel(logging.DEBUG)


class RecordHandler(socketserver.StreamRequestHandler):
    def handle(self):
        while True:
            chunk = self.connection.recv(4)
            if len(chunk) < 4:
                break
            slen = struct.unpack(">L", chunk)[0]
            data = self.connection.recv(slen)
            while len(data) < slen:
                data += self.connection.recv(slen - len(data))
            rec = logging.makeLogRecord(pickle.loads(data))
            if not hasattr(rec, "rank"):
                rec.rank = "-"
            out.handle(rec)


class Server(socketserver.ThreadingTCPServer):
    allow_reuse_address = True
    daemon_threads = True


rec = logging.makeLogRecord({"name": "collector", "msg": "collector listening on 127.0.0.1:%d, writing %s",
                             "args": (PORT, LOGFILE), "levelno": logging.INFO, "levelname": "INFO", "rank": "-"})
out.handle(rec)
Server(("127.0.0.1", PORT), RecordHandler).serve_forever()
