"""Makes the package importable from a checkout (``python3 -m pytest clients/python/tests``) without installing it."""
from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..")))
