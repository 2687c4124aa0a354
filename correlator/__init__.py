"""correlator: find the rank that broke a distributed training job.

The library is the product; ``correlator.cli`` is a thin click layer over it.
"""

__version__ = "0.1.0"
