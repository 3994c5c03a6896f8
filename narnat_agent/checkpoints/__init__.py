"""Checkpoints: snapshots of the project before each change, and the restores behind /rewind, /undo and /redo."""
