"""The version of cardgen: one place, read by the build backend and the reports."""

__version__ = "0.1.0"
