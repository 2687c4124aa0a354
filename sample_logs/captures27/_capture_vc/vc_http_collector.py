"""vc_http_collector.py: HTTP log collector for logging.handlers.HTTPHandler (POST /log, url-encoded LogRecord
attributes). http.server's access log goes to stderr as usual; each record is written to records.log as
`<created, local time> <name> <levelname> rank=<rank> pid=<process> <message>` plus the exc_info field when set
(HTTPHandler sends the record's __dict__ as strings; no formatter runs, so a traceback arrives only as exc_info's repr)."""
import sys, time, datetime, urllib.parse
from http.server import ThreadingHTTPServer, BaseHTTPRequestHandler
port, path = int(sys.argv[1]), sys.argv[2]
out = open(path, "a", buffering=1)


class H(BaseHTTPRequestHandler):
    def do_POST(self):
        n = int(self.headers.get("Content-Length", 0))
        d = {k: v[0] for k, v in urllib.parse.parse_qs(self.rfile.read(n).decode(), keep_blank_values=True).items()}
        msg = d.get("msg", "")
        args = d.get("args", "()")
        try:
            if args not in ("()", "None", "{}"):
                import ast
                msg = msg % ast.literal_eval(args)
        except Exception:
            msg = f"{msg} {args}"
        ts = datetime.datetime.fromtimestamp(float(d.get("created", time.time()))).strftime("%Y-%m-%d %H:%M:%S")
        out.write(f"{ts},{int(float(d.get('msecs', 0))):03d} {d.get('name')} {d.get('levelname')} rank={d.get('rank', '?')} "
                  f"pid={d.get('process')} {msg}\n")
        if d.get("exc_info") not in (None, "None", ""):
            out.write(f"    exc_info={d['exc_info']}\n")
        self.send_response(200); self.end_headers()


ThreadingHTTPServer(("127.0.0.1", port), H).serve_forever()
