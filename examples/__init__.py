"""Bundled example sessions (shipped inside the package as jojotte_records.examples)."""
