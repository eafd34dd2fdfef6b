"""Beam pipeline entry points and their configuration."""
