"""Which ``Host`` and ``Origin`` values the browser app answers, by what an address is
rather than how it is spelled (against DNS rebinding and pages of other sites).

**DNS rebinding**: a page of another site (``http://evil.example:8000``) has its own
name resolve to this computer's address, so the person's browser sends its requests
here with ``Host: evil.example:8000`` and ``Origin: http://evil.example:8000``, which
agree with each other. So the ``Host`` must name this server: :class:`HostPolicy`.

- A server bound to a loopback address (any of ``127.0.0.0/8``, ``::1``, IPv4-mapped
  ``::ffff:127.x.y.z``, or a name that resolves only to such addresses, e.g.
  ``localhost``) answers every loopback address in any spelling (``127.0.0.2``,
  ``[::1]``, ``[0:0:0:0:0:0:0:1]``, ``127.1``) and the loopback names ``localhost`` and
  ``*.localhost`` (RFC 6761, section 6.3: browsers resolve them to loopback
  themselves), in any letter case and with or without the final dot, plus the name it
  was bound by.
- A server bound to every address (``0.0.0.0``, ``::``) answers the loopback names and
  addresses, and the public host names or addresses that its operator names
  (``hexgames serve --public-host NAME``, repeatable), and nothing else: the operator
  must name them (:func:`policy_for_bind` refuses to start without).
- A server bound to one other address (or name) answers that address (or name and the
  addresses it resolves to) and the named public hosts.

Names in a ``Host`` header are never resolved (resolving one is what rebinding
exploits): only addresses written as addresses are compared by value.

**Origin**: a request's ``Origin`` (sent by browsers with every ``POST``/``DELETE`` and
WebSocket) is this server's own page when its host and port are those of the ``Host``
header, compared by value (:func:`same_origin`).
"""

from __future__ import annotations

import ipaddress
import re
import socket
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

Address = ipaddress.IPv4Address | ipaddress.IPv6Address

#: The names every loopback server answers (and any name ending in ``.localhost``).
LOOPBACK_NAMES = frozenset({"localhost"})
_LABEL = re.compile(r"(?!-)[a-z0-9-]{1,63}(?<!-)")
_HOST_PORT = re.compile(r"(?P<host>\[[^\]]*\]|[^:\[\]]*)(?::(?P<port>[0-9]{1,5}))?")


class HostError(ValueError):
    """A ``--host`` or ``--public-host`` value that is no host name or address, or a
    server on every address whose operator named no public host."""


def parse_address(text: str) -> Address | None:
    """``text`` as an IP address, in any spelling a socket accepts (``127.0.0.1``,
    ``127.1``, ``0x7f.1``, ``::1``, ``[::1]``, ``0:0::1``), IPv4-mapped IPv6 addresses
    as IPv4; ``None`` for text that is no address (a name)."""
    text = text.strip()
    if text.startswith("[") and text.endswith("]"):
        text = text[1:-1]
    text = text.partition("%")[0]  # an IPv6 zone (fe80::1%eth0)
    try:
        address: Address = ipaddress.ip_address(text)
    except ValueError:
        if not text or not re.fullmatch(r"[0-9a-fA-FxX.]+", text):
            return None
        try:  # the shorthand forms of IPv4 that inet_aton reads (127.1, 0x7f000001)
            address = ipaddress.IPv4Address(socket.inet_aton(text))
        except (OSError, ValueError):
            return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def normal_name(text: str) -> str | None:
    """A host name in lower case without its final dot, or ``None`` if ``text`` is no
    host name (labels of letters, digits and inner hyphens, 253 characters at most)."""
    name = text.strip().lower()
    if name.endswith("."):
        name = name[:-1]
    if not name or len(name) > 253 or not all(_LABEL.fullmatch(p) for p in name.split(".")):
        return None
    return name


def is_loopback_name(name: str) -> bool:
    """Whether a normalised name is ``localhost`` or under ``.localhost``."""
    return name in LOOPBACK_NAMES or name.endswith(".localhost")


def split_host(value: str) -> tuple[Address | str, int | None] | None:
    """A ``Host`` header (``name``, ``name:port``, ``1.2.3.4:80``, ``[::1]:8000``) as
    (address or normalised name, port or ``None``); ``None`` when it is malformed."""
    match = _HOST_PORT.fullmatch(value.strip())
    if match is None:
        return None
    host = match.group("host")
    port = int(match.group("port")) if match.group("port") else None
    if port is not None and not 0 < port < 65536:
        return None
    address = parse_address(host)
    if address is not None:
        return address, port
    if host.startswith("["):
        return None
    name = normal_name(host)
    return None if name is None else (name, port)


@dataclass(frozen=True)
class HostPolicy:
    """The ``Host`` values a server answers.

    Attributes:
        loopback: answer every loopback address and the loopback names.
        names: more names answered (normalised: lower case, no final dot).
        addresses: more addresses answered (IPv4-mapped IPv6 as IPv4).
    """

    loopback: bool = False
    names: frozenset[str] = frozenset()
    addresses: frozenset[Address] = frozenset()

    @classmethod
    def of(cls, *, loopback: bool = False, hosts: Iterable[str] = ()) -> HostPolicy:
        """A policy answering the loopback hosts (if ``loopback``) and ``hosts``, each a
        name or an address.

        Raises:
            HostError: for a value that is neither.
        """
        names: set[str] = set()
        addresses: set[Address] = set()
        for host in hosts:
            address = parse_address(host)
            if address is not None:
                addresses.add(address)
                continue
            name = normal_name(host)
            if name is None:
                raise HostError(f"{host[:60]!r} is not a host name or address")
            names.add(name)
        return cls(loopback, frozenset(names), frozenset(addresses))

    def allows_host(self, host: Address | str) -> bool:
        """Whether a parsed host (:func:`split_host`) is this server's."""
        if isinstance(host, str):
            return host in self.names or (self.loopback and is_loopback_name(host))
        return host in self.addresses or (self.loopback and host.is_loopback)

    def allows(self, header: str | None) -> bool:
        """Whether a ``Host`` header names this server (a missing one does not)."""
        if header is None:
            return False
        parsed = split_host(header)
        return parsed is not None and self.allows_host(parsed[0])

    def describe(self) -> str:
        """The hosts answered, for messages: ``loopback addresses and localhost,
        games.example.org``."""
        parts = ["loopback addresses and localhost"] if self.loopback else []
        parts += sorted(self.names)
        parts += sorted(f"[{a}]" if a.version == 6 else str(a) for a in self.addresses)
        return ", ".join(parts) or "no host"


def _resolve(host: str) -> set[Address]:
    """The addresses a ``--host`` name resolves to (empty if it does not resolve)."""
    try:
        found = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
    except (OSError, UnicodeError):
        return set()
    addresses = set()
    for *_, sockaddr in found:
        address = parse_address(str(sockaddr[0]))
        if address is not None:
            addresses.add(address)
    return addresses


def policy_for_bind(host: str, public_hosts: Iterable[str] = ()) -> HostPolicy:
    """The policy of a server listening on ``host`` (``--host``), answering also the
    ``public_hosts`` (``--public-host``), as the module's documentation says.

    Raises:
        HostError: for a public host that is no name or address, or a server on every
            address (``0.0.0.0``, ``::``) without a public host.
    """
    public = list(public_hosts)
    extra = HostPolicy.of(hosts=public)
    address = parse_address(host) if host.strip() else ipaddress.IPv4Address(0)
    if address is not None:
        bound = {address}
        name = None
    else:
        name = normal_name(host)
        bound = _resolve(host) if name is not None else set()
    if address is not None and address.is_unspecified:
        if not public:
            raise HostError(
                f"--host {host} listens on every network: name the host people open the "
                "app at with --public-host NAME (repeatable; a name or an address), so "
                "that pages of other sites cannot reach it through names of their own")
        return HostPolicy(True, extra.names, extra.addresses)
    loopback = bool(bound) and all(a.is_loopback for a in bound)
    names = set(extra.names) | ({name} if name is not None else set())
    addresses = set(extra.addresses) | (set() if loopback else bound)
    return HostPolicy(loopback, frozenset(names), frozenset(addresses))


_DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}


def same_origin(origin: str, host_header: str | None,
                policy: HostPolicy | None = None) -> bool:
    """Whether a request's ``Origin`` is this server's own page: a ``http`` or
    ``https`` origin whose host and port are those of the ``Host`` header, compared by
    value (``http://LOCALHOST:8000`` is ``localhost:8000``, ``http://[::1]`` is
    ``[0:0::1]:80``), and a host the ``policy`` answers. ``null`` (a sandboxed frame, a
    file) is no origin of this server."""
    if host_header is None:
        return False
    try:
        parts = urlsplit(origin.strip())
        origin_port = parts.port
    except ValueError:
        return False
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https") or parts.hostname is None:
        return False
    netloc_host = parts.netloc.rpartition("@")[2]
    netloc_host = netloc_host if netloc_host.startswith("[") else netloc_host.split(":")[0]
    host = split_host(netloc_host)
    served = split_host(host_header)
    if host is None or served is None:
        return False
    if policy is not None and not policy.allows_host(host[0]):
        return False
    default = _DEFAULT_PORTS[scheme]
    port = origin_port if origin_port is not None else default
    served_port = served[1] if served[1] is not None else default
    return host[0] == served[0] and port == served_port
