"""Templates to layouts: the Jinja sandbox with its filters, and every face of a
language rendered and parsed into layout ops."""
