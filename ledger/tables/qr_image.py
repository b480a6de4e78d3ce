"""Reading a player's wallet QR code out of an uploaded screenshot (PNG or JPEG): only
the text the code says is kept; the image never is.

The image is bounded before it is decoded: the body's size, then the dimensions its
header states (a PNG of a few kilobytes may claim a gigapixel), with Pillow's own
decompression-bomb guard set to the same bound. The code is read by zxing-cpp
(ZXing's C++ port: finds codes turned and small in a photo or a screenshot). Both are
imported by the first image read, not by the server's start (a tenth of a second
that nearly every process would spend for nothing).
"""

from __future__ import annotations

import io

from ledger.engine import FieldError, Invalid
from ledger.engine.errors import N_

#: The largest body and image taken (docs/api.md): 413 beyond.
MAX_BYTES = 1024 * 1024
MAX_PIXELS = 16_000_000

_SIGNATURES = (b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff")


class TooLarge(Exception):
    """The body or the image is over the bounds: 413, nothing read."""


def read_qr(data: bytes) -> str:
    """The text of the one QR code in ``data`` (a PNG or JPEG image). TooLarge over
    MAX_BYTES or MAX_PIXELS; Invalid on field ``image`` for what is not a PNG or JPEG,
    holds no code, or holds several."""
    if len(data) > MAX_BYTES:
        raise TooLarge
    if not data.startswith(_SIGNATURES):
        raise _invalid(N_("This is not a PNG or JPEG image: send a screenshot of your QR code."))
    import zxingcpp
    from PIL import Image, UnidentifiedImageError

    Image.MAX_IMAGE_PIXELS = MAX_PIXELS  # Pillow refuses (or warns of) any larger image
    try:
        with Image.open(io.BytesIO(data), formats=("PNG", "JPEG")) as image:
            if image.width * image.height > MAX_PIXELS:
                raise TooLarge
            image.draft("L", image.size)  # a JPEG is decoded straight to grey
            grey = image.convert("L")
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise TooLarge from None
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError):
        raise _invalid(N_("This image cannot be read: send a PNG or JPEG screenshot.")) from None
    # Plain: the text as the code holds it (zxing-cpp's default would spell a control
    # character "<BEL>", hiding it from the check of the text).
    found = [
        r.text
        for r in zxingcpp.read_barcodes(
            grey,
            formats=zxingcpp.BarcodeFormats(zxingcpp.BarcodeFormat.QRCode),
            text_mode=zxingcpp.TextMode.Plain,
        )
    ]
    if not found:
        raise _invalid(
            N_(
                "No QR code could be read in this image: send a sharp screenshot of your "
                "wallet's QR code alone."
            )
        )
    if len(found) > 1:
        raise _invalid(
            N_("This image holds several QR codes: send a screenshot of your own code alone.")
        )
    return found[0]


def _invalid(message: str) -> Invalid:
    """``message`` on field ``image`` (marked N_ where it is written: the catalogue's
    message id, shown in the page's language)."""
    return Invalid([FieldError("image", message)])
