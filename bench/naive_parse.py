"""The yardstick: a straightforward Polars regex parse of a job's logs into Parquet.

    python bench/naive_parse.py JOB_DIR OUT.parquet

What a competent engineer writes in an hour, and not deliberately slow: every file
under JOB_DIR is read as lines by Polars' multi-threaded CSV reader (one column, a
separator and quote that never occur), all files scanned lazily as one frame, a few
`str.extract` regexes take a time stamp, a level and a rank out of each line, and the
result is streamed to one zstd Parquet file by Polars' own writer. No folding of
tracebacks, no launcher prefixes, no job-wide attribution: that is what it does not do
and `correlator ingest` does. Prints the row count.
"""

from __future__ import annotations

import sys
from pathlib import Path

import polars as pl

# A stamp at the head of a line (after a launcher prefix): ISO / asctime, HF's
# MM/DD/YYYY, glog's I1130 04:33:01.716000.
TS = r"(\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?|\d{2}/\d{2}/\d{4} \d{2}:\d{2}:\d{2}|[IWEF]\d{4} \d{2}:\d{2}:\d{2}\.\d+)"
LEVEL = r"\b(DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL|FATAL)\b"
# A rank: a launcher prefix (`[default3]:`, `3: `, `[rank3]:`) or `rank 3` / `rank=3` near the head.
RANK = r"(?:\[default(?P<a>\d+)\]:|^(?P<b>\d+): |\[[Rr]ank ?(?P<c>\d+)\]|\brank[ =](?P<d>\d+))"


def scan(path: Path, rel: str) -> pl.LazyFrame:
    return pl.scan_csv(
        path,
        has_header=False,
        separator="\x1f",
        quote_char=None,
        new_columns=["line"],
        schema={"line": pl.String},
        encoding="utf8-lossy",
        truncate_ragged_lines=True,
    ).with_columns(
        pl.lit(rel).alias("file"),
        pl.int_range(pl.len(), dtype=pl.UInt32).alias("line_no"),
    )


def parse(job: Path, out: Path) -> int:
    files = sorted(p for p in job.rglob("*") if p.is_file())
    frame = pl.concat([scan(p, str(p.relative_to(job))) for p in files], how="vertical")
    line = pl.col("line")
    head = line.str.slice(0, 64)
    # one pass of one regex over each line's head; the alternative that matched fills its group
    groups = head.str.extract_groups(RANK)
    rank = pl.coalesce(*(groups.struct.field(g) for g in "abcd")).cast(pl.Int32, strict=False)
    frame = frame.with_columns(
        head.str.extract(TS, 1).alias("ts_text"),
        head.str.extract(LEVEL, 1).alias("level"),
        rank.alias("rank"),
    ).with_columns(
        pl.coalesce(
            pl.col("ts_text").str.to_datetime("%Y-%m-%d %H:%M:%S%.f", strict=False),
            pl.col("ts_text").str.replace("T", " ").str.replace(",", ".").str.to_datetime("%Y-%m-%d %H:%M:%S%.f", strict=False),
            pl.col("ts_text").str.to_datetime("%m/%d/%Y %H:%M:%S", strict=False),
        ).alias("ts")
    ).drop("ts_text")
    frame.sink_parquet(out, compression="zstd")
    return pl.scan_parquet(out).select(pl.len()).collect().item()


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    print(parse(Path(args[0]), Path(args[1])))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
