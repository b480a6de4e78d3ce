"""What every request goes through, pages and API alike: security headers (``security``),
rate limits (``limits``), errors (``errors``), compression (``compression``), static
files (``assets``) and URL converters (``converters``)."""
