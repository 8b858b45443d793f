"""Every use of a private name of CPython's standard library, in one place.

tests/test_postarrays.py checks each against the public name it stands for, so that a
Python that moves one fails there, by name.
"""

from __future__ import annotations

try:  # hashlib's own blake2b, without the OpenSSL bindings hashlib loads (3 ms a start)
    from _blake2 import blake2b
except ImportError:  # another Python: hashlib's, the same function
    from hashlib import blake2b

__all__ = ["blake2b"]
