"""Pairing and table generators for a stage's format (pure: plain values in, plain values out)."""
