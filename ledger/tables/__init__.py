"""Tables: the same people, many nights (a service beside the match service)."""
