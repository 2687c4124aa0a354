"""A timeline kept as a directory of Parquet parts (``correlator ingest --out DIR/``).

The single-file timeline is ingest's parts' row groups copied one after the other
under one footer (``correlator.ingest.parquet_concat``). For a job of tens to
hundreds of GB that copy is as long as the job's data and runs on one machine;
a directory of the parts themselves costs nothing to assemble, and every engine
that reads Parquet reads it as one table::

    job.timeline/
      part-000000.parquet      the events of one input file (or of several small ones),
      part-000017.parquet      in the timeline's schema; named after their first file,
      ...                      so the names' order is the timeline's row order
      _correlator.json         what the single file keeps in its footer's key-value
                               metadata (schema version, ``files``, ``problems``,
                               whether it holds secrets), and the parts with their rows

DuckDB: ``read_parquet('job.timeline/*.parquet')``; Polars:
``pl.scan_parquet('job.timeline/*.parquet')``; Spark: ``spark.read.parquet('job.timeline')``
(it skips names starting with ``_``; ``_metadata`` without a suffix would be read as
a Parquet summary file, hence ``_correlator.json``). Each part also carries the schema
version in its own footer.

``_correlator.json`` is written last, so a directory without it is not (yet) a
timeline; the parts it lists are the timeline, anything else in the directory is
not. The part names are checked to be plain names inside the directory.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, field_validator

META_FILE = "_correlator.json"
FORMAT = "correlator-timeline-parts"
# what ``--out`` names when it means a directory (besides a trailing slash or an existing one)
DIR_SUFFIX = ".timeline"


class PartEntry(BaseModel):
    model_config = ConfigDict(extra="forbid")
    file: str
    rows: int

    @field_validator("file")
    @classmethod
    def _plain_name(cls, v: str) -> str:
        if not v.endswith(".parquet") or "/" in v or "\\" in v or v.startswith(".") or v != os.path.basename(v):
            raise ValueError(f"not a part's file name: {v!r}")
        return v


class PartsMeta(BaseModel):
    """``_correlator.json``."""

    model_config = ConfigDict(extra="forbid")
    format: Literal["correlator-timeline-parts"] = FORMAT
    # the single file's key-value metadata, key for key (values are strings, JSON inside)
    metadata: dict[str, str]
    parts: list[PartEntry]


@dataclass
class TimelineDir:
    path: Path
    metadata: dict[str, str]
    parts: list[Path]
    rows: list[int]


def is_timeline_dir(path: str | Path) -> bool:
    """Whether ``path`` is a finished timeline directory."""
    return (Path(path) / META_FILE).is_file()


def means_directory(out: str) -> bool:
    """Whether the ``--out`` path ``out`` asks for a directory of parts: it ends with a
    slash, ends with ``.timeline``, or is a directory already."""
    return out.endswith(("/", os.sep)) or Path(out).suffix == DIR_SUFFIX or Path(out).is_dir()


def read_timeline_dir(path: str | Path) -> TimelineDir:
    """The directory's metadata and parts (``ValueError`` when ``_correlator.json`` is
    damaged, names a file outside it, or a part is missing)."""
    root = Path(path)
    meta = PartsMeta.model_validate_json((root / META_FILE).read_bytes())
    parts = [root / p.file for p in meta.parts]
    missing = [p.name for p in parts if not p.is_file()]
    if missing:
        raise ValueError(f"{root}: parts listed in {META_FILE} are missing: {', '.join(missing[:5])}")
    return TimelineDir(root, meta.metadata, parts, [p.rows for p in meta.parts])


def write_meta(directory: str | Path, metadata: dict[str, str], parts: list[tuple[str, int]]) -> None:
    """Write ``_correlator.json`` into ``directory`` (the last file of a timeline directory)."""
    meta = PartsMeta(metadata=metadata, parts=[PartEntry(file=f, rows=n) for f, n in parts])
    tmp = Path(directory) / f".{META_FILE}.part"
    tmp.write_text(json.dumps(meta.model_dump(), indent=1) + "\n", encoding="utf-8")
    os.replace(tmp, Path(directory) / META_FILE)
