"""The play floor: the simulator and the plausible players' policies for every game, and the statistics of
simulated hands.
"""
