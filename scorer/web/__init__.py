"""The web server's edges: compression, crash notices, page sessions."""
