"""Renderings of a verdict: terminal text (here), JSON (the pydantic model)."""
