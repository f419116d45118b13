"""Headless play: the simulator, the record verifier and their statistics."""
