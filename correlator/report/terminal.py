"""Text from logs made safe to print on a terminal.

Log lines and archive member names are written by whoever ran the job: an
escape sequence in them (``ESC ] 0 ; title BEL`` sets the window title, ``ESC [``
moves the cursor or recolours, OSC 52 writes the clipboard) would act on the
terminal of whoever reads the report. Every escape sequence and control
character is dropped before text reaches a terminal; newlines (and tabs) stay
where the caller wants lines.
"""

from __future__ import annotations

import re

# ESC-introduced sequences: CSI (ESC [ ... final), OSC / DCS / SOS / PM / APC
# strings (ESC ] ... BEL or ST), and two-character escapes; then their 8-bit
# forms (U+009B CSI, U+009D OSC, ...). An unterminated string runs to the end.
_ESCAPES = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]?"
    r"|[\x1b][\]PX^_][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"
    r"|[\x90\x98\x9d\x9e\x9f][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"
    r"|\x9b[0-?]*[ -/]*[@-~]?"
    r"|\x1b[ -/]*[0-~]?"
)
# C0 controls but tab and newline, DEL, C1 controls, and the bidirectional
# overrides that make a line read differently from what it says.
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_CONTROLS_ONE_LINE = re.compile(r"[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def clean(text: str, *, newlines: bool = True) -> str:
    """``text`` without escape sequences and control characters (``\\n`` and ``\\t``
    kept, unless ``newlines`` is false: then each is a space)."""
    if not text:
        return text
    text = _ESCAPES.sub("", text)
    if newlines:
        return _CONTROLS.sub("", text)
    return _CONTROLS_ONE_LINE.sub(lambda m: " " if m.group(0) in "\n\t" else "", text)


def strip_controls(text: str) -> str:
    """``text`` without control characters (an escape's ``ESC`` too, so it is inert),
    nothing else removed: for JSON and HTML, whose syntax must stay whole."""
    return _CONTROLS.sub("", text) if text else text


def clean_line(text: str) -> str:
    """``text`` as one clean line (an error message)."""
    return " ".join(clean(text, newlines=False).split())


class CleanStream:
    """A text stream that cleans what is written through it (``sys.stderr`` while a
    command runs: warnings name files, and file names come from archives)."""

    def __init__(self, stream) -> None:
        self._stream = stream

    def write(self, s: str) -> int:
        self._stream.write(clean(s))
        return len(s)

    def __getattr__(self, name: str):
        return getattr(self._stream, name)
