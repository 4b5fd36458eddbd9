"""The SDK's version: sent in ``User-Agent`` (``onair-python/<version>``) and read by pyproject.toml."""

__version__ = "0.1.0"
