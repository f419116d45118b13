"""Benchmarks (`make bench`): figures are written to BENCHMARKS.md, never asserted in tests."""
