"""``python -m jojotte_records``: the ``jojotte`` command."""

from jojotte_records.cli.main import run

if __name__ == "__main__":
    run()
