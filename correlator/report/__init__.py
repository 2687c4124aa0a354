"""Renderings of a verdict: terminal text, JSON (the model), Markdown, HTML, Perfetto; redaction."""
