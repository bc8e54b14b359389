"""cardgen: turn a game folder (YAML data + Jinja layouts) into print-ready PDFs."""

__version__ = "0.1.0"
