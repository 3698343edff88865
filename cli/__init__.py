"""The ``jojotte`` command line: a thin layer over the library (shipped as jojotte_records.cli)."""
