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
const NONE: u8 = 0xff; // (over 63: any of four that is NONE shows in their bitwise or)

/// `binascii.a2b_base64(body)`, and on its error (`binascii.Error`) the same of `body + b"==="`:
/// characters outside the alphabet are skipped; a `=` ends the data once it completes a quantum
/// begun by two or three characters (a `=` elsewhere is skipped); a quantum left unfinished is an
/// error, which the padding mends unless one character alone began it.
pub fn base64(body: &[u8]) -> Base64 {
    let mut quanta = Quanta { out: Vec::with_capacity(body.len() / 4 * 3 + 3), quad: 0, left: 0, pads: 0 };
    let mut at = 0;
    while at < body.len() {
        // Four characters of the alphabet at a quantum's start are three bytes, whatever came
        // before (a `=` only counts after two or three): most of a body, a line's 76 at a time,
        // taken eight at a time (six bytes) while they last, then four.
        if quanta.quad == 0 {
            if let Some(eight) = body.get(at..at + 8) {
                let mut bits = 0_u64;
                let mut outside = 0;
                for &byte in eight {
                    let six = SEXTETS[usize::from(byte)];
                    outside |= six;
                    bits = bits << 6 | u64::from(six);
                }
                if outside < 64 {
                    quanta.out.extend_from_slice(&bits.to_be_bytes()[2..]);
                    at += 8;
                    continue;
                }
            }
            if let Some(&[a, b, c, d]) = body.get(at..at + 4) {
                let [a, b, c, d] = [a, b, c, d].map(|byte| SEXTETS[usize::from(byte)]);
                if (a | b | c | d) < 64 {
                    quanta.out.extend_from_slice(&[a << 2 | b >> 4, b << 4 | c >> 2, c << 6 | d]);
                    at += 4;
                    continue;
                }
            }
        }
        if quanta.step(body[at]) {
            return Base64::Whole(quanta.out);
        }
        at += 1;
    }
    quanta.end()
}

/// A base64 body read a character at a time: the bytes so far, and the quantum being read.
struct Quanta {
    out: Vec<u8>,
    /// How many characters of the quantum are read (0 to 3), and the bits of them not yet out.
    quad: u8,
    left: u8,
    /// The `=` read since its last character.
    pads: u8,
}

impl Quanta {
    /// One character read; true when it ends the data (a `=` that completes the quantum).
    fn step(&mut self, byte: u8) -> bool {
        if byte == b'=' {
            if self.quad >= 2 {
                self.pads += 1;
                return self.quad + self.pads >= 4;
            }
            return false;
        }
        let six = SEXTETS[usize::from(byte)];
        if six == NONE {
            return false;
        }
        self.pads = 0;
        let left = self.left;
        match self.quad {
            0 => self.left = six,
            1 => {
                self.out.push(left << 2 | six >> 4);
                self.left = six & 0x0f;
            }
            2 => {
                self.out.push(left << 4 | six >> 2);
                self.left = six & 0x03;
            }
            _ => self.out.push(left << 6 | six),
        }
        self.quad = (self.quad + 1) % 4;
        false
    }

    /// The body's end: whole, unpadded, or one character too many.
    fn end(self) -> Base64 {
        match self.quad {
            0 => Base64::Whole(self.out),
            1 => Base64::BadLength,
            _ => Base64::Unpadded(self.out),
        }
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

    /// `base64` a character at a time: the oracle of its fast path.
    fn base64_by_characters(body: &[u8]) -> Base64 {
        let mut quanta = Quanta { out: Vec::new(), quad: 0, left: 0, pads: 0 };
        for &byte in body {
            if quanta.step(byte) {
                return Base64::Whole(quanta.out);
            }
        }
        quanta.end()
    }

    #[test]
    fn base64_a_quantum_at_a_time_is_base64_a_character_at_a_time() {
        // Soups of what decides (the alphabet's ends, `=`, line breaks, bytes outside it), every
        // length to 40, from a fixed linear congruential sequence.
        let pieces: [&[u8]; 9] = [b"A", b"z", b"0", b"+", b"/", b"=", b"\r\n", b" ", b"\xff"];
        let mut state: u64 = 1;
        for _ in 0..20_000 {
            state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            let (mut seed, mut body) = (state, Vec::new());
            for _ in 0..(state >> 58) % 40 {
                // Mostly the alphabet, so that whole quanta occur.
                let k = (seed % 16) as usize;
                body.extend_from_slice(pieces[if k < 9 { k } else { k % 5 }]);
                seed = seed.rotate_right(5) ^ state;
            }
            assert_eq!(base64(&body), base64_by_characters(&body), "{body:?}");
        }
    }

    #[test]
    fn base64_mends_padding_as_the_stdlib_does() {
        assert_eq!(base64(b"aGk=\nignored"), Base64::Whole(b"hi".to_vec()));
        assert_eq!(base64(b"aGk"), Base64::Unpadded(b"hi".to_vec()));
        assert_eq!(base64(b"aGkhA"), Base64::BadLength);
        assert_eq!(base64(b"a=Gk=="), Base64::Whole(b"hi".to_vec()));
    }
}
