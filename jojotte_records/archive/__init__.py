"""The archive floor: the DuckDB archive (its loader, the rows of event games, the SQL migrations and named
queries in sql/) and the statistics read from it.
"""
