"""Reading a game folder: YAML that keeps its line numbers, key checks, and the whole
game (data, components, cards, locales) into a checked :class:`cardgen.model.Game`."""
