"""RFC 1738 section 5, one ``Rule`` per production, in the RFC's order and with its names.

Read this beside section 5: each rule has its BNF line above it and the decision of
``docs/decisions.md`` that governs it (D1-D30). ``group`` names a part the profile reports.

The scheme and its ":" are read by the profile, not here (D2: any case of the scheme is accepted,
a case-insensitive literal ``"http://"`` would also fold the KELVIN SIGN); so each scheme's rule
starts at the character after the colon, and the comment keeps the RFC's full line.
Pure data: nothing here knows that another profile exists.
"""

from __future__ import annotations

from ._bnf import Chars, Label, Lit, Rule, alt, opt, rep, seq
from ._chars import ALPHA, ALPHADIGIT, DIGIT, RESERVED, SCHEME, UNRESERVED


def uchars(also: str, at_least: int = 0) -> Chars:
    """``*[ uchar | also... ]``: uchar = unreserved | escape."""
    return Chars(UNRESERVED + also, escapes=True, min=at_least)


def xchars(at_least: int = 0) -> Chars:
    """``*xchar``: xchar = unreserved | reserved | escape."""
    return Chars(UNRESERVED + RESERVED, escapes=True, min=at_least)


# scheme = 1*[ lowalpha | digit | "+" | "-" | "." ]
# D2: upper case accepted (reported lower-cased); digit-first and punctuation-only schemes are
# accepted as the BNF says; "_", space and the empty scheme are not.
scheme = Rule("scheme", Chars(SCHEME, escapes=False, min=1), describe="the scheme name")

# digits = 1*digit
digits = Rule("digits", Chars(DIGIT, escapes=False, min=1), describe="a number")

# --- URL schemeparts for ip based protocols --------------------------------------------------

# D7: a host is judged whole, in these words (``strict._host_problem`` picks which).
LABEL_ENDS = "a host name label must end with a letter or digit"
# domainlabel = alphadigit | alphadigit *[ alphadigit | "-" ] alphadigit
domainlabel = Rule(
    "domainlabel",
    Label(ALPHADIGIT),
    describe="a host name",
    missing="a host name may not have an empty label",
    refused="a host name label must start with a letter or digit",
)
# toplabel = alpha | alpha *[ alphadigit | "-" ] alphadigit
# D7: "The rightmost domain label will never start with a digit" (3.1); no length limit in the
# BNF (a label over 63 characters is a warning, not an error).
toplabel = Rule(
    "toplabel",
    Label(ALPHA),
    describe="a host name",
    refused=(
        "the last label of a host name must start with a letter (section 3.1); "
        "a host number is four groups of digits"
    ),
)
# hostname = *[ domainlabel "." ] toplabel
# D7: no empty label, no trailing dot (RFC 2396 added one; that is the modern profile's, D29).
hostname = Rule(
    "hostname",
    seq(rep(domainlabel, "."), toplabel),
    describe="a host name",
    missing="a host name may not end with '.' (D7)",
)
# hostnumber = digits "." digits "." digits "." digits
# D7: exactly four groups, no range (a group over 255 is a warning).
hostnumber = Rule(
    "hostnumber",
    seq(digits, ".", digits, ".", digits, ".", digits),
    describe="a host number",
    missing="a host number is four groups of digits",
)
# host = hostname | hostnumber
host = Rule("host", alt(hostname, hostnumber), group="host", describe="the host")
# port = digits
# D8: one or more digits, no range check; "host:" with an empty port is invalid.
port = Rule(
    "port",
    Chars(DIGIT, escapes=False, min=1),
    group="port",
    describe="the port",
    missing="a ':' after the host must be followed by a port number (D8)",
    refused="'{char}' cannot be in a port: a port is decimal digits",
)
# hostport = host [ ":" port ]
hostport = Rule("hostport", seq(host, opt(":", port)), describe="the host and port")
# user = *[ uchar | ";" | "?" | "&" | "=" ]
# D9: an empty user differs from no user; ":" "@" "/" must be encoded inside it.
user = Rule("user", uchars(";?&="), group="user", describe="the user name")
# password = *[ uchar | ";" | "?" | "&" | "=" ]
# D9: ":pw@" is an empty user with a password; an empty password differs from none.
password = Rule("password", uchars(";?&="), group="password", describe="the password")
# login = [ user [ ":" password ] "@" ] hostport
login = Rule(
    "login", seq(opt(user, opt(":", password), "@"), hostport), describe="the user, password and host"
)
# urlpath = *xchar ; depends on protocol see section 3.1
urlpath = Rule("urlpath", xchars(), group="urlpath", describe="the path")
# ip-schemepart = "//" login [ "/" urlpath ]
ip_schemepart = Rule("ip-schemepart", seq("//", login, opt("/", urlpath)))

# --- the generic form --------------------------------------------------------------------------

# genericurl = scheme ":" schemepart
# schemepart = *xchar | ip-schemepart
# D1/A2: ip-schemepart is a subset of *xchar, so the verdict is *xchar's; ip-schemepart only says
# how to decompose "//login/urlpath" into parts (the profile tries it after a valid verdict).
schemepart = Rule("schemepart", xchars(), group="schemepart", describe="the scheme-specific part")
genericurl = Rule("genericurl", schemepart)

# --- FTP (see also RFC959) ---------------------------------------------------------------------

# fsegment = *[ uchar | "?" | ":" | "@" | "&" | "=" ]
# D11: "?" ":" "@" "&" "=" are legal in ftp segments (unlike RFC 2396-based tools); empty ones too.
fsegment = Rule("fsegment", uchars("?:@&="), describe="a path segment")
# fpath = fsegment *[ "/" fsegment ]
fpath = Rule("fpath", seq(fsegment, rep("/", fsegment)), group="fpath", describe="the path")
# ftptype = "A" | "I" | "D" | "a" | "i" | "d"
ftptype = Rule(
    "ftptype",
    Chars("AIDaid", escapes=False, min=1, max=1),
    group="ftptype",
    describe="the typecode",
    refused="the typecode must be one of A, I, D, a, i, d",
)
# ftpurl = "ftp://" login [ "/" fpath [ ";type=" ftptype ]]
# D3: the literal ";type=" is lower case; D11: only after "/" fpath, only at the end.
# A ";" that does not start ";type=" is one the last fsegment may not hold (3.2.2: "the characters
# "/" and ";" are reserved and must be encoded").
type_literal = Lit(
    ";type=",
    other_case="the typecode literal must be ';type=' in lower case",
    stray="';' is reserved in an ftp path and must be encoded as %3B; only ';type=' may end the path (D11)",
)
ftpurl = Rule("ftpurl", seq("//", login, opt("/", fpath, opt(type_literal, ftptype))))

# --- FILE --------------------------------------------------------------------------------------

# fileurl = "file://" [ host | "localhost" ] "/" fpath
# D12/A6: "localhost" is a hostname already (kept for the reader); the "/" is mandatory; no port,
# no login, no typecode; the empty host is allowed ("file:///").
fileurl = Rule(
    "fileurl",
    seq("//", opt(alt(host, "localhost")), "/", fpath),
    at_sign="file URLs take no user name or password (section 5): '@' before the host",
)

# --- HTTP --------------------------------------------------------------------------------------

# hsegment = *[ uchar | ";" | ":" | "@" | "&" | "=" ]
hsegment = Rule("hsegment", uchars(";:@&="), describe="a path segment")
# hpath = hsegment *[ "/" hsegment ]
hpath = Rule("hpath", seq(hsegment, rep("/", hsegment)), group="path", describe="the path")
# search = *[ uchar | ";" | ":" | "@" | "&" | "=" ]
# D10/A5: neither "/" nor "?" is allowed in a search; an empty search is ("/?").
search = Rule("search", uchars(";:@&="), group="search", describe="the search part")
# httpurl = "http://" hostport [ "/" hpath [ "?" search ]]
# D10: no login (3.3 "No user name or password is allowed"); a search only after "/" hpath.
httpurl = Rule(
    "httpurl",
    seq("//", hostport, opt("/", hpath, opt("?", search))),
    at_sign="http URLs take no user name or password (section 3.3): '@' before the host",
)

# --- GOPHER (see also RFC1436) -----------------------------------------------------------------

# gtype = xchar
gtype = Rule("gtype", Chars(UNRESERVED + RESERVED, escapes=True, min=1, max=1), describe="the gopher type")
# selector = *xchar
selector = Rule("selector", xchars(), describe="the gopher selector")
# gopher+_string = *xchar
gopher_plus_string = Rule("gopher+_string", xchars(), describe="the gopher+ string")
# gopherurl = "gopher://" hostport [ "/" [ gtype [ selector
#             [ "%09" search [ "%09" gopher+_string ] ] ] ] ]
# Erratum 5118: the "/" is a quoted literal. D13/A8: selector = *xchar reads every escape, so the
# verdict is that of "/" *xchar; the profile splits gtype/selector/search/gopher+ at "%09".
# "gopher-path" is 3.4.1's name for what follows the "/".
tab = Lit("%09", whole=True)  # D5: an escape is read whole or not at all
gopher_path = Rule(
    "gopher-path",
    opt(gtype, opt(selector, opt(tab, search, opt(tab, gopher_plus_string)))),
    group="gopher_path",
    describe="the gopher path",
)
gopherurl = Rule(
    "gopherurl",
    seq("//", hostport, opt("/", gopher_path)),
    at_sign="gopher URLs take no user name or password (section 5): '@' before the host",
)

# --- MAILTO (see also RFC822) ------------------------------------------------------------------

# encoded822addr = 1*xchar ; further defined in RFC822
# D14: the verdict is the BNF's (so "mailto:" alone is invalid); not being an RFC 822 addr-spec
# is a warning.
encoded822addr = Rule("encoded822addr", xchars(at_least=1), group="address", describe="the mail address")
# mailtourl = "mailto:" encoded822addr
mailtourl = Rule("mailtourl", encoded822addr)

# --- NEWS (see also RFC1036) -------------------------------------------------------------------

# group = alpha *[ alpha | digit | "-" | "." | "+" | "_" ]
group = Rule(
    "group",
    seq(Chars(ALPHA, escapes=False, min=1, max=1), Chars(ALPHADIGIT + "-.+_", escapes=False)),
    group="group",
    describe="the newsgroup name",
)
# article = 1*[ uchar | ";" | "/" | "?" | ":" | "&" | "=" ] "@" host
# D15: the part after "@" is a host (no domain literal, no "<" ">").
article = Rule(
    "article", seq(uchars(";/?:&=", at_least=1), "@", host), group="article", describe="the message-id"
)
# grouppart = "*" | group | article
# D15: "*" only alone; no "news://" form, no lists, no wildmats (those are RFC 5538's, D29).
grouppart = Rule(
    "grouppart", alt("*", group, article), group="grouppart", describe="the newsgroup name or message-id"
)
# newsurl = "news:" grouppart
newsurl = Rule("newsurl", grouppart)

# --- NNTP (see also RFC977) --------------------------------------------------------------------

# nntpurl = "nntp://" hostport "/" group [ "/" digits ]
# D16: the group is required; the article number is digits and ends the URL.
article_number = Rule(
    "digits", Chars(DIGIT, escapes=False, min=1), group="article_number", describe="a number"
)
nntpurl = Rule(
    "nntpurl",
    seq("//", hostport, "/", group, opt("/", article_number)),
    at_sign="nntp URLs take no user name or password (section 5): '@' before the host",
)

# --- TELNET ------------------------------------------------------------------------------------

# telneturl = "telnet://" login [ "/" ]
telneturl = Rule("telneturl", seq("//", login, opt("/")))

# --- WAIS (see also RFC1625) -------------------------------------------------------------------

# database = *uchar
# D17: may be empty; "/" and "?" cannot be in it.
database = Rule("database", uchars(""), group="database", describe="the WAIS database name")
# wtype = *uchar
wtype = Rule("wtype", uchars(""), group="wtype", describe="the WAIS document type")
# wpath = *uchar
wpath = Rule("wpath", uchars(""), group="wpath", describe="the WAIS document path")
# waisdatabase = "wais://" hostport "/" database
waisdatabase = Rule("waisdatabase", seq("//", hostport, "/", database))
# waisindex = "wais://" hostport "/" database "?" search
waisindex = Rule("waisindex", seq("//", hostport, "/", database, "?", search))
# waisdoc = "wais://" hostport "/" database "/" wtype "/" wpath
waisdoc = Rule("waisdoc", seq("//", hostport, "/", database, "/", wtype, "/", wpath))
# waisurl = waisdatabase | waisindex | waisdoc
waisurl = Rule(
    "waisurl",
    alt(waisdatabase, waisindex, waisdoc),
    at_sign="wais URLs take no user name or password (section 5): '@' before the host",
)

# --- PROSPERO ----------------------------------------------------------------------------------

# psegment = *[ uchar | "?" | ":" | "@" | "&" | "=" ]
psegment = Rule("psegment", uchars("?:@&="), describe="a path segment")
# ppath = psegment *[ "/" psegment ]
ppath = Rule("ppath", seq(psegment, rep("/", psegment)), group="ppath", describe="the path")
# fieldname = *[ uchar | "?" | ":" | "@" | "&" ]
fieldname = Rule("fieldname", uchars("?:@&"), group="fieldname", describe="a field name")
# fieldvalue = *[ uchar | "?" | ":" | "@" | "&" ]
fieldvalue = Rule("fieldvalue", uchars("?:@&"), group="fieldvalue", describe="a field value")
# fieldspec = ";" fieldname "=" fieldvalue
# D18: both sides may be empty; a ";" without "=" is an error.
fieldspec = Rule("fieldspec", seq(";", fieldname, "=", fieldvalue), describe="a field")
# prosperourl = "prospero://" hostport "/" ppath *[ fieldspec ]
# D18: no login (3.11 "No username or password is allowed").
prosperourl = Rule(
    "prosperourl",
    seq("//", hostport, "/", ppath, rep(fieldspec)),
    at_sign="prospero URLs take no user name or password (section 3.11): '@' before the host",
)

# --- the fragment (not in section 5) -------------------------------------------------------------

# D4: the appendix puts "#fragment" inside the brackets; RFC 1808's fragment = *( uchar | reserved ),
# which is *xchar. Split at the first "#"; a second "#" is an unsafe character in the fragment.
fragment = Rule("fragment", xchars(), group="fragment", describe="the fragment")

# url = httpurl | ftpurl | newsurl | nntpurl | telneturl | gopherurl | waisurl | mailtourl |
#       fileurl | prosperourl | otherurl
# D1: a scheme with a production of its own is judged by that production alone (never by otherurl
# after it failed); every other scheme is otherurl = genericurl.
SCHEME_RULES: dict[str, Rule] = {
    "http": httpurl,
    "ftp": ftpurl,
    "news": newsurl,
    "nntp": nntpurl,
    "telnet": telneturl,
    "gopher": gopherurl,
    "wais": waisurl,
    "mailto": mailtourl,
    "file": fileurl,
    "prospero": prosperourl,
}
