"""``cardgen serve``: a live preview of a game in the browser while it is designed.

Every distinct face and every imposed sheet page, drawn by the same code as the PDFs,
redrawn when a file of the game folder is saved (only the pictures whose layout
changed), with the problems of a broken save in a banner over the last good pictures.
Nothing is written near the game or the output folder: pictures live in memory.

``state`` holds the views and their pictures, ``pictures`` draws them, ``app`` serves
them over HTTP on 127.0.0.1, ``events`` tells the pages, ``watcher`` sees the saves,
``live`` starts them together; the page itself is in ``page/``.
"""

from .live import LivePreview

__all__ = ["LivePreview"]
