"""metrics exporter: every few seconds open the run's sqlite metrics db and export a snapshot of all scalars
(reads inside one transaction, rows streamed to the dashboard spool)."""
import sqlite3, sys, time, os
db, spool = sys.argv[1], sys.argv[2]
while not os.path.exists(db):
    time.sleep(0.2)
time.sleep(3)
for n in range(3):
    c = sqlite3.connect(db, isolation_level=None)
    c.execute("BEGIN")
    rows = c.execute("SELECT run, step, key, value FROM scalars ORDER BY step").fetchall()
    print(f"{time.strftime('%H:%M:%S')} exporter: snapshot {n}: {len(rows)} rows", flush=True)
    with open(spool, "a") as f:
        for r in rows:
            f.write(",".join(map(str, r)) + "\n"); f.flush(); time.sleep(0.25)   # slow dashboard upload
    c.execute("COMMIT"); c.close()
    time.sleep(2)
