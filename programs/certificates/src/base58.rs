//! Base58 (Bitcoin alphabet) of 32-byte keys, to check the `record` field of the NFT metadata.
//!
//! `is_encoding_of` (used on chain) decodes the text five characters at a time into eight 32-bit
//! limbs (each multiply-add fits in u64) and compares: about half the cost of encoding, which
//! needs a 256-bit division per five digits. `encode32` is the reference it is tested against.

const ALPHABET: &[u8; 58] = b"123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
const BASE_POW5: u64 = 58 * 58 * 58 * 58 * 58; // 656,356,768 < 2^30
/// A 32-byte value has at most 44 base58 characters.
pub const MAX_LEN: usize = 44;

/// Digit value of each ASCII character; `INVALID` for characters outside the alphabet.
const INVALID: u8 = 0xFF;
const DECODE: [u8; 128] = {
    let mut table = [INVALID; 128];
    let mut i = 0;
    while i < ALPHABET.len() {
        table[ALPHABET[i] as usize] = i as u8;
        i += 1;
    }
    table
};

/// True when `text` is exactly the (canonical) base58 encoding of `key`.
///
/// Canonical because the leading '1's must match the key's leading zero bytes one for one (so the
/// digits that follow never start with a zero digit) and the value must equal the key's.
pub fn is_encoding_of(text: &[u8], key: &[u8; 32]) -> bool {
    if text.len() > MAX_LEN {
        return false;
    }
    let zeros = key.iter().take_while(|b| **b == 0).count();
    let ones = text.iter().take_while(|c| **c == b'1').count();
    if ones != zeros {
        return false;
    }
    let digits = &text[ones..];
    // Big-endian limbs of the value; limbs[7] is the least significant.
    let mut limbs = [0u32; 8];
    // A shorter first chunk, then chunks of five: value = value * 58^len(chunk) + chunk.
    let mut start = 0;
    let mut end = match digits.len() % 5 {
        0 => 5,
        head => head,
    };
    while start < digits.len() {
        let (mut chunk, mut scale) = (0u64, 1u64);
        for &c in &digits[start..end.min(digits.len())] {
            let digit = match DECODE.get(c as usize) {
                Some(&d) if d != INVALID => d,
                _ => return false,
            };
            // chunk < 58^5 < 2^30 and scale ≤ 58^5: no overflow, so no checked arithmetic.
            chunk = chunk.wrapping_mul(58).wrapping_add(digit as u64);
            scale = scale.wrapping_mul(58);
        }
        let mut carry = chunk;
        for limb in limbs.iter_mut().rev() {
            // < 2^32 * 2^30 + 2^32: fits in u64.
            let t = (*limb as u64).wrapping_mul(scale).wrapping_add(carry);
            *limb = t as u32;
            carry = t >> 32;
        }
        if carry != 0 {
            return false; // more than 256 bits
        }
        start = end;
        end += 5;
    }
    limbs
        .iter()
        .zip(key.chunks_exact(4))
        .all(|(limb, bytes)| *limb == u32::from_be_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]))
}

/// Encodes `bytes` into `out`; returns the number of characters written.
pub fn encode32(bytes: &[u8; 32], out: &mut [u8; MAX_LEN]) -> usize {
    // Opaque divisors: SBPF divides natively in one instruction (1 CU), whereas LLVM expands a
    // constant divisor into a multiply-and-shift sequence several instructions long.
    let base_pow5 = core::hint::black_box(BASE_POW5);
    let base = core::hint::black_box(58u64);
    let mut limbs = [0u32; 8];
    for (limb, chunk) in limbs.iter_mut().zip(bytes.chunks_exact(4)) {
        *limb = u32::from_be_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
    }
    // Digits, least significant first; 9 passes × 5 digits cover 2^256.
    let mut digits = [0u8; 45];
    let mut count = 0;
    let mut first = 0; // first non-zero limb
    loop {
        while first < limbs.len() && limbs[first] == 0 {
            first += 1;
        }
        if first == limbs.len() {
            break;
        }
        let mut rem = 0u64;
        for limb in limbs[first..].iter_mut() {
            let cur = (rem << 32) | *limb as u64;
            *limb = (cur / base_pow5) as u32;
            rem = cur % base_pow5;
        }
        for _ in 0..5 {
            digits[count] = (rem % base) as u8;
            rem /= base;
            count += 1;
        }
    }
    // The last pass may leave high zero digits; leading zero bytes become '1's instead.
    while count > 0 && digits[count - 1] == 0 {
        count -= 1;
    }
    let zeros = bytes.iter().take_while(|b| **b == 0).count();
    let mut len = 0;
    for _ in 0..zeros {
        out[len] = b'1';
        len += 1;
    }
    for i in (0..count).rev() {
        out[len] = ALPHABET[digits[i] as usize];
        len += 1;
    }
    len
}

#[cfg(test)]
mod tests {
    use super::*;

    fn enc(bytes: [u8; 32]) -> std::string::String {
        let mut out = [0u8; MAX_LEN];
        let len = encode32(&bytes, &mut out);
        std::string::String::from_utf8(out[..len].to_vec()).unwrap()
    }

    #[test]
    fn known_keys() {
        assert_eq!(enc([0; 32]), "11111111111111111111111111111111");
        assert_eq!(enc(crate::TOKEN_2022_PROGRAM_ID), "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb");
        assert_eq!(enc([0xff; 32]), "JEKNVnkbo3jma5nREBBJCDoXFVeKkD56V3xKrvRmWxFG");
        let mut one = [0u8; 32];
        one[31] = 1;
        assert_eq!(enc(one), "11111111111111111111111111111112");
        let mut leading = [7u8; 32];
        leading[0] = 0;
        leading[1] = 0;
        assert!(enc(leading).starts_with("11"));
    }

    #[test]
    fn recognises_exactly_the_canonical_encoding() {
        let mut seed = 0x0bad_cafe_dead_beefu64;
        for round in 0..300 {
            let mut key = [0u8; 32];
            for b in key.iter_mut() {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                *b = seed as u8;
            }
            for b in key.iter_mut().take(round % 4) {
                *b = 0;
            }
            let text = enc(key);
            assert!(is_encoding_of(text.as_bytes(), &key), "{text}");
            // One more or one fewer leading '1'.
            assert!(!is_encoding_of(std::format!("1{text}").as_bytes(), &key));
            if let Some(rest) = text.strip_prefix('1') {
                assert!(!is_encoding_of(rest.as_bytes(), &key));
            }
            // Any single changed character.
            let mut bytes = text.clone().into_bytes();
            let i = round % bytes.len();
            bytes[i] = if bytes[i] == b'z' { b'y' } else { b'z' };
            assert!(!is_encoding_of(&bytes, &key));
            // A different key.
            let mut other = key;
            other[31] ^= 1;
            assert!(!is_encoding_of(text.as_bytes(), &other));
        }
        assert!(is_encoding_of(b"11111111111111111111111111111111", &[0; 32]));
        assert!(is_encoding_of(b"TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb", &crate::TOKEN_2022_PROGRAM_ID));
        // Characters outside the alphabet, overflow beyond 256 bits, too long, empty.
        assert!(!is_encoding_of(b"TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuE0", &crate::TOKEN_2022_PROGRAM_ID));
        assert!(!is_encoding_of(b"TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuE\xff".as_slice(), &crate::TOKEN_2022_PROGRAM_ID));
        let max = enc([0xff; 32]);
        assert_eq!(max, "JEKNVnkbo3jma5nREBBJCDoXFVeKkD56V3xKrvRmWxFG");
        assert!(!is_encoding_of(b"zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz", &[0xff; 32]));
        assert!(!is_encoding_of(b"JEKNVnkbo3jma5nREBBJCDoXFVeKkD56V3xKrvRmWxFGG", &[0xff; 32]));
        assert!(!is_encoding_of(b"", &[1; 32]));
        // A value that wraps modulo 2^256 must not match the wrapped key.
        let mut one = [0u8; 32];
        one[31] = 1;
        assert!(!is_encoding_of(b"JEKNVnkbo3jma5nREBBJCDoXFVeKkD56V3xKrvRmWxFH", &[0; 32]));
        assert!(!is_encoding_of(b"JEKNVnkbo3jma5nREBBJCDoXFVeKkD56V3xKrvRmWxFH", &one));
    }

    #[test]
    fn matches_a_reference_encoder() {
        // Byte-wise reference algorithm over pseudo-random keys.
        let mut seed = 0x1234_5678_9abc_def0u64;
        for _ in 0..200 {
            let mut key = [0u8; 32];
            for b in key.iter_mut() {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                *b = seed as u8;
            }
            if seed.is_multiple_of(5) {
                key[0] = 0;
            }
            assert_eq!(enc(key), reference(&key));
        }
    }

    fn reference(bytes: &[u8]) -> std::string::String {
        let mut digits: std::vec::Vec<u8> = std::vec::Vec::new();
        for &b in bytes {
            let mut carry = b as u32;
            for d in digits.iter_mut() {
                carry += (*d as u32) << 8;
                *d = (carry % 58) as u8;
                carry /= 58;
            }
            while carry > 0 {
                digits.push((carry % 58) as u8);
                carry /= 58;
            }
        }
        let mut s = std::string::String::new();
        for &b in bytes {
            if b != 0 {
                break;
            }
            s.push('1');
        }
        for &d in digits.iter().rev() {
            s.push(ALPHABET[d as usize] as char);
        }
        s
    }
}
