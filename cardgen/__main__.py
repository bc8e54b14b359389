"""``python -m cardgen`` runs the command line."""

from .cli import main

if __name__ == "__main__":  # not again in a spawned worker process
    main(prog_name="cardgen")
