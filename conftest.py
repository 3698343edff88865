"""Collection of the library's doctests (``--doctest-modules`` on ``jojotte_records``, pyproject.toml).

A module that needs an optional extra is not imported for its doctests when the extra is not installed.
"""

import importlib.util

collect_ignore = ["jojotte_records/spark.py"] if importlib.util.find_spec("pyspark") is None else []
