"""uc_featstore.py PORT ROOT: the team's small feature-store gateway. Serves GET /shards/<R>.npy by reading through
from its backing volume ROOT; logs every request. Here the backing volume does not answer (reads block)."""
import http.server, logging, os, sys, threading

logging.basicConfig(format="%(asctime)s featstore[%(process)d] %(levelname)s %(message)s", level=logging.INFO,
                    stream=sys.stdout)
log = logging.getLogger("featstore")
PORT, ROOT = int(sys.argv[1]), sys.argv[2]
backend_ok = threading.Event()  # set while the backing volume answers


class H(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):
        log.info("%s %s", self.address_string(), fmt % args)

    def do_GET(self):
        if not self.path.startswith("/shards/"):
            self.send_error(404); return
        key = self.path.rsplit("/", 1)[1]
        log.info("read-through %s from backend %s", key, ROOT)
        backend_ok.wait()  # the read blocks until the backend answers
        with open(os.path.join(ROOT, key), "rb") as fh:
            data = fh.read()
        self.send_response(200); self.send_header("Content-Length", str(len(data))); self.end_headers()
        self.wfile.write(data)


srv = http.server.ThreadingHTTPServer(("127.0.0.1", PORT), H)
log.info("listening on 127.0.0.1:%d, backend %s", PORT, ROOT)
srv.serve_forever()
