"""Files from the web: `get_file` (download, cache, hash check, safe extraction)."""
