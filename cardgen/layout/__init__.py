"""The layout language and text: the op table and its checks, SVG paths, fonts,
wrapping, fitting and flowed text."""
