"""Engines at work for a person: hints during a game and reviews of a finished one, each in
worker processes of its own so they never make a bot late."""
