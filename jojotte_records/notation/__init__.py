"""The notation floor: a session's in-memory model, its text notation (Jo-Jotte and the games recorded as a log
of events), its JSON form and schema, the analyzer's [%dd ...] comment codec and the deal files. It knows the
rules only through the rules core.
"""
