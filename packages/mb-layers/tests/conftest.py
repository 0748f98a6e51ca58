import os
import sys
from pathlib import Path

# Eager calls in these tests run on the NumPy backend (always installed).
os.environ.setdefault("MB_BACKEND", "numpy")

# --import-mode=importlib does not put this folder on sys.path; a shared helper lives here.
sys.path.insert(0, str(Path(__file__).parent))
