"""The archive's SQL: numbered migrations (``NNN_name.sql``) and named statistic queries (``queries/*.sql``).

Data files only; `jojotte_records.archive.store` reads them with `importlib.resources`.
"""
