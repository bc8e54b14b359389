"""Writing: PDF canvases and the painter that draws layout ops, the kit files, boards
and images."""
