"""vc_zmq_collector.py: log sink for pyzmq PUBHandler records. Binds a SUB socket, subscribes to everything, writes
one line per record: `<receive time> <topic> | <message>` (multi-line messages kept as sent)."""
import sys, time, datetime, zmq
ep, path = sys.argv[1], sys.argv[2]
s = zmq.Context.instance().socket(zmq.SUB); s.bind(ep); s.setsockopt(zmq.SUBSCRIBE, b"")
with open(path, "a", buffering=1) as out:
    out.write(f"{datetime.datetime.now().isoformat(timespec='milliseconds')} collector | listening on {ep}\n")
    while True:
        topic, msg = s.recv_multipart()
        out.write(f"{datetime.datetime.now().isoformat(timespec='milliseconds')} {topic.decode()} | {msg.decode().rstrip()}\n")
