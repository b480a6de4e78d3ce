"""The PDFs: the sandboxed WeasyPrint renderer and the routes that print with it."""
