"""What every request goes through, pages and API alike: security headers (``security``),
rate limits (``limits``), errors (``errors``), compression (``compression``), static
files (``assets``), URL converters (``converters``), and what stands in front of the app
(``front``: the request log, the followers' polls, a proxy's headers, ``/readyz``)."""
