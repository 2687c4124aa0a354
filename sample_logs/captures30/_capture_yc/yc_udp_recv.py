"""yc_udp_recv.py PORT OUTFILE: the job's log receiver: unpickle the LogRecords that logging.handlers.DatagramHandler
sends (4-byte length + pickle per datagram) and write them as `<ms since receiver start> <host>/<pid> <logger>
<LEVEL> <message>` lines (exception text appended as sent). Stops on SIGTERM."""
import logging, pickle, signal, socket, struct, sys, time
port, out = int(sys.argv[1]), sys.argv[2]
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(("127.0.0.1", port))
signal.signal(signal.SIGTERM, lambda *a: sys.exit(0))
t0 = time.time()
fmt = logging.Formatter("%(ms)9.1f %(host)s/%(process)d %(name)s %(levelname)s %(message)s")
with open(out, "a", buffering=1) as f:
    f.write(f"# yc_udp_recv listening on udp 127.0.0.1:{port} since {time.strftime('%Y-%m-%dT%H:%M:%S%z')}\n")
    while True:
        data, addr = s.recvfrom(65535)
        rec = logging.makeLogRecord(pickle.loads(data[4:]))
        rec.ms = (rec.created - t0) * 1000
        rec.host = getattr(rec, "hostname", addr[0])
        f.write(fmt.format(rec) + "\n")
