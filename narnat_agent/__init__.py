"""Narnat: a terminal coding agent for OpenAI-compatible models."""

__version__ = "0.4.0"
