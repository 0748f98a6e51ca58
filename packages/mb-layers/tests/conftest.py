import os

# Eager calls in these tests run on the NumPy backend (always installed).
os.environ.setdefault("MB_BACKEND", "numpy")
