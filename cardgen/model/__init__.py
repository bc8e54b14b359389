"""The loaded game as frozen values, with no I/O: what every later stage reads."""
