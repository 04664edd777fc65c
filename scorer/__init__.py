"""Tarabish table app, store and command line."""
