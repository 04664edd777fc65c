"""Tarabish rules engine: pure, typed, no I/O."""
