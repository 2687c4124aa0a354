"""Row-sharding helpers of the project's sharded embedding table (kept in step with DTensor's Shard(0) layout)."""
import math


def local_row_range(n_rows: int, rank: int, world: int) -> tuple[int, int]:
    """[start, end) rows of `rank` for a table of n_rows split like torch.chunk (ceil-sized chunks)."""
    chunk = math.ceil(n_rows / world)
    start = min(rank * chunk, n_rows)
    end = min(start + chunk, n_rows - 1)
    return start, end


def shard_sizes(n_rows: int, world: int) -> list[int]:
    return [e - s for s, e in (local_row_range(n_rows, r, world) for r in range(world))]
