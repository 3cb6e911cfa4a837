//! A valid URL's host columns (issue 30, D38) as `hosts.py` works them out: `host` and
//! `host_unicode` (`_forms`), `registered_domain` (the `publicsuffixlist` package's
//! `privatesuffix`, ICANN section) and `surt` (`hosts.surt`, with `urllib.parse.urlsplit`'s rules
//! for the netloc, the port and the host name). Only where the answer is exactly Python's: an
//! ASCII URL of printable characters whose host is an ASCII name with no `xn--` label and no IP
//! literal, of a scheme whose host the URL's text shows as the verdict's parts have it (the
//! `scheme://` authority's; a mailto's one plain address's domain; none at all for an opaque
//! scheme with no host in its production); `columns` says `None` for the rest (IDNA, a bracketed
//! host, any doubt), and Python works those out. The one place that decides is `columns`.

use std::collections::HashSet;

/// host, host_unicode, registered_domain, surt.
pub type Columns = (Option<String>, Option<String>, Option<String>, Option<String>);

/// The schemes given a SURT key (`hosts.ARCHIVED`): their host is the `scheme://` authority's in
/// both profiles, and a URL of theirs has no other shape.
const ARCHIVED: [&str; 3] = ["http", "https", "ftp"];

/// The schemes whose production has a host outside a `//` authority (the modern profile's
/// `SIP-URI`, `sip:user@host`): the verdict's parts say where it is, so Python's to work out.
/// Every other production's host is its `//` authority's, or there is none (D38).
const HOST_WITHOUT_AUTHORITY: [&str; 2] = ["sip", "sips"];

const NO_HOST: Columns = (None, None, None, None);

const ICANN: (&str, &str) = ("// ===BEGIN ICANN DOMAINS===", "// ===END ICANN DOMAINS===");

/// The Public Suffix List's ICANN rules that an ASCII name with no `xn--` label can meet, parsed
/// as the `publicsuffixlist` package parses its file (`only_icann=True`): a line's first word,
/// lower-cased, its trailing white space dropped; comments and empty lines skipped.
#[derive(Debug, Default)]
pub struct Suffixes {
    rules: HashSet<String>,
    max_labels: usize,
}

/// Python's `str.isspace` among ASCII (`str.strip`'s default set): U+001C-U+001F are white
/// space to it, not to Rust.
fn python_space(c: char) -> bool {
    matches!(c, '\t'..='\r' | '\x1c'..='\x1f' | ' ') || (!c.is_ascii() && c.is_whitespace())
}

impl Suffixes {
    /// The list in `file` (the package's own file, read by Python: no second copy).
    pub fn parse(file: &[u8]) -> Suffixes {
        let mut suffixes = Suffixes::default();
        let mut inside = false;
        for line in file.split(|&b| b == b'\n') {
            let text = String::from_utf8_lossy(line);
            let marker = text.trim_end_matches(python_space);
            if marker == ICANN.0 || marker == ICANN.1 {
                inside = marker == ICANN.0;
                continue;
            }
            if !inside {
                continue;
            }
            let lowered = if text.is_ascii() { text.to_ascii_lowercase() } else { text.to_lowercase() };
            let rule = lowered.split(' ').next().unwrap_or("").trim_end_matches(python_space);
            if rule.is_empty() || rule.starts_with("//") {
                continue;
            }
            suffixes.max_labels = suffixes.max_labels.max(rule.matches('.').count() + 1);
            // (A rule that is not ASCII, or its IDNA form, can end no name this module takes.)
            if rule.is_ascii() {
                suffixes.rules.insert(rule.to_string());
            }
        }
        suffixes
    }

    /// How many labels of `host` (lower-case, no empty label) are public: the package's
    /// `_countpublic`, unknown TLDs public. Each suffix is a slice of `host`, looked up as it is.
    fn count_public(&self, host: &str) -> usize {
        let starts: Vec<usize> =
            std::iter::once(0).chain(host.match_indices('.').map(|(at, _)| at + 1)).collect();
        let count = starts.len();
        if count == 1 {
            return 1;
        }
        let from = count.saturating_sub(self.max_labels + 1);
        let mut probe = String::with_capacity(host.len() + 2);
        for (i, &start) in starts.iter().enumerate().skip(from) {
            let depth = count - i;
            let suffix = &host[start..];
            probe.clear();
            probe.push('!');
            probe.push_str(suffix);
            if self.rules.contains(&probe) {
                return depth - 1;
            }
            probe.replace_range(..1, "*.");
            if self.rules.contains(&probe) {
                return if i > 0 { depth + 1 } else { depth };
            }
            if self.rules.contains(suffix) {
                return depth;
            }
        }
        1
    }

    /// `hosts.registered_domain` of an ASCII host with no `xn--` label.
    pub fn registered_domain(&self, host: &str) -> Option<String> {
        if host.contains(':') || is_dotted_quad(host) || !host.contains('.') {
            return None;
        }
        let host = host.strip_suffix('.').unwrap_or(host).to_ascii_lowercase();
        if host.split('.').any(str::is_empty) {
            return None;
        }
        let public = self.count_public(&host);
        let labels = host.split('.').count();
        if public == 0 || labels < public + 1 {
            return None;
        }
        let start = host.split('.').take(labels - public - 1).map(|label| label.len() + 1).sum::<usize>();
        Some(host[start..].to_string())
    }
}

/// `hosts._IPV4`: `\d+(\.\d+){3}`.
fn is_dotted_quad(host: &str) -> bool {
    host.split('.').count() == 4
        && host.split('.').all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
}

/// The columns of a valid URL whose scheme (lower-cased) is `scheme`, or `None`: Python's to work
/// out. A "www." host's URL comes here as the http URL it stands for.
pub fn columns(url: &str, scheme: &str, suffixes: &Suffixes) -> Option<Columns> {
    // Printable ASCII only: no IRI, and nothing urlsplit or str.strip would drop.
    if !url.bytes().all(|b| (0x21..0x7f).contains(&b)) {
        return None;
    }
    let start = scheme.len() + 1;
    if !url.get(..scheme.len())?.eq_ignore_ascii_case(scheme)
        || url.as_bytes().get(scheme.len()) != Some(&b':')
    {
        return None;
    }
    let end = url.find('#').unwrap_or(url.len());
    if scheme == "mailto" {
        return mailto_columns(&url[start..end], suffixes);
    }
    let archived = ARCHIVED.contains(&scheme);
    if !archived && !url[start..].starts_with("//") {
        // D38: an opaque URL (a news group, a Message-ID, a URN) has no host of the network.
        return if HOST_WITHOUT_AUTHORITY.contains(&scheme) { None } else { Some(NO_HOST) };
    }
    if question_in_userinfo(url, start, end) {
        return None;
    }
    let Some((begin, stop)) = host_span(url, start, end) else {
        return Some(NO_HOST);
    };
    let written = &url[begin..stop];
    if written.is_empty() {
        return Some(NO_HOST);
    }
    if written.starts_with('[') {
        return None; // an IP literal (hosts._literal_key)
    }
    let host = forms(written)?;
    let key = if archived { surt(url)? } else { None };
    let domain = suffixes.registered_domain(&host);
    Some((Some(host.clone()), Some(host), domain, key))
}

/// A valid mailto URL's columns from its text before the fragment (`hosts._written_host`: the
/// first address's domain, up to a "?"), where its one address reads the same in both profiles'
/// parts: no escape before the "?" (the parts are decoded, and a decoded "@" or "," moves the
/// domain), no "," (a second address) and no "@", written or escaped, after the "?" (the strict
/// profile's address runs on to the header fields, decoded).
fn mailto_columns(body: &str, suffixes: &Suffixes) -> Option<Columns> {
    let (to, fields) = body.split_once('?').unwrap_or((body, ""));
    let escaped_at = fields.to_ascii_lowercase().contains("%40");
    if to.contains(['%', ',']) || fields.contains('@') || escaped_at {
        return None;
    }
    if !to.contains('@') {
        return Some(NO_HOST);
    }
    let written = to.rsplit_once('@').map_or("", |(_, domain)| domain);
    if written.is_empty() {
        return Some(NO_HOST);
    }
    let host = forms(written)?;
    let domain = suffixes.registered_domain(&host);
    Some((Some(host.clone()), Some(host), domain, None))
}

/// Whether a "?" comes before an "@" in the authority: RFC 1738's user and password may hold one
/// (the strict profile), and then the verdict's `host` part, not the authority's reading, says
/// which the host is (`hosts._written_host`): Python's to work out.
fn question_in_userinfo(url: &str, start: usize, end: usize) -> bool {
    let Some(authority) = url.get(start..end).and_then(|rest| rest.strip_prefix("//")) else {
        return false;
    };
    let authority = &authority[..authority.find('/').unwrap_or(authority.len())];
    authority.find('?').is_some_and(|at| authority[at..].contains('@'))
}

/// `grammar._profile.host_span` with the ends "/?" (`hosts._written_host`): after the last "@"
/// of the authority, before a ":port". D38: the host of a `scheme://` authority; for http, https
/// and ftp the same as their verdict's `host` part in both profiles (the differential tests hold
/// the two together on every corpus URL).
fn host_span(url: &str, start: usize, end: usize) -> Option<(usize, usize)> {
    let rest = url.get(start..end)?;
    if !rest.starts_with("//") {
        return None;
    }
    let begin = start + 2;
    let authority = &url[begin..end];
    let stop = begin + authority.find(['/', '?']).unwrap_or(authority.len());
    let within = &url[begin..stop];
    let begin = within.rfind('@').map_or(begin, |at| begin + at + 1);
    let within = &url[begin..stop];
    let from = within.rfind(']').unwrap_or(0);
    let port = within[from..].rfind(':').map(|at| begin + from + at);
    Some((begin, port.unwrap_or(stop)))
}

/// `hosts._forms` of a host as written, when its `host` is ASCII with no `xn--` (then
/// `host_unicode` is the same); `None` otherwise.
fn forms(written: &str) -> Option<String> {
    let decoded = unquote(written.as_bytes());
    if !decoded.is_ascii() {
        return None; // (urllib's unquote decodes UTF-8, replacing: IDNA's or Python's to judge)
    }
    let text = String::from_utf8(decoded).ok()?.to_ascii_lowercase();
    let mut host = text.trim_matches(python_space);
    if host.contains(['[', ']']) || host.contains("xn--") {
        return None;
    }
    if host.len() > 1 {
        host = host.strip_suffix('.').unwrap_or(host);
    }
    Some(host.to_string())
}

fn hex(b: u8) -> Option<u8> {
    (b as char).to_digit(16).map(|d| d as u8)
}

/// `urllib.parse.unquote_to_bytes`: each "%" and two hex digits decoded, any other "%" kept.
fn unquote(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len());
    let mut i = 0;
    while i < data.len() {
        let b = data[i];
        if b == b'%' {
            if let (Some(h), Some(l)) =
                (data.get(i + 1).and_then(|&c| hex(c)), data.get(i + 2).and_then(|&c| hex(c)))
            {
                out.push(h << 4 | l);
                i += 3;
                continue;
            }
        }
        out.push(b);
        i += 1;
    }
    out
}

/// Rounds of `unescaped` done here: a URL that needs more ("%252525...") is left to Python,
/// whose loop takes a round a "25" (the core stays linear in the URL).
const UNESCAPE_ROUNDS: usize = 4;

/// `hosts._unescaped`: decoded again and again till nothing changes; `None` after
/// `UNESCAPE_ROUNDS` rounds that each changed it.
fn unescaped(data: &[u8]) -> Option<Vec<u8>> {
    let mut data = data.to_vec();
    for _ in 0..UNESCAPE_ROUNDS {
        let decoded = unquote(&data);
        if decoded == data {
            return Some(data);
        }
        data = decoded;
    }
    None
}

/// `hosts._escape_once`: `quote_from_bytes` with `hosts._SAFE`: every printable ASCII character
/// but "#" and "%" kept, the rest escaped in upper-case hex.
fn escape_once(data: &[u8]) -> String {
    let mut out = String::with_capacity(data.len());
    for &b in data {
        if (0x21..0x7f).contains(&b) && b != b'#' && b != b'%' {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// `hosts._normal_path`: the dot segments resolved.
fn normal_path(path: &[u8]) -> Vec<u8> {
    if path.is_empty() {
        return b"/".to_vec();
    }
    let mut kept: Vec<&[u8]> = Vec::new();
    for segment in path.split(|&b| b == b'/').skip(1) {
        if segment == b"." {
            continue;
        }
        if segment == b".." && !kept.is_empty() {
            kept.pop();
        } else {
            kept.push(segment);
        }
    }
    let Some((last, before)) = kept.split_last() else {
        return b"/".to_vec();
    };
    let mut out = b"/".to_vec();
    for segment in before.iter().filter(|s| !s.is_empty()) {
        out.extend_from_slice(segment);
        out.push(b'/');
    }
    out.extend_from_slice(last);
    out
}

/// `socket.inet_aton` as glibc reads a name of digits and dots (the only kind `hosts._NUMERIC_HOST`
/// passes it): each part decimal, or octal after a "0"; the last part fills what is left.
fn inet_aton(name: &str) -> Option<[u8; 4]> {
    let mut values: Vec<u64> = Vec::new();
    for part in name.split('.') {
        let (digits, radix) =
            if part.len() > 1 && part.starts_with('0') { (&part[1..], 8) } else { (part, 10) };
        if part.is_empty() || values.len() == 4 {
            return None;
        }
        let mut value: u64 = 0;
        for c in digits.chars() {
            // (strtoul stops at a digit the base lacks; inet_aton then refuses what follows)
            let digit = c.to_digit(radix)?;
            value = value.checked_mul(u64::from(radix))?.checked_add(u64::from(digit))?;
        }
        values.push(value);
    }
    let (last, parts) = values.split_last()?;
    if parts.iter().any(|&v| v > 0xff) {
        return None;
    }
    let room = 8 * (4 - parts.len() as u32);
    if room < 64 && *last >= 1u64 << room {
        return None;
    }
    let mut address = [0u8; 4];
    for (k, &v) in parts.iter().enumerate() {
        address[k] = v as u8;
    }
    let tail = (*last as u32).to_be_bytes();
    address[parts.len()..].copy_from_slice(&tail[parts.len()..]);
    Some(address)
}

/// `hosts._NUMERIC_HOST`: `(0[0-7]*|[1-9][0-9]*)(\.[0-9]+){0,3}|[0-9]+`.
fn is_numeric_host(name: &str) -> bool {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if digits(name) {
        return true;
    }
    let parts: Vec<&str> = name.split('.').collect();
    let first = parts[0];
    let first_ok = if let Some(octal) = first.strip_prefix('0') {
        octal.bytes().all(|b| (b'0'..=b'7').contains(&b))
    } else {
        digits(first) && !first.starts_with('0')
    };
    parts.len() <= 4 && first_ok && parts[1..].iter().all(|p| digits(p))
}

/// `hosts._surt_host` of an ASCII host name (`None`: not ASCII once unescaped, Python's).
fn surt_host(host: &str) -> Option<String> {
    let raw = unescaped(host.as_bytes())?;
    if !raw.is_ascii() {
        return None;
    }
    let mut name = String::with_capacity(raw.len());
    for &b in &raw {
        if !(b == b'.' && name.ends_with('.')) {
            name.push(b as char);
        }
    }
    let name = name.trim_matches('.');
    let name = match inet_aton(name).filter(|_| is_numeric_host(name)) {
        Some([a, b, c, d]) => format!("{a}.{b}.{c}.{d}"),
        None => escape_once(name.to_ascii_lowercase().as_bytes()),
    };
    let digits = name.strip_prefix("www").map(|rest| rest.trim_start_matches(|c: char| c.is_ascii_digit()));
    Some(match digits.and_then(|rest| rest.strip_prefix('.')) {
        Some(rest) => rest.to_string(),
        None => name,
    })
}

/// `hosts._PATH_SESSION` applied as `hosts._path_sessions` applies them.
fn path_sessions(path: &str) -> String {
    let mut path = path.to_string();
    for many in [true, false] {
        let Some(aspx) = path.rfind(".aspx").filter(|&at| at >= 1) else {
            continue;
        };
        let endpos = aspx - 1;
        let bytes = path.as_bytes();
        let found =
            bytes[..endpos].iter().enumerate().rev().filter(|&(_, &b)| b == b'/').find_map(|(slash, _)| {
                session_id(&bytes[..endpos], slash + 1, many).map(|end| (slash + 1, end))
            });
        if let Some((start, end)) = found {
            path = format!("{}{}", &path[..start], &path[end..]);
        }
    }
    path
}

/// Where `(x(ID)...)/` (`many`) or `(ID)/` ends when it starts at `at` in `text`, an ID being 24
/// letters or digits (either case).
fn session_id(text: &[u8], at: usize, many: bool) -> Option<usize> {
    let id = |from: usize| -> Option<usize> {
        let run = text.get(from..from + 24)?;
        run.iter().all(u8::is_ascii_alphanumeric).then_some(from + 24)
    };
    let mut i = at;
    if text.get(i) != Some(&b'(') {
        return None;
    }
    i += 1;
    if many {
        let mut count = 0;
        while text.get(i).is_some_and(u8::is_ascii_alphabetic) && text.get(i + 1) == Some(&b'(') {
            let Some(after) = id(i + 2) else { break };
            if text.get(after) != Some(&b')') {
                break;
            }
            i = after + 1;
            count += 1;
        }
        if count == 0 {
            return None;
        }
    } else {
        i = id(i)?;
    }
    (text.get(i) == Some(&b')') && text.get(i + 1) == Some(&b'/')).then_some(i + 2)
}

/// A run of an id: its characters' class and how many.
type Run = (fn(&u8) -> bool, usize);

/// What `hosts._QUERY_SESSION`'s pattern of `name` (its id's `shape` after it) leaves of `query`:
/// from its last id followed by the end or an "&" (the greedy `^(.*)`), to after that "&".
fn query_session(query: &str, name: &str, shape: &[Run]) -> Option<String> {
    let lower = query.to_ascii_lowercase();
    if !lower.contains(name) {
        return None;
    }
    let bytes = query.as_bytes();
    for (at, _) in lower.match_indices(name).collect::<Vec<_>>().into_iter().rev() {
        let mut i = at + name.len();
        let fits = shape.iter().all(|&(class, count)| {
            let run = bytes.get(i..i + count);
            i += count;
            run.is_some_and(|run| run.iter().all(class))
        });
        if !fits {
            continue;
        }
        if i == bytes.len() {
            return Some(query[..at].to_string());
        }
        if bytes[i] == b'&' {
            return Some(format!("{}{}", &query[..at], &query[i + 1..]));
        }
    }
    None
}

/// `hosts._cold_fusion`.
fn cold_fusion(query: &str) -> String {
    let arguments: Vec<&str> = query.split('&').collect();
    let lowered: Vec<String> = arguments.iter().map(|a| a.to_ascii_lowercase()).collect();
    for k in (0..arguments.len().saturating_sub(1)).rev() {
        let token = &lowered[k + 1];
        if !(token.starts_with("cftoken=") && token.len() > "cftoken=".len()) {
            continue;
        }
        let mut at = lowered[k].rfind("cfid=");
        if let Some(found) = at {
            if found + "cfid=".len() == lowered[k].len() {
                at = lowered[k][..found].rfind("cfid=");
            }
        }
        let Some(at) = at else { continue };
        let before =
            format!("{}{}{}", arguments[..k].join("&"), if k > 0 { "&" } else { "" }, &arguments[k][..at]);
        return before + &arguments[k + 2..].join("&");
    }
    query.to_string()
}

/// `hosts.surt` of a printable ASCII http, https or ftp URL: `Some(None)` when it has no key,
/// `None` when Python must work it out (a host not ASCII once unescaped, brackets).
pub fn surt(url: &str) -> Option<Option<String>> {
    // urlsplit: the scheme (its characters are known here), then "//" and the netloc.
    let colon = url.find(':')?;
    let scheme = url[..colon].to_ascii_lowercase();
    let rest = &url[colon + 1..];
    let (netloc, rest) = match rest.strip_prefix("//") {
        Some(after) => after.split_at(after.find(['/', '?', '#']).unwrap_or(after.len())),
        None => ("", rest),
    };
    if netloc.contains(['[', ']']) {
        return None;
    }
    let rest = rest.split_once('#').map_or(rest, |(before, _)| before);
    let (path, query) = rest.split_once('?').unwrap_or((rest, ""));
    let hostinfo = netloc.rsplit_once('@').map_or(netloc, |(_, host)| host);
    let (hostname, port) = hostinfo.split_once(':').unwrap_or((hostinfo, ""));
    let port = if port.is_empty() {
        None
    } else {
        if !port.bytes().all(|b| b.is_ascii_digit()) {
            return Some(None); // urlsplit's ValueError
        }
        let digits = port.trim_start_matches('0');
        match digits.parse::<u32>() {
            Ok(value) if value <= 65535 => Some(value),
            Err(_) if digits.is_empty() => Some(0),
            _ => return Some(None),
        }
    };
    if hostname.is_empty() {
        return Some(None);
    }
    let hostname = match hostname.split_once('%') {
        Some((name, zone)) => format!("{}%{zone}", name.to_ascii_lowercase()),
        None => hostname.to_ascii_lowercase(),
    };
    let host = surt_host(&hostname)?;
    if host.is_empty() {
        return Some(None);
    }
    let default = match scheme.as_str() {
        "http" => Some(80),
        "https" => Some(443),
        _ => None,
    };
    let port = port.filter(|&p| Some(p) != default);
    let mut path =
        path_sessions(&escape_once(&normal_path(&unescaped(path.as_bytes())?)).to_ascii_lowercase());
    if path.ends_with('/') && path.len() > 1 {
        path.pop();
    }
    let mut query = if query.is_empty() { String::new() } else { escape_once(&unescaped(query.as_bytes())?) };
    if !query.is_empty() {
        let alnum: fn(&u8) -> bool = u8::is_ascii_alphanumeric;
        let alpha: fn(&u8) -> bool = u8::is_ascii_alphabetic;
        let equals: fn(&u8) -> bool = |&b| b == b'=';
        let sessions: [(&str, Vec<Run>); 4] = [
            ("jsessionid=", vec![(alnum, 32)]),
            ("phpsessid=", vec![(alnum, 32)]),
            ("sid=", vec![(alnum, 32)]),
            ("aspsessionid", vec![(alpha, 8), (equals, 1), (alpha, 24)]),
        ];
        for (name, shape) in &sessions {
            if let Some(left) = query_session(&query, name, shape) {
                query = left;
            }
        }
        query = cold_fusion(&query).to_ascii_lowercase();
        let mut arguments: Vec<&str> = query.split('&').collect();
        arguments.sort_by(|a, b| {
            a.split_once('=')
                .map_or((*a, None), |(n, v)| (n, Some(v)))
                .cmp(&b.split_once('=').map_or((*b, None), |(n, v)| (n, Some(v))))
        });
        query = arguments.join("&");
    }
    let mut key: Vec<&str> = host.split('.').collect();
    key.reverse();
    let mut key = key.join(",");
    if let Some(port) = port {
        key.push_str(&format!(":{port}"));
    }
    key.push(')');
    if path.is_empty() {
        if !query.is_empty() {
            key.push('/');
        }
    } else {
        key.push_str(&path);
    }
    if !query.is_empty() {
        key.push('?');
        key.push_str(&query);
    }
    Some(Some(key))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dotted_numbers_read_as_inet_aton_reads_them() {
        assert_eq!(inet_aton("3232235521"), Some([192, 168, 0, 1]));
        assert_eq!(inet_aton("0300.0250.0.1"), Some([192, 168, 0, 1]));
        assert_eq!(inet_aton("192.168.1"), Some([192, 168, 0, 1]));
        assert_eq!(inet_aton("08"), None);
        assert_eq!(inet_aton("256.1.1.1"), None);
        assert_eq!(inet_aton("1.2.3.4.5"), None);
        assert_eq!(inet_aton("99999999999999999999999"), None);
        assert_eq!(inet_aton("4294967296"), None);
    }

    #[test]
    fn keys_as_the_python_writes_them() {
        let key = |url: &str| surt(url).flatten();
        assert_eq!(
            key("http://www.Example.com:80/a/./b/../c/?b=2&a=1#x").as_deref(),
            Some("com,example)/a/c?a=1&b=2")
        );
        assert_eq!(key("https://h.example:8443").as_deref(), Some("example,h:8443)/"));
        assert_eq!(key("http://h:x/"), None);
        assert_eq!(surt("http://[::1]/"), None);
    }

    #[test]
    fn no_input_panics() {
        // Whatever the string (the binding passes any str), an answer and no panic.
        let list =
            Suffixes::parse("// ===BEGIN ICANN DOMAINS===\n*.ck\n!www.ck\nK.com\n\u{e9}.fr".as_bytes());
        let pieces = [
            "http",
            "://",
            "www.",
            "é",
            "%",
            "%2",
            "%C3%A9",
            "@",
            ":",
            "[",
            "]",
            ".",
            "..",
            "/",
            "?",
            "#",
            "&",
            "=",
            "0",
            "08",
            "(",
            ")",
            "a",
            "cfid=",
            "cftoken=1",
            "sid=",
            ".aspx",
            " ",
            "\u{0}",
        ];
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..20_000 {
            let mut url = String::new();
            for _ in 0..(state % 12) {
                state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                url.push_str(pieces[(state >> 33) as usize % pieces.len()]);
            }
            let _ = columns(&url, "http", &list);
            let _ = surt(&url);
            let _ = list.registered_domain(&url);
            let _ = forms(&url);
        }
    }

    #[test]
    fn registered_domains_by_the_rules() {
        let list = Suffixes::parse(
            b"// ===BEGIN ICANN DOMAINS===\nuk\nco.uk\n*.ck\n!www.ck\n// ===END ICANN DOMAINS===\nio\n",
        );
        assert_eq!(list.registered_domain("a.b.co.uk").as_deref(), Some("b.co.uk"));
        assert_eq!(list.registered_domain("a.b.ck").as_deref(), Some("a.b.ck"));
        assert_eq!(list.registered_domain("www.ck").as_deref(), Some("www.ck"));
        assert_eq!(list.registered_domain("x.github.io").as_deref(), Some("github.io"));
        assert_eq!(list.registered_domain("co.uk"), None);
        assert_eq!(list.registered_domain("1.2.3.4"), None);
    }
}
