"""A third-party Python client of kahve: queues, plays from its view and legal moves, reads ratings.

play.py wires these modules; README.md says what runs and how the code is generated.
"""
