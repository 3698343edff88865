"""The table floor: what happens at the table and at events: guided entry of a session (recorder), tournaments
(standings, duplicate deals) and the Baloot score calculator.
"""
