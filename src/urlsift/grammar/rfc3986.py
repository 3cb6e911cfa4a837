"""RFC 3986 appendix A (the generic URI syntax), one ``Rule`` per ABNF rule with the RFC's names,
widened by RFC 3987 to IRIs: the modern profile's ground (D29).

Read this beside RFC 3986 appendix A and RFC 3987 section 2.2. The IRI extension is one thing:
every class that holds ``unreserved`` also holds ``ucschar`` (RFC 3987's ``iunreserved``), and
the query also ``iprivate``; the rules keep the URI names (``segment`` for ``isegment``), since a
URI is an IRI with no ``ucschar`` in it.

As in ``rfc1738``, the scheme and its ":" are read by the profile; a rule for a whole URI starts
after the colon. Repetitions are possessive (``_bnf``); where the ABNF needs one to give back, the
rule is written as the finite alternatives it stands for (``IPv6address``), which reads the same.
"""

from __future__ import annotations

from ._bnf import Chars, Node, Rule, alt, opt, rep, seq
from ._chars import ALPHA, DIGIT, HEX

# --- 2. Characters ------------------------------------------------------------------------------

# unreserved  = ALPHA / DIGIT / "-" / "." / "_" / "~"                           (2.3)
UNRESERVED = ALPHA + DIGIT + "-._~"
# sub-delims  = "!" / "$" / "&" / "'" / "(" / ")" / "*" / "+" / "," / ";" / "="   (2.2)
SUB_DELIMS = "!$&'()*+,;="
# gen-delims  = ":" / "/" / "?" / "#" / "[" / "]" / "@"                         (2.2)
GEN_DELIMS = ":/?#[]@"
# scheme      = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )                       (3.1)
SCHEME_CHARS = ALPHA + DIGIT + "+-."
# pchar       = unreserved / pct-encoded / sub-delims / ":" / "@"               (3.3)
PCHAR = UNRESERVED + SUB_DELIMS + ":@"

# RFC 3987 2.2: ucschar = %xA0-D7FF / %xF900-FDCF / %xFDF0-FFEF / %x10000-1FFFD / ... / %xE1000-EFFFD
# (each plane less its last two code points); iprivate = %xE000-F8FF / %xF0000-FFFFD / %x100000-10FFFD
UCSCHAR = (
    (0xA0, 0xD7FF),
    (0xF900, 0xFDCF),
    (0xFDF0, 0xFFEF),
    *((plane << 16, (plane << 16) + 0xFFFD) for plane in range(1, 14)),
    (0xE1000, 0xEFFFD),
)
IPRIVATE = ((0xE000, 0xF8FF), (0xF0000, 0xFFFFD), (0x100000, 0x10FFFD))


def ichars(members: str, at_least: int = 0, wide: tuple[tuple[int, int], ...] = UCSCHAR) -> Chars:
    """``*( members / pct-encoded )`` with RFC 3987's ``ucschar`` wherever ``unreserved`` is."""
    return Chars(members, escapes=True, min=at_least, wide=wide)


def times(count: int, *items: Node | str) -> Node:
    """``count( items )``: the ABNF's exact repetition."""
    return seq(*(item for _ in range(count) for item in items))


# --- 3.1 Scheme ---------------------------------------------------------------------------------

scheme = Rule(
    "scheme",
    seq(Chars(ALPHA, escapes=False, min=1, max=1), Chars(SCHEME_CHARS, escapes=False)),
    describe="the scheme name",
)

# --- 3.2 Authority ------------------------------------------------------------------------------

# userinfo    = *( unreserved / pct-encoded / sub-delims / ":" )
userinfo = Rule(
    "userinfo", ichars(UNRESERVED + SUB_DELIMS + ":"), group="userinfo", describe="the user information"
)

# dec-octet   = DIGIT / %x31-39 DIGIT / "1" 2DIGIT / "2" %x30-34 DIGIT / "25" %x30-35
# Longest first: the regex takes the first alternative that lets the rest match.
digit = Chars(DIGIT, escapes=False, min=1, max=1)
dec_octet = Rule(
    "dec-octet",
    alt(
        seq("25", Chars("012345", escapes=False, min=1, max=1)),
        seq("2", Chars("01234", escapes=False, min=1, max=1), digit),
        seq("1", digit, digit),
        seq(Chars("123456789", escapes=False, min=1, max=1), digit),
        digit,
    ),
    describe="an IPv4 address",
)
# IPv4address = dec-octet "." dec-octet "." dec-octet "." dec-octet
IPv4address = Rule(
    "IPv4address", seq(dec_octet, ".", dec_octet, ".", dec_octet, ".", dec_octet), describe="an IPv4 address"
)

# h16         = 1*4HEXDIG
h16 = Rule("h16", Chars(HEX, escapes=False, min=1, max=4))
# ls32        = ( h16 ":" h16 ) / IPv4address
ls32 = Rule("ls32", alt(seq(h16, ":", h16), IPv4address))


def _h16s(most: int) -> Node:
    """``[ *most( h16 ":" ) h16 ]``, as the alternatives it stands for, longest first."""
    return opt(alt(*(seq(times(n, h16, ":"), h16) for n in range(most, -1, -1))))


# IPv6address =                            6( h16 ":" ) ls32
#             /                       "::" 5( h16 ":" ) ls32
#             / [               h16 ] "::" 4( h16 ":" ) ls32
#             / [ *1( h16 ":" ) h16 ] "::" 3( h16 ":" ) ls32
#             / [ *2( h16 ":" ) h16 ] "::" 2( h16 ":" ) ls32
#             / [ *3( h16 ":" ) h16 ] "::"    h16 ":"   ls32
#             / [ *4( h16 ":" ) h16 ] "::"              ls32
#             / [ *5( h16 ":" ) h16 ] "::"              h16
#             / [ *6( h16 ":" ) h16 ] "::"
IPv6address = Rule(
    "IPv6address",
    alt(
        seq(times(6, h16, ":"), ls32),
        seq("::", times(5, h16, ":"), ls32),
        seq(_h16s(0), "::", times(4, h16, ":"), ls32),
        seq(_h16s(1), "::", times(3, h16, ":"), ls32),
        seq(_h16s(2), "::", times(2, h16, ":"), ls32),
        seq(_h16s(3), "::", h16, ":", ls32),
        seq(_h16s(4), "::", ls32),
        seq(_h16s(5), "::", h16),
        seq(_h16s(6), "::"),
    ),
)
# IPvFuture   = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )   ("v" in any case: ABNF)
IPvFuture = Rule(
    "IPvFuture",
    seq(
        Chars("vV", escapes=False, min=1, max=1),
        Chars(HEX, escapes=False, min=1),
        ".",
        Chars(UNRESERVED + SUB_DELIMS + ":", escapes=False, min=1),
    ),
)
# IP-literal  = "[" ( IPv6address / IPvFuture  ) "]"
IP_literal = Rule("IP-literal", seq("[", alt(IPv6address, IPvFuture), "]"), until_read="host")
# reg-name    = *( unreserved / pct-encoded / sub-delims )
# May be empty ("file:///"); a trailing dot and "_" are legal (D29).
reg_name = Rule("reg-name", ichars(UNRESERVED + SUB_DELIMS), describe="a host name")
# host        = IP-literal / IPv4address / reg-name
host = Rule("host", alt(IP_literal, IPv4address, reg_name), group="host", describe="the host")
# port        = *DIGIT      (may be empty: "http://host:/" is "http://host/", 6.2.3)
port = Rule(
    "port",
    Chars(DIGIT, escapes=False),
    group="port",
    describe="the port",
    refused="'{char}' cannot be in a port: a port is decimal digits",
)
# authority   = [ userinfo "@" ] host [ ":" port ]
authority = Rule(
    "authority",
    seq(opt(userinfo, "@"), host, opt(":", port)),
    group="authority",
    describe="the authority (user, host and port)",
)

# --- 3.3 Path -----------------------------------------------------------------------------------

# segment     = *pchar
segment = Rule("segment", ichars(PCHAR), describe="a path segment")
# segment-nz  = 1*pchar
segment_nz = Rule("segment-nz", ichars(PCHAR, at_least=1), describe="a path segment")
# path-abempty  = *( "/" segment )
path_abempty = Rule("path-abempty", rep("/", segment), describe="the path")
# path-absolute = "/" [ segment-nz *( "/" segment ) ]
path_absolute = Rule("path-absolute", seq("/", opt(segment_nz, rep("/", segment))), describe="the path")
# path-rootless = segment-nz *( "/" segment )
path_rootless = Rule("path-rootless", seq(segment_nz, rep("/", segment)), describe="the path")
# path-empty    = 0<pchar>
path_empty = Rule("path-empty", seq())

# --- 3.4 Query, 3.5 Fragment --------------------------------------------------------------------

# query       = *( pchar / "/" / "?" )            (RFC 3987: iquery adds iprivate)
query = Rule("query", ichars(PCHAR + "/?", wide=UCSCHAR + IPRIVATE), group="query", describe="the query")
# fragment    = *( pchar / "/" / "?" )
fragment = Rule("fragment", ichars(PCHAR + "/?"), group="fragment", describe="the fragment")

# --- 3. Syntax Components -------------------------------------------------------------------------

# hier-part   = "//" authority path-abempty / path-absolute / path-rootless / path-empty
# The parts name no path: it is what follows the authority in the hier-part.
hier_part = Rule(
    "hier-part",
    alt(seq("//", authority, path_abempty), path_absolute, path_rootless, path_empty),
    group="hier_part",
    describe="the path",
)
# URI         = scheme ":" hier-part [ "?" query ] [ "#" fragment ]
# The fragment is split off at the first "#" before any rule runs (D4), as in the strict profile.
URI = Rule("URI", seq(hier_part, opt("?", query)))
