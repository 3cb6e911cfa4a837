"""Schemes with no "//" whose own RFCs give them a short, clear syntax, in the modern profile (D29,
D35): tel (RFC 3966 3), urn (RFC 8141 2), sip and sips (RFC 3261 25.1), cid and mid (RFC 2392 2);
and xmpp (RFC 5122 2.2), for D35 only. ``IN_TEXT`` is D35's shape in running text, in either
profile: these rules, stated here once (``shapes.py`` only says a refusal's words).

One ``Rule`` per ABNF rule, named as its RFC names it, the RFC's line above each; as in
``schemes``, a rule starts after the scheme's colon, and the fragment is split off first (D4).
Where a rule's repetition would have to give back what it read (``*phonedigit DIGIT``, ``0*30ldh
alphanum``), it is written as the language it stands for, which reads the same and cannot
backtrack (``_bnf``). These URIs take no IRI characters: their RFCs are ASCII.
"""

from __future__ import annotations

from urllib.parse import unquote

from .._model import Part
from ._bnf import Chars, Label, Node, Rule, alt, opt, rep, seq
from ._chars import ALPHA, ALPHADIGIT, DIGIT, HEX
from ._profile import Decomposed, RegexMatch, SchemeSyntax
from ._shared import number
from .rfc3986 import IPv6address

# --- tel: RFC 3966 section 3 ---------------------------------------------------------------------

# visual-separator = "-" / "." / "(" / ")"
VISUAL_SEPARATOR = "-.()"
# mark = "-" / "_" / "." / "!" / "~" / "*" / "'" / "(" / ")";  unreserved = alphanum / mark
TEL_UNRESERVED = ALPHADIGIT + "-_.!~*'()"
# param-unreserved = "[" / "]" / "/" / ":" / "&" / "+" / "$"
PARAM_UNRESERVED = "[]/:&+$"
# reserved = ";" / "/" / "?" / ":" / "@" / "&" / "=" / "+" / "$" / ","
TEL_RESERVED = ";/?:@&=+$,"

# phonedigit = DIGIT / [ visual-separator ]
phonedigits = Chars(DIGIT + VISUAL_SEPARATOR, escapes=False)
# global-number-digits = "+" *phonedigit DIGIT *phonedigit: a "+", then phonedigits of which one
# at least is a DIGIT (the first DIGIT is the one the rule names).
global_number_digits = Rule(
    "global-number-digits",
    seq("+", Chars(VISUAL_SEPARATOR, escapes=False), Chars(DIGIT, escapes=False, min=1, max=1), phonedigits),
)
# phonedigit-hex = HEXDIG / "*" / "#" / [ visual-separator ]
# local-number-digits = *phonedigit-hex (HEXDIG / "*" / "#") *phonedigit-hex: as above, one at
# least is no separator. ("#" comes escaped in a URI: RFC 3966 3 says so of every reserved use.)
local_number_digits = Rule(
    "local-number-digits",
    seq(
        Chars(VISUAL_SEPARATOR, escapes=False),
        Chars(HEX + "*", escapes=True, min=1, max=1),
        Chars(HEX + "*" + VISUAL_SEPARATOR, escapes=True),
    ),
)
# domainlabel = alphanum / alphanum *( alphanum / "-" ) alphanum
domainlabel = Rule("domainlabel", Label(ALPHADIGIT))
# toplabel = ALPHA / ALPHA *( alphanum / "-" ) alphanum
toplabel = Rule("toplabel", Label(ALPHA))
# domainname = *( domainlabel "." ) toplabel [ "." ]      (the final "." is not read: a
# possessive "*( domainlabel "." )" would take it with the toplabel; names in text rarely have it)
domainname = Rule("domainname", seq(rep(domainlabel, "."), toplabel))
# descriptor = domainname / global-number-digits
descriptor = Rule("descriptor", alt(global_number_digits, domainname))
# context = ";phone-context=" descriptor
context = Rule("context", seq(";phone-context=", descriptor))
# extension = ";ext=" 1*phonedigit
extension = Rule("extension", seq(";ext=", Chars(DIGIT + VISUAL_SEPARATOR, escapes=False, min=1)))
# uric = reserved / unreserved / pct-encoded;  isdn-subaddress = ";isub=" 1*uric
# Less ";": RFC 3966 3 puts an isdn-subaddress before the context and other parameters, so a ";"
# of its own would leave none of them a place; one in a value is escaped.
isdn_subaddress = Rule(
    "isdn-subaddress",
    seq(";isub=", Chars(TEL_UNRESERVED + TEL_RESERVED.replace(";", ""), escapes=True, min=1)),
)
# pname = 1*( alphanum / "-" )
pname = Rule("pname", Chars(ALPHADIGIT + "-", escapes=False, min=1))
# paramchar = param-unreserved / unreserved / pct-encoded;  pvalue = 1*paramchar
pvalue = Rule("pvalue", Chars(PARAM_UNRESERVED + TEL_UNRESERVED, escapes=True, min=1))
# parameter = ";" pname ["=" pvalue ]
parameter = Rule("parameter", seq(";", pname, opt("=", pvalue)))
# par = parameter / extension / isdn-subaddress   (the named ones first: each is a parameter too)
par = Rule("par", alt(extension, isdn_subaddress, parameter))
# global-number = global-number-digits *par
global_number = Rule("global-number", seq(global_number_digits, rep(par)))
# local-number = local-number-digits *par context *par
# RFC 3966 3 orders them: "the 'isdn-subaddress' or 'extension' MUST appear first, if present,
# followed by the 'context' parameter": so what comes before the context is one of those two.
local_number = Rule(
    "local-number",
    seq(local_number_digits, rep(alt(extension, isdn_subaddress)), context, rep(par)),
)
# telephone-subscriber = global-number / local-number
telephone_subscriber = Rule("telephone-subscriber", alt(global_number, local_number))
# telephone-uri = "tel:" telephone-subscriber
telephone_uri = Rule("telephone-uri", telephone_subscriber)

# --- urn: RFC 8141 section 2 ----------------------------------------------------------------------

# pchar = unreserved / pct-encoded / sub-delims / ":" / "@"     (RFC 3986 3.3, ASCII only)
PCHAR = ALPHADIGIT + "-._~" + "!$&'()*+,;=" + ":@"
# ldh = alphanum / "-";  NID = (alphanum) 0*30(ldh) (alphanum): 2 to 32 characters, as the 31
# lengths it stands for, longest first.
_ldh = ALPHADIGIT + "-"


def _nid_of_length(length: int) -> Node:
    one = Chars(ALPHADIGIT, escapes=False, min=1, max=1)
    return seq(one, Chars(_ldh, escapes=False, min=length - 2, max=length - 2), one)


NID = Rule("NID", alt(*(_nid_of_length(n) for n in range(32, 1, -1))), group="nid")
# NSS = pchar *(pchar / "/")
NSS = Rule(
    "NSS", seq(Chars(PCHAR, escapes=True, min=1, max=1), Chars(PCHAR + "/", escapes=True)), group="nss"
)
# r-component = pchar *( pchar / "/" / "?" );  q-component likewise
r_component = Rule(
    "r-component", seq(Chars(PCHAR, escapes=True, min=1, max=1), Chars(PCHAR + "/?", escapes=True))
)
q_component = Rule(
    "q-component", seq(Chars(PCHAR, escapes=True, min=1, max=1), Chars(PCHAR + "/?", escapes=True))
)
# rq-components = [ "?+" r-component ] [ "?=" q-component ]
# (an r-component may hold "?=": the ABNF lets it, and then there is no q-component)
rq_components = Rule("rq-components", seq(opt("?+", r_component), opt("?=", q_component)))
# assigned-name = "urn" ":" NID ":" NSS;  namestring = assigned-name [ rq-components ] [ "#" f-component ]
namestring = Rule("namestring", seq(NID, ":", NSS, rq_components))

# --- sip and sips: RFC 3261 section 25.1 -----------------------------------------------------------

# unreserved = alphanum / mark  (mark as in RFC 3966 above)
SIP_UNRESERVED = TEL_UNRESERVED
# user-unreserved = "&" / "=" / "+" / "$" / "," / ";" / "?" / "/"
# user = 1*( unreserved / escaped / user-unreserved )
# (telephone-subscriber, the other choice of userinfo, reads as a user: its characters are all
# user characters)
user = Rule("user", Chars(SIP_UNRESERVED + "&=+$,;?/", escapes=True, min=1), group="user")
# password = *( unreserved / escaped / "&" / "=" / "+" / "$" / "," )
password = Rule("password", Chars(SIP_UNRESERVED + "&=+$,", escapes=True), group="password")
# userinfo = ( user / telephone-subscriber ) [ ":" password ] "@"
userinfo = Rule("userinfo", seq(user, opt(":", password), "@"))
# IPv4address = 1*3DIGIT "." 1*3DIGIT "." 1*3DIGIT "." 1*3DIGIT
_octet = Chars(DIGIT, escapes=False, min=1, max=3)
IPv4address = Rule("IPv4address", seq(_octet, ".", _octet, ".", _octet, ".", _octet))
# IPv6reference = "[" IPv6address "]"      (RFC 3261's IPv6address is RFC 3986's, RFC 5954)
# Named as RFC 3986 names its literal, so that the profile judges it whole, at its "[", as it does
# every IP literal.
IPv6reference = Rule("IP-literal", seq("[", IPv6address, "]"), until_read="host")
# hostname = *( domainlabel "." ) toplabel [ "." ]   (as domainname above)
hostname = Rule("hostname", seq(rep(domainlabel, "."), toplabel))
# host = hostname / IPv4address / IPv6reference
sip_host = Rule("host", alt(IPv6reference, hostname, IPv4address), group="host")
# port = 1*DIGIT
sip_port = Rule("port", Chars(DIGIT, escapes=False, min=1), group="port")
# hostport = host [ ":" port ]
hostport = Rule("hostport", seq(sip_host, opt(":", sip_port)))
# paramchar = param-unreserved / unreserved / escaped;  pname = 1*paramchar;  pvalue = 1*paramchar
_paramchars = Chars(PARAM_UNRESERVED + SIP_UNRESERVED, escapes=True, min=1)
# other-param = pname [ "=" pvalue ]
# uri-parameter = transport-param / user-param / method-param / ttl-param / maddr-param / lr-param
#                 / other-param: each named one is an other-param as well, so this reads them all.
uri_parameter = Rule("uri-parameter", seq(_paramchars, opt("=", _paramchars)))
# uri-parameters = *( ";" uri-parameter)
uri_parameters = Rule("uri-parameters", rep(";", uri_parameter))
# hnv-unreserved = "[" / "]" / "/" / "?" / ":" / "+" / "$"
HNV = "[]/?:+$" + SIP_UNRESERVED
# header = hname "=" hvalue;  hname = 1*( hnv-unreserved / unreserved / escaped );  hvalue = *( ... )
header = Rule("header", seq(Chars(HNV, escapes=True, min=1), "=", Chars(HNV, escapes=True)))
# headers = "?" header *( "&" header )
headers = Rule("headers", seq("?", header, rep("&", header)))
# SIP-URI = "sip:" [ userinfo ] hostport uri-parameters [ headers ];  SIPS-URI likewise
SIP_URI = Rule("SIP-URI", seq(opt(userinfo), hostport, uri_parameters, opt(headers)))

# --- cid and mid: RFC 2392 section 2 -----------------------------------------------------------------

# url-addr-spec = addr-spec ; URL encoding of RFC 822 addr-spec
# RFC 822's atom, less what a URL must encode ("/" too, reserved within mid), and its escapes:
# quoted strings and domain literals ('"', "[", " ") come only escaped.
URL_ATOM = ALPHADIGIT + "!$&'*+-=_~"
_atom = Chars(URL_ATOM, escapes=True, min=1)
# local-part = word *("." word);  domain = sub-domain *("." sub-domain)     (RFC 822 6.1)
local_part = Rule("local-part", seq(_atom, rep(".", _atom)))
domain = Rule("domain", seq(_atom, rep(".", _atom)))
# addr-spec = local-part "@" domain
url_addr_spec = Rule("url-addr-spec", seq(local_part, "@", domain))
# content-id = url-addr-spec;  cid-url = "cid" ":" content-id
cid_url = Rule("cid-url", Rule("content-id", url_addr_spec, group="content_id"))
# message-id = url-addr-spec;  mid-url = "mid" ":" message-id [ "/" content-id ]
mid_url = Rule(
    "mid-url",
    seq(Rule("message-id", url_addr_spec, group="message_id"), opt("/", Rule("content-id", url_addr_spec))),
)


# --- xmpp: RFC 5122 section 2.2 (the URI form) ------------------------------------------------------
# Not a scheme the modern profile judges by it (RFC 3986's URI does): only D35's shape in text.

# unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~"        (RFC 3986)
XMPP_UNRESERVED = ALPHADIGIT + "-._~"
# nodeid = *( unreserved / pct-encoded / nodeallow )
# nodeallow = "!" / "$" / "(" / ")" / "*" / "+" / "," / ";" / "="
nodeid = Rule("nodeid", Chars(XMPP_UNRESERVED + "!$()*+,;=", escapes=True))
# resid = *( unreserved / pct-encoded / resallow )
# resallow = "!" / "$" / "&" / "'" / "(" / ")" / "*" / "+" / "," / ":" / ";" / "="
resid = Rule("resid", Chars(XMPP_UNRESERVED + "!$&'()*+,:;=", escapes=True))
# host: RFC 3986's, which takes any reg-name ("(416)" too, or none); an XMPP domainpart is an IP
# literal, an IPv4 address or a domain name (RFC 6122 2.2), whose non-ASCII letters a URI escapes.
xmpp_host = Rule("host", alt(IPv6reference, Chars(ALPHADIGIT + "-.", escapes=True, min=1)))
# pathxmpp = [ nodeid "@" ] host [ "/" resid ]
pathxmpp = Rule("pathxmpp", seq(opt(nodeid, "@"), xmpp_host, opt("/", resid)))
# authxmpp = nodeid "@" host;  authpath = "//" authxmpp [ "/" pathxmpp ]
authpath = Rule("authpath", seq("//", nodeid, "@", xmpp_host, opt("/", pathxmpp)))
# hierxmpp = authpath / pathxmpp
hierxmpp = Rule("hierxmpp", alt(authpath, pathxmpp))
# querytype = *( unreserved / pct-encoded );  key and value likewise
_xmpp_word = Chars(XMPP_UNRESERVED, escapes=True)
# pair = ";" key "=" value;  querycomp = querytype [ *pair ]
querycomp = Rule("querycomp", seq(_xmpp_word, rep(";", _xmpp_word, "=", _xmpp_word)))
# xmppuri = "xmpp" ":" hierxmpp [ "?" querycomp ] [ "#" fragment ]
xmppuri = Rule("xmppuri", seq(hierxmpp, opt("?", querycomp)))

# --- parts -----------------------------------------------------------------------------------------


def _tel(m: RegexMatch, scheme: str) -> Decomposed:
    # The number ends at the first ";" (no digit or separator is one); "+" starts a global one.
    number, _, parameters = m.group().partition(";")
    tag = "phone-context="
    context = next((p[len(tag) :] for p in parameters.split(";") if p.startswith(tag)), None)
    return Decomposed({"number": unquote(number), "context": context})


def _urn(m: RegexMatch, scheme: str) -> Decomposed:
    rest = m.string[m.end("nss") : m.end()]
    # What follows the NSS: "?+" and an r-component (up to a "?=", which it may also hold), then
    # "?=" and a q-component.
    r_part, _, q_part = rest[2:].partition("?=") if rest.startswith("?+") else ("", "", rest[2:])
    parts: dict[str, Part] = {"nid": m.group("nid"), "nss": unquote(m.group("nss"))}
    parts.update(r_component=r_part or None, q_component=q_part or None)
    return Decomposed(parts, {"nid": m.start("nid"), "nss": m.start("nss")})


def _sip(m: RegexMatch, scheme: str) -> Decomposed:
    user, password = m.group("user"), m.group("password")
    port = m.group("port")
    parts: dict[str, Part] = {
        "user": None if user is None else unquote(user),
        "password": None if password is None else unquote(password),
        "host": m.group("host"),
        "port": None if port is None else number(port),
    }
    starts = {"host": m.start("host")}
    if password is not None:
        starts["password"] = m.start("password")
    if port is not None:
        starts["port"] = m.start("port")
    return Decomposed(parts, starts)


def _cid(m: RegexMatch, scheme: str) -> Decomposed:
    return Decomposed({"content_id": unquote(m.group("content_id"))})


def _mid(m: RegexMatch, scheme: str) -> Decomposed:
    message_id = m.group("message_id")
    content_id = m.string[m.end("message_id") + 1 : m.end()]
    return Decomposed({"message_id": unquote(message_id), "content_id": unquote(content_id) or None})


SCHEME_RULES: dict[str, Rule] = {
    "tel": telephone_uri,
    "urn": namestring,
    "sip": SIP_URI,
    "sips": SIP_URI,
    "cid": cid_url,
    "mid": mid_url,
}
"""The schemes the modern profile judges by their own RFC's syntax (and not by RFC 3986's URI)."""

IN_TEXT: dict[str, Rule] = {**SCHEME_RULES, "xmpp": xmppuri}
"""D35: the rule a naked URL of each of these schemes, written without "//", must fullmatch (after
its colon, its fragment split off) to be a URL of running text, in either profile."""

# sip 5060 and sips 5061: RFC 3261 19.1.2. No "." or ".." segments: none of these is hierarchical.
SCHEMES: dict[str, SchemeSyntax] = {
    "tel": SchemeSyntax(telephone_uri, _tel, dot_segments=False),
    "urn": SchemeSyntax(namestring, _urn, dot_segments=False),
    "sip": SchemeSyntax(SIP_URI, _sip, 5060, dot_segments=False),
    "sips": SchemeSyntax(SIP_URI, _sip, 5061, dot_segments=False),
    "cid": SchemeSyntax(cid_url, _cid, dot_segments=False),
    "mid": SchemeSyntax(mid_url, _mid, dot_segments=False),
}
