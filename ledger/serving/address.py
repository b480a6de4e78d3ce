"""Where ``marriage-ledger serve`` listens, and the address the phones open.

``plan_listening(host, port, public_url)``:

- no host (``make run``, the table): the LAN address and 127.0.0.1, so the phones on
  the same Wi-Fi and this computer's own browser both reach it, and nothing else
  (not every interface: a VPN's, say); the phones' address is the LAN one;
- a loopback host (``127.0.0.1``, ``localhost``, ``::1``): this computer only, and
  links follow the request (behind a proxy, its headers);
- ``0.0.0.0`` or ``::``: every interface; the phones' address is the LAN one;
- any other host: there only, and that is the phones' address.

``LEDGER_PUBLIC_URL`` (``PUBLIC_URL``), when set, is the phones' address in every case.
"""

from __future__ import annotations

import ipaddress
import socket
from typing import TextIO

from msgspec import Struct

#: A documentation address (RFC 5737), never a real host: "connecting" a UDP socket
#: to it sends nothing and only asks the system which address it would send from.
ROUTE_PROBE = ("198.51.100.1", 9)
LOOPBACK = "127.0.0.1"


class Listening(Struct, frozen=True):
    listen: tuple[str, ...]  # waitress's "host:port" entries
    public_url: str | None  # the address of the ledger for links and the QR code
    local_url: str | None  # this computer's own address, when it is served there too
    #: ``--host`` chose loopback (behind a proxy, say): the computer may well have a
    #: network address, so the banner must not say it has none.
    loopback_chosen: bool = False


def lan_address() -> str | None:
    """This computer's IPv4 address on its network, or None when it has only loopback."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(ROUTE_PROBE)
            found: str = probe.getsockname()[0]
        if not ipaddress.ip_address(found).is_loopback:
            return found
    except OSError:
        pass  # no route out: try the host name's addresses
    try:
        names = socket.gethostbyname_ex(socket.gethostname())[2]
    except OSError:
        return None
    return next((a for a in names if not ipaddress.ip_address(a).is_loopback), None)


def _ip(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return None


def _hostport(host: str, port: int) -> str:
    ip = _ip(host)
    return f"[{ip}]:{port}" if ip is not None and ip.version == 6 else f"{host}:{port}"


def url_of(host: str, port: int) -> str:
    return f"http://{_hostport(host, port)}"


def plan_listening(host: str | None, port: int, public_url: str | None) -> Listening:
    if host is None:
        lan = lan_address()
        local = url_of(LOOPBACK, port)
        if lan is None:
            return Listening((_hostport(LOOPBACK, port),), public_url, local)
        return Listening(
            (_hostport(lan, port), _hostport(LOOPBACK, port)),
            public_url or url_of(lan, port),
            local,
        )
    ip = _ip(host)
    listen = (_hostport(host, port),)
    if host == "localhost" or (ip is not None and ip.is_loopback):
        return Listening(listen, public_url, url_of(host, port), loopback_chosen=True)
    if ip is not None and ip.is_unspecified:
        lan = lan_address()
        shown = public_url or (url_of(lan, port) if lan else None)
        return Listening(listen, shown, url_of(LOOPBACK if ip.version == 4 else "::1", port))
    return Listening(listen, public_url or url_of(host, port), None)


def print_banner(plan: Listening, threads: int, connections: int, out: TextIO) -> None:
    """What the person who started the server needs: the addresses and a QR code."""
    print(
        f"Marriage ledger: serving with waitress ({threads} threads, "
        f"up to {connections} connections).",
        file=out,
    )
    if plan.public_url:
        print(f"Phones at the table open:  {plan.public_url}/", file=out)
    elif plan.loopback_chosen:
        print(
            f"Only this computer can open it: it listens on {plan.listen[0]} alone, as --host"
            " asked (a proxy in front serves the others; LEDGER_PUBLIC_URL sets the address"
            " in links and QR codes).",
            file=out,
        )
    else:
        print("Only this computer can open it (no network address to offer phones).", file=out)
    if plan.local_url:
        print(f"On this computer:          {plan.local_url}/", file=out)
    if plan.public_url:
        print_qr(plan.public_url + "/", out)
    print("Stop it with Ctrl+C.", file=out, flush=True)


def print_qr(url: str, out: TextIO) -> None:
    """The QR code of ``url`` in text (half blocks where the terminal can show them)."""
    import segno  # only for a public URL's QR code: not loaded before serving otherwise

    code = segno.make(url, error="m")
    try:
        "▀▄█".encode(getattr(out, "encoding", None) or "utf-8")
        compact = True
    except (UnicodeEncodeError, LookupError):
        compact = False
    code.terminal(out=out, compact=compact)
