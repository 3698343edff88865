"""The replay floor: the engine that plays a record through the rules core, the Jo-Jotte and event log validators
with their verdicts, the file-level checks (FileResult, the JSON verdict) and the fast paths. It reads the
notation floor and writes nothing.
"""
