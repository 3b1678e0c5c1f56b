"""Server-rendered pages for catalogues, army lists, the builder and the public validator."""
