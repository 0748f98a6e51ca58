import os

# Eager ops in these tests run on the NumPy backend (CI installs only that one).
os.environ.setdefault("MB_BACKEND", "numpy")
