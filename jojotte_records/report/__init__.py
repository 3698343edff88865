"""The report floor: the static HTML site built from records or from an archive, its event-game pages and the
views shared by both.
"""
