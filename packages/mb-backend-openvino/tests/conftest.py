"""Every test of this package runs with the openvino backend selected."""

import os
import sys
from pathlib import Path

os.environ["MB_BACKEND"] = "openvino"

# Shared helpers sit next to the tests; pytest runs with --import-mode=importlib,
# which does not put this folder on sys.path.
sys.path.insert(0, str(Path(__file__).parent))
