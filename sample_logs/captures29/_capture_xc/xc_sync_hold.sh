#!/bin/bash
# xc_sync_hold.sh LOCK SECONDS LOG: stand-in for the site's dataset sync of the shared volume as it ran that night:
# takes the volume's sync lock (flock) and holds it for SECONDS while "syncing", logging start and end.
exec 9> "$1"; flock 9
echo "$(date -u '+%FT%TZ') dataset-sync[$$]: lock $1 taken, syncing /data/shared (incremental)" >> "$3"
sleep "$2"
echo "$(date -u '+%FT%TZ') dataset-sync[$$]: sync done, lock released" >> "$3"
