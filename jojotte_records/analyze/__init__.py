"""The analyze floor: the double-dummy analyzer of Jo-Jotte hands, the endings of the games recorded as a log of
events and the solver. Only the command line uses it.
"""
