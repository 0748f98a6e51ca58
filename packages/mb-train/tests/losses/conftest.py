"""Loss tests run on jax unless MB_BACKEND says otherwise (set before any mb import)."""

import os
import sys
from pathlib import Path

os.environ.setdefault("MB_BACKEND", "jax")

# --import-mode=importlib does not put this folder on sys.path; the helpers live here.
sys.path.insert(0, str(Path(__file__).parent))
