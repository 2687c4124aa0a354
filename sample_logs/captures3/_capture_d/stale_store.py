"""The leftover of an earlier job: a TCPStore server (what rank 0 of torchrun/env:// hosts)
that was never shut down and still holds the port.  Prints nothing; its output is not kept."""
import sys
import time
from datetime import timedelta

from torch.distributed import TCPStore

store = TCPStore("127.0.0.1", int(sys.argv[1]), 4, True, timedelta(seconds=300), wait_for_workers=False)
time.sleep(float(sys.argv[2]))
