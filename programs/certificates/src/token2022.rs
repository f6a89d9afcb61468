//! Read-only checks of the Token-2022 accounts of a certificate NFT: the mint (base layout,
//! NonTransferable, MetadataPointer and TokenMetadata TLV extensions) and the holder's token
//! account. Nothing here trusts the client: every field that makes the NFT *this certificate's*
//! soulbound, fixed-supply token is read from the account data.

use crate::base58;
use crate::borsh::Reader;
use crate::error::{Error, Result};
use crate::{Pubkey, ZERO_KEY};

/// Base mint and token-account sizes; extended accounts are padded to the account size and then
/// carry one AccountType byte before the TLV entries.
const MINT_BASE_LEN: usize = 82;
const ACCOUNT_BASE_LEN: usize = 165;
const ACCOUNT_TYPE_OFFSET: usize = ACCOUNT_BASE_LEN;
const TLV_OFFSET: usize = ACCOUNT_BASE_LEN + 1;
const ACCOUNT_TYPE_MINT: u8 = 1;
const ACCOUNT_TYPE_ACCOUNT: u8 = 2;

// Extension types.
const EXT_UNINITIALIZED: u16 = 0;
const EXT_NON_TRANSFERABLE: u16 = 9;
const EXT_METADATA_POINTER: u16 = 18;
const EXT_TOKEN_METADATA: u16 = 19;

/// Token account state `Initialized` (1); 2 would be frozen.
const TOKEN_STATE_INITIALIZED: u8 = 1;

/// Lowercase hex of every byte value, so encoding a byte is one table load.
const HEX_PAIRS: [[u8; 2]; 256] = {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut table = [[0u8; 2]; 256];
    let mut i = 0;
    while i < 256 {
        table[i] = [DIGITS[i >> 4], DIGITS[i & 15]];
        i += 1;
    }
    table
};

/// What the mint must carry: this certificate's hash and address.
pub struct Expected<'a> {
    pub mint: &'a Pubkey,
    pub hash: &'a [u8; 32],
    pub certificate: &'a Pubkey,
}

/// The extensions of interest, found by one pass over the TLV entries.
#[derive(Default)]
struct Extensions<'a> {
    non_transferable: bool,
    metadata_pointer: Option<&'a [u8]>,
    token_metadata: Option<&'a [u8]>,
}

fn parse_extensions(tlv: &[u8]) -> Result<Extensions<'_>> {
    let mut found = Extensions::default();
    let mut rest = tlv;
    while rest.len() >= 4 {
        let ty = u16::from_le_bytes([rest[0], rest[1]]);
        let len = u16::from_le_bytes([rest[2], rest[3]]) as usize;
        if ty == EXT_UNINITIALIZED {
            break;
        }
        let value = rest.get(4..4 + len).ok_or(Error::InvalidMint)?;
        match ty {
            EXT_NON_TRANSFERABLE => found.non_transferable = true,
            EXT_METADATA_POINTER => found.metadata_pointer = Some(value),
            EXT_TOKEN_METADATA => found.token_metadata = Some(value),
            _ => {}
        }
        rest = &rest[4 + len..];
    }
    Ok(found)
}

/// Checks a Token-2022 mint's data (the caller checks the account's owner).
pub fn check_mint(data: &[u8], expected: &Expected) -> Result<()> {
    if data.len() < MINT_BASE_LEN || data[45] != 1 {
        return Err(Error::InvalidMint);
    }
    if data.len() > MINT_BASE_LEN && (data.len() <= TLV_OFFSET || data[ACCOUNT_TYPE_OFFSET] != ACCOUNT_TYPE_MINT) {
        return Err(Error::InvalidMint);
    }
    // COption tags of mint_authority (offset 0) and freeze_authority (offset 46): 0 = None.
    if data[0..4] != [0; 4] || data[46..50] != [0; 4] {
        return Err(Error::MintAuthorityNotRevoked);
    }
    let supply = u64::from_le_bytes([data[36], data[37], data[38], data[39], data[40], data[41], data[42], data[43]]);
    if supply != 1 || data[44] != 0 {
        return Err(Error::InvalidSupply);
    }
    let extensions = match data.get(TLV_OFFSET..) {
        Some(tlv) => parse_extensions(tlv)?,
        None => Extensions::default(),
    };
    if !extensions.non_transferable {
        return Err(Error::MintNotNonTransferable);
    }
    // MetadataPointer: authority (zero = none), metadata address = the mint itself.
    match extensions.metadata_pointer {
        Some(pointer) if pointer.len() == 64 && bytes_eq(&pointer[..32], &ZERO_KEY) && bytes_eq(&pointer[32..], expected.mint) => {}
        _ => return Err(Error::MetadataMismatch),
    }
    let metadata = extensions.token_metadata.ok_or(Error::MetadataMismatch)?;
    check_metadata(metadata, expected).map_err(|_| Error::MetadataMismatch)
}

/// TokenMetadata: update_authority (zero = none), mint, name, symbol, uri, then
/// additional_metadata `Vec<(String, String)>`, which must hold `sha256` = lowercase hex of the
/// hash and `record` = the certificate address in base58.
fn check_metadata(value: &[u8], expected: &Expected) -> Result<()> {
    let mut reader = Reader::new(value);
    if *reader.pubkey()? != ZERO_KEY || reader.pubkey()? != expected.mint {
        return Err(Error::MetadataMismatch);
    }
    reader.string_bytes()?; // name
    reader.string_bytes()?; // symbol
    reader.string_bytes()?; // uri
    let (mut hash_ok, mut record_ok) = (false, false);
    for _ in 0..reader.u32()? {
        let key = reader.string_bytes()?;
        let value = reader.string_bytes()?;
        if bytes_eq(key, b"sha256") {
            if !is_hex_of(value, expected.hash) {
                return Err(Error::MetadataMismatch);
            }
            hash_ok = true;
        } else if bytes_eq(key, b"record") {
            if !base58::is_encoding_of(value, expected.certificate) {
                return Err(Error::MetadataMismatch);
            }
            record_ok = true;
        }
    }
    if hash_ok && record_ok {
        Ok(())
    } else {
        Err(Error::MetadataMismatch)
    }
}

/// Byte-slice equality, eight bytes per step (slice `==` becomes a call to the `memcmp` compiled
/// into the program, which takes ~10 instructions per byte).
fn bytes_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let (mut words_a, mut words_b) = (a.chunks_exact(8), b.chunks_exact(8));
    for (x, y) in (&mut words_a).zip(&mut words_b) {
        let x = u64::from_le_bytes([x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7]]);
        let y = u64::from_le_bytes([y[0], y[1], y[2], y[3], y[4], y[5], y[6], y[7]]);
        if x != y {
            return false;
        }
    }
    words_a.remainder().iter().zip(words_b.remainder()).all(|(x, y)| x == y)
}

/// True when `text` is the 64-character lowercase hex of `bytes`.
fn is_hex_of(text: &[u8], bytes: &[u8; 32]) -> bool {
    let mut hex = [[0u8; 2]; 32];
    for (pair, b) in hex.iter_mut().zip(bytes) {
        *pair = HEX_PAIRS[*b as usize];
    }
    bytes_eq(text, hex.as_flattened())
}

/// Checks a Token-2022 token account's data (the caller checks the account's owner): it holds
/// exactly the one token of `mint` for `holder`.
pub fn check_token_account(data: &[u8], mint: &Pubkey, holder: &Pubkey) -> Result<()> {
    if data.len() < ACCOUNT_BASE_LEN
        || (data.len() > ACCOUNT_BASE_LEN && data[ACCOUNT_TYPE_OFFSET] != ACCOUNT_TYPE_ACCOUNT)
        || !bytes_eq(&data[..32], mint)
        || !bytes_eq(&data[32..64], holder)
        || !bytes_eq(&data[64..72], &1u64.to_le_bytes())
        || data[108] != TOKEN_STATE_INITIALIZED
    {
        return Err(Error::InvalidTokenAccount);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec::Vec;

    const MINT: Pubkey = [5; 32];
    const CERT: Pubkey = [6; 32];
    const HASH: [u8; 32] = [0xab; 32];

    fn borsh_str(out: &mut Vec<u8>, s: &[u8]) {
        out.extend_from_slice(&(s.len() as u32).to_le_bytes());
        out.extend_from_slice(s);
    }

    fn tlv(out: &mut Vec<u8>, ty: u16, value: &[u8]) {
        out.extend_from_slice(&ty.to_le_bytes());
        out.extend_from_slice(&(value.len() as u16).to_le_bytes());
        out.extend_from_slice(value);
    }

    fn metadata(update_authority: Pubkey, fields: &[(&[u8], &[u8])]) -> Vec<u8> {
        let mut m = Vec::new();
        m.extend_from_slice(&update_authority);
        m.extend_from_slice(&MINT);
        borsh_str(&mut m, b"Attesta certificate");
        borsh_str(&mut m, b"ATST");
        borsh_str(&mut m, b"https://example.org/x.json");
        m.extend_from_slice(&(fields.len() as u32).to_le_bytes());
        for (k, v) in fields {
            borsh_str(&mut m, k);
            borsh_str(&mut m, v);
        }
        m
    }

    fn good_fields() -> (std::string::String, std::string::String) {
        let hex: std::string::String = HASH.iter().map(|b| std::format!("{:02x}", b)).collect();
        let mut out = [0u8; base58::MAX_LEN];
        let len = base58::encode32(&CERT, &mut out);
        (hex, std::string::String::from_utf8(out[..len].to_vec()).unwrap())
    }

    fn mint(meta: &[u8], with_nt: bool) -> Vec<u8> {
        let mut d = std::vec![0u8; 165];
        d[36] = 1; // supply 1
        d[45] = 1; // initialized
        d.push(ACCOUNT_TYPE_MINT);
        if with_nt {
            tlv(&mut d, EXT_NON_TRANSFERABLE, &[]);
        }
        let mut pointer = [0u8; 64];
        pointer[32..].copy_from_slice(&MINT);
        tlv(&mut d, EXT_METADATA_POINTER, &pointer);
        tlv(&mut d, EXT_TOKEN_METADATA, meta);
        d
    }

    fn expected() -> Expected<'static> {
        Expected { mint: &MINT, hash: &HASH, certificate: &CERT }
    }

    #[test]
    fn accepts_the_certificate_mint() {
        let (hex, record) = good_fields();
        let meta = metadata(ZERO_KEY, &[(b"issuer", b"x"), (b"sha256", hex.as_bytes()), (b"record", record.as_bytes())]);
        check_mint(&mint(&meta, true), &expected()).unwrap();
    }

    #[test]
    fn rejects_each_deviation() {
        let (hex, record) = good_fields();
        let fields: [(&[u8], &[u8]); 2] = [(b"sha256", hex.as_bytes()), (b"record", record.as_bytes())];
        let good = mint(&metadata(ZERO_KEY, &fields), true);

        let mut d = good.clone();
        d[0] = 1; // mint authority still set
        assert_eq!(check_mint(&d, &expected()), Err(Error::MintAuthorityNotRevoked));
        let mut d = good.clone();
        d[46] = 1; // freeze authority
        assert_eq!(check_mint(&d, &expected()), Err(Error::MintAuthorityNotRevoked));
        let mut d = good.clone();
        d[36] = 2;
        assert_eq!(check_mint(&d, &expected()), Err(Error::InvalidSupply));
        let mut d = good.clone();
        d[44] = 6; // decimals
        assert_eq!(check_mint(&d, &expected()), Err(Error::InvalidSupply));
        let mut d = good.clone();
        d[165] = ACCOUNT_TYPE_ACCOUNT;
        assert_eq!(check_mint(&d, &expected()), Err(Error::InvalidMint));
        assert_eq!(check_mint(&good[..50], &expected()), Err(Error::InvalidMint));
        assert_eq!(check_mint(&mint(&metadata(ZERO_KEY, &fields), false), &expected()), Err(Error::MintNotNonTransferable));
        // Metadata naming another certificate, another hash, or keeping an update authority.
        let other: [(&[u8], &[u8]); 2] = [(b"sha256", hex.as_bytes()), (b"record", b"11111111111111111111111111111111")];
        assert_eq!(check_mint(&mint(&metadata(ZERO_KEY, &other), true), &expected()), Err(Error::MetadataMismatch));
        let upper = hex.to_uppercase();
        let other: [(&[u8], &[u8]); 2] = [(b"sha256", upper.as_bytes()), (b"record", record.as_bytes())];
        assert_eq!(check_mint(&mint(&metadata(ZERO_KEY, &other), true), &expected()), Err(Error::MetadataMismatch));
        let missing: [(&[u8], &[u8]); 1] = [(b"sha256", hex.as_bytes())];
        assert_eq!(check_mint(&mint(&metadata(ZERO_KEY, &missing), true), &expected()), Err(Error::MetadataMismatch));
        assert_eq!(check_mint(&mint(&metadata([1; 32], &fields), true), &expected()), Err(Error::MetadataMismatch));
        // A pointer to another metadata account.
        let mut d = good.clone();
        d[166 + 4 + 4 + 32] ^= 1;
        assert_eq!(check_mint(&d, &expected()), Err(Error::MetadataMismatch));
        // Truncated TLV.
        assert_eq!(check_mint(&good[..good.len() - 3], &expected()), Err(Error::InvalidMint));
    }

    #[test]
    fn token_account() {
        let holder = [8u8; 32];
        let mut d = std::vec![0u8; 165];
        d[..32].copy_from_slice(&MINT);
        d[32..64].copy_from_slice(&holder);
        d[64] = 1;
        d[108] = 1;
        d.push(ACCOUNT_TYPE_ACCOUNT);
        tlv(&mut d, 13, &[]);
        check_token_account(&d, &MINT, &holder).unwrap();
        assert_eq!(check_token_account(&d, &MINT, &[9; 32]), Err(Error::InvalidTokenAccount));
        assert_eq!(check_token_account(&d, &[9; 32], &holder), Err(Error::InvalidTokenAccount));
        let mut e = d.clone();
        e[64] = 0;
        assert_eq!(check_token_account(&e, &MINT, &holder), Err(Error::InvalidTokenAccount));
        let mut e = d.clone();
        e[108] = 2; // frozen
        assert_eq!(check_token_account(&e, &MINT, &holder), Err(Error::InvalidTokenAccount));
        assert_eq!(check_token_account(&d[..100], &MINT, &holder), Err(Error::InvalidTokenAccount));
    }
}
