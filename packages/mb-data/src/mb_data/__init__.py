"""Data adapters and the epoch iterator of mb: every input pipeline feeds every backend."""
