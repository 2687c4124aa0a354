#!/usr/bin/env python3
"""metrics_sink.py PORT: the run's metrics sink (accepts JSON POSTs, appends them to sink.jsonl)."""
import http.server, sys
class H(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        open("sink.jsonl", "ab").write(body + b"\n")
        self.send_response(204); self.end_headers()
    def log_message(self, *a):
        pass
http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
