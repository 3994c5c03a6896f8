"""Pieces the tools share (text files, diffs, fuzzy matching, HTTP, the shell analysis); no tool lives here."""
