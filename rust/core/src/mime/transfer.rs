//! The transfer decodings of RFC 2045 (6.7 quoted-printable, 6.8 base64) as `mime._decoded` undoes
//! them: `binascii.a2b_qp` and `binascii.a2b_base64` (not strict), byte for byte, damage included.

/// `binascii.a2b_qp(body)`: `=` and two hex digits is their byte; `=` at a line's end (before
/// "\n", or before "\r" and whatever follows it up to the "\n") is a soft line break; `==` is `=`;
/// any other `=` is kept; a `=` that ends the body is dropped.
pub fn quoted_printable(body: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len());
    let mut at = 0;
    while at < body.len() {
        // The bytes up to the next `=` are themselves.
        let Some(equals) = memchr::memchr(b'=', &body[at..]) else {
            out.extend_from_slice(&body[at..]);
            break;
        };
        out.extend_from_slice(&body[at..at + equals]);
        at += equals + 1;
        match body.get(at) {
            None => break,
            Some(b'\n' | b'\r') => {
                // A soft line break: to the end of its line (binascii skips what a "\r" leaves).
                at += body[at..].iter().position(|&b| b == b'\n').map_or(body.len() - at, |n| n + 1);
            }
            Some(b'=') => {
                out.push(b'=');
                at += 1;
            }
            Some(&high) => match (hex(high), body.get(at + 1).copied().and_then(hex)) {
                (Some(high), Some(low)) => {
                    out.push(high << 4 | low);
                    at += 2;
                }
                _ => out.push(b'='),
            },
        }
    }
    out
}

fn hex(byte: u8) -> Option<u8> {
    char::from(byte).to_digit(16).map(|digit| digit as u8)
}

/// A base64 body decoded, and how (`mime._decoded`'s three outcomes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Base64 {
    /// It decoded as it is.
    Whole(Vec<u8>),
    /// Padding was missing: what is there (InvalidBase64PaddingDefect).
    Unpadded(Vec<u8>),
    /// One character more than a multiple of four: nothing (InvalidBase64LengthDefect).
    BadLength,
}

/// Each byte's value in the base64 alphabet (RFC 2045 table 1); `NONE` for a byte outside it.
const SEXTETS: [u8; 256] = {
    let mut table = [NONE; 256];
    let alphabet = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut k = 0;
    while k < alphabet.len() {
        table[alphabet[k] as usize] = k as u8;
        k += 1;
    }
    table
};
const NONE: u8 = 0xff;

/// `binascii.a2b_base64(body)`, and on its error (`binascii.Error`) the same of `body + b"==="`:
/// characters outside the alphabet are skipped; a `=` ends the data once it completes a quantum
/// begun by two or three characters (a `=` elsewhere is skipped); a quantum left unfinished is an
/// error, which the padding mends unless one character alone began it.
pub fn base64(body: &[u8]) -> Base64 {
    let mut out = Vec::with_capacity(body.len() / 4 * 3 + 3);
    let (mut quad, mut left, mut pads) = (0u8, 0u8, 0u8);
    for &byte in body {
        if byte == b'=' {
            if quad >= 2 {
                pads += 1;
                if quad + pads >= 4 {
                    return Base64::Whole(out);
                }
            }
            continue;
        }
        let six = SEXTETS[usize::from(byte)];
        if six == NONE {
            continue;
        }
        pads = 0;
        match quad {
            0 => left = six,
            1 => {
                out.push(left << 2 | six >> 4);
                left = six & 0x0f;
            }
            2 => {
                out.push(left << 4 | six >> 2);
                left = six & 0x03;
            }
            _ => out.push(left << 6 | six),
        }
        quad = (quad + 1) % 4;
    }
    match quad {
        0 => Base64::Whole(out),
        1 => Base64::BadLength,
        _ => Base64::Unpadded(out),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_printable_keeps_binascii_damage() {
        assert_eq!(quoted_printable(b"a=3Db=\nc=\r\nd=\rxx\ne==f=zz=4"), b"a=bcde=f=zz=4");
        assert_eq!(quoted_printable(b"end="), b"end");
    }

    #[test]
    fn base64_mends_padding_as_the_stdlib_does() {
        assert_eq!(base64(b"aGk=\nignored"), Base64::Whole(b"hi".to_vec()));
        assert_eq!(base64(b"aGk"), Base64::Unpadded(b"hi".to_vec()));
        assert_eq!(base64(b"aGkhA"), Base64::BadLength);
        assert_eq!(base64(b"a=Gk=="), Base64::Whole(b"hi".to_vec()));
    }
}
