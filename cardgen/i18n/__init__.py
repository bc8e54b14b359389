"""The translators' workflow: catalogues out (PO, XLIFF) and back in, a new language
from nothing, and the status of every language (what is missing, unused, mismatched or
too long), learnt by rendering the game as a build does."""
