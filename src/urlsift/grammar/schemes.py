"""The scheme RFCs that replaced RFC 1738's sections, on RFC 3986's pieces (D29).

One ``Rule`` per ABNF rule, named as its RFC names it, the RFC's line above each. As in
``rfc1738``, each rule starts after the scheme's colon. Schemes not here (wais, prospero, and any
other) are judged by RFC 3986's generic ``URI``.
"""

from __future__ import annotations

from ._bnf import Chars, Rule, alt, opt, rep, seq
from ._chars import ALPHA, DIGIT
from .rfc3986 import (
    SUB_DELIMS,
    UNRESERVED,
    IP_literal,
    IPv4address,
    authority,
    host,
    ichars,
    path_abempty,
    path_absolute,
    port,
    query,
)

# --- HTTP and HTTPS: RFC 9110 section 4.2 ---------------------------------------------------------

# 4.2.1: "A sender MUST NOT generate an "http" URI with an empty host identifier. A recipient that
# processes such a URI reference MUST reject it as invalid."
# 4.2.4: "A sender MUST NOT generate the userinfo subcomponent (and its "@" delimiter) when an
# "http" or "https" URI reference is generated within a message ... [a recipient SHOULD] treat its
# presence as an error": so the authority here is host [ ":" port ], and the host is not empty.
reg_name_nz = Rule("reg-name", ichars(UNRESERVED + SUB_DELIMS, at_least=1), describe="a host name")
uri_host = Rule(
    "uri-host",
    alt(IP_literal, IPv4address, reg_name_nz),
    group="host",
    describe="the host",
    missing="the host is missing: RFC 9110 4.2.1 rejects an empty host",
)
http_authority = Rule(
    "authority",
    seq(uri_host, opt(":", port)),
    group="authority",
    describe="the authority (user, host and port)",
)
# http-URI = "http" "://" authority path-abempty [ "?" query ]
# https-URI = "https" "://" authority path-abempty [ "?" query ]
http_URI = Rule(
    "http-URI",
    seq("//", http_authority, path_abempty, opt("?", query)),
    at_sign="http and https URIs take no user information (RFC 9110 4.2.4): '@' before the host",
)

# --- FTP: RFC 1738 3.2 (no later RFC), over RFC 3986's authority and path -------------------------

# ftpurl = "ftp://" login [ "/" fpath [ ";type=" ftptype ]]: the login is RFC 3986's userinfo, the
# path its path-abempty (whose segments hold ";" and "=", so ";type=a" ends the last one; the
# profile reads the typecode off it), and the query RFC 3986 allows every hierarchical URI.
ftp_URI = Rule("ftpurl", seq("//", authority, path_abempty, opt("?", query)))

# --- MAILTO: RFC 6068 section 2 ------------------------------------------------------------------

# qchar       = unreserved / pct-encoded / some-delims
# some-delims = "!" / "$" / "'" / "(" / ")" / "*" / "+" / "," / ";" / ":" / "@"
QCHAR = UNRESERVED + "!$'()*+,;:@"
# In a URI, an addr-spec's atext is what RFC 5322 allows and section 2 does not require encoded:
# "%", the gen-delims but "@" and ":", "&" ";" "=" and what STD 66 forbids ("{" "|" "}" "^" "`"
# "#" "/" "?") come only escaped, and so do quoted strings and domain literals ("%22" "%5B").
ATEXT = ALPHA + DIGIT + "!$'*+-_~"
# dot-atom-text = 1*atext *( "." 1*atext )            (RFC 5322 3.2.3)
dot_atom_text = seq(ichars(ATEXT, at_least=1), rep(".", ichars(ATEXT, at_least=1)))
# local-part  = dot-atom-text / quoted-string
local_part = Rule("local-part", dot_atom_text, describe="the local part of a mail address")
# domain      = dot-atom-text / "[" *dtext-no-obs "]"
domain = Rule("domain", dot_atom_text, describe="the domain of a mail address")
# addr-spec   = local-part "@" domain
addr_spec = Rule("addr-spec", seq(local_part, "@", domain), describe="a mail address")
# to          = addr-spec *("," addr-spec )
to = Rule("to", seq(addr_spec, rep(",", addr_spec)), group="to", describe="the addresses")
# hfname      = *qchar
hfname = Rule("hfname", ichars(QCHAR), describe="a header field name")
# hfvalue     = *qchar
hfvalue = Rule("hfvalue", ichars(QCHAR), describe="a header field value")
# hfield      = hfname "=" hfvalue
hfield = Rule("hfield", seq(hfname, "=", hfvalue), describe="a header field")
# hfields     = "?" hfield *( "&" hfield )
hfields = Rule("hfields", seq("?", hfield, rep("&", hfield)), group="hfields", describe="the header fields")
# mailtoURI   = "mailto:" [ to ] [ hfields ]
mailtoURI = Rule("mailtoURI", seq(opt(to), opt(hfields)))

# --- NEWS and NNTP: RFC 5538 section 2 -----------------------------------------------------------

# server        = "//" authority          (the port defaults to 119)
server = Rule("server", seq("//", authority))
# group         = 1*( group-char / pct-encoded )   group-char = ALPHA / DIGIT / "-" / "+" / "_" / "."
GROUP_CHAR = ALPHA + DIGIT + "-+_."
group = Rule("group", Chars(GROUP_CHAR, escapes=True, min=1), group="group", describe="the newsgroup name")
# newsgroups    = *1( group / wildmat ); a wildmat (RFC 3977 4) is patterns of group characters
# and "*", separated by "," with an optional "!" before each but the first.
wildmat_pattern = Rule(
    "wildmat-pattern", Chars(GROUP_CHAR + "*", escapes=True, min=1), describe="a newsgroup pattern"
)
wildmat = Rule(
    "wildmat", seq(wildmat_pattern, rep(",", opt("!"), wildmat_pattern)), describe="the newsgroups"
)
newsgroups = Rule("newsgroups", wildmat, describe="the newsgroups")
# article       = msg-id without its "<" ">" (RFC 5536 3.1.3): id-left "@" id-right, where "/",
# "?", "#" and "@" must be escaped (section 2.1).
ARTICLE_CHAR = UNRESERVED + SUB_DELIMS + ":"
article = Rule(
    "article",
    seq(ichars(ARTICLE_CHAR, at_least=1), "@", ichars(ARTICLE_CHAR, at_least=1)),
    describe="the message-id",
)
# newsURI       = "news:" [ server "/" ] [ article / newsgroups ]; without a server there must be
# something to name ("news:" alone names nothing).
newsURI = Rule(
    "newsURI",
    alt(seq(server, "/", opt(alt(article, newsgroups))), alt(article, newsgroups)),
)
# article-number = 1*16DIGIT
article_number = Rule(
    "article-number",
    Chars(DIGIT, escapes=False, min=1, max=16),
    group="article_number",
    describe="the article number",
)
# nntpURI       = "nntp:" server "/" group [ "/" article-number ]
nntpURI = Rule("nntpURI", seq(server, "/", group, opt("/", article_number)))

# --- FILE: RFC 8089 section 2 --------------------------------------------------------------------

# file-auth      = "localhost" / host
# auth-path      = [ file-auth ] path-absolute
# "localhost" is a reg-name already, and RFC 3986's host may be empty ("file:///etc"), so
# [ file-auth ] reads as host.
auth_path = Rule("auth-path", seq(host, path_absolute))
# local-path     = path-absolute
local_path = Rule("local-path", path_absolute)
# file-hier-part = ( "//" auth-path ) / local-path
# file-URI       = file-scheme ":" file-hier-part
file_URI = Rule("file-URI", alt(seq("//", auth_path), local_path))

# --- GOPHER: RFC 4266 section 2.1 ----------------------------------------------------------------

# gopherurl = "gopher:" "//" host [ ":" port ] [ "/" [ gtype [ selector
#             [ "%09" search [ "%09" gopher+_string ] ] ] ] ]
# gtype, selector, search and gopher+_string are *xchar as in RFC 1738 (D13): the verdict is that of
# "/" and what a query may hold; the profile splits the parts at "%09".
gopher_path = Rule(
    "gopher-path", ichars(UNRESERVED + SUB_DELIMS + ":@/?"), group="gopher_path", describe="the gopher path"
)
gopherurl = Rule("gopherurl", seq("//", host, opt(":", port), opt("/", gopher_path)))

# --- TELNET: RFC 4248 section 2 ------------------------------------------------------------------

# telnetURL = "telnet:" "//" [ userinfo "@" ] host [ ":" port ] [ "/" ]
telnetURL = Rule("telnetURL", seq("//", authority, opt("/")))


SCHEME_RULES: dict[str, Rule] = {
    "http": http_URI,
    "https": http_URI,
    "ftp": ftp_URI,
    "mailto": mailtoURI,
    "news": newsURI,
    "nntp": nntpURI,
    "file": file_URI,
    "gopher": gopherurl,
    "telnet": telnetURL,
}
"""The schemes with a rule of their own in the modern profile; every other is RFC 3986's URI."""
