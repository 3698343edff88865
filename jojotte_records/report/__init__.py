"""The report floor: the static HTML site built from records or from an archive, its event-game pages and the
views shared by both.
"""

HANDS_PER_FILE = 10  # hands written into one page file (creating a file costs about as much as rendering a hand)
HANDS_PER_SHEET = 500  # hands on one page of a session's score sheet (a long session's sheet is paged)
