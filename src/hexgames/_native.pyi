# Type stub of the extension module hexgames._native (native/python, PyO3).
from typing import Any

__version__: str

def splitmix64(x: int) -> int: ...

# Classes of the extension not yet described here.
def __getattr__(name: str) -> Any: ...
