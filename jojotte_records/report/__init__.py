"""The report floor: the static HTML site built from records or from an archive, its event-game pages and the
views shared by both.
"""

HANDS_PER_FILE = 10  # hands written into one page file (creating a file costs about as much as rendering a hand)
