//! A Borsh reader over instruction data (and Token-2022 metadata): every short or malformed
//! read is `InvalidInstructionData`, never a panic.

use crate::error::{Error, Result};
use crate::Pubkey;

pub struct Reader<'a> {
    data: &'a [u8],
}

impl<'a> Reader<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Self { data }
    }

    /// The next `n` bytes.
    pub fn bytes(&mut self, n: usize) -> Result<&'a [u8]> {
        if n > self.data.len() {
            return Err(Error::InvalidInstructionData);
        }
        let (head, tail) = self.data.split_at(n);
        self.data = tail;
        Ok(head)
    }

    pub fn array<const N: usize>(&mut self) -> Result<&'a [u8; N]> {
        let bytes = self.bytes(N)?;
        bytes.try_into().map_err(|_| Error::InvalidInstructionData)
    }

    pub fn u8(&mut self) -> Result<u8> {
        Ok(self.array::<1>()?[0])
    }

    /// Borsh bool: exactly 0 or 1.
    pub fn bool(&mut self) -> Result<bool> {
        match self.u8()? {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(Error::InvalidInstructionData),
        }
    }

    pub fn u32(&mut self) -> Result<u32> {
        Ok(u32::from_le_bytes(*self.array::<4>()?))
    }

    pub fn i64(&mut self) -> Result<i64> {
        Ok(i64::from_le_bytes(*self.array::<8>()?))
    }

    pub fn pubkey(&mut self) -> Result<&'a Pubkey> {
        self.array::<32>()
    }

    /// A Borsh string's bytes (u32 length prefix), without UTF-8 validation.
    pub fn string_bytes(&mut self) -> Result<&'a [u8]> {
        let len = self.u32()? as usize;
        self.bytes(len)
    }

    /// A Borsh string, which must be valid UTF-8.
    pub fn string(&mut self) -> Result<&'a str> {
        core::str::from_utf8(self.string_bytes()?).map_err(|_| Error::InvalidInstructionData)
    }

    /// Ends parsing: trailing bytes mean the caller sent something else.
    pub fn finish(self) -> Result<()> {
        if self.data.is_empty() {
            Ok(())
        } else {
            Err(Error::InvalidInstructionData)
        }
    }
}

/// Writes fields in Borsh order into a fixed buffer (events, account strings).
pub struct Writer<const N: usize> {
    buf: [u8; N],
    len: usize,
}

impl<const N: usize> Writer<N> {
    pub fn new() -> Self {
        Self { buf: [0; N], len: 0 }
    }

    /// Appends bytes; the buffers are sized for the largest value, so overflow is a bug (panic).
    pub fn put(&mut self, bytes: &[u8]) -> &mut Self {
        let end = self.len + bytes.len();
        self.buf[self.len..end].copy_from_slice(bytes);
        self.len = end;
        self
    }

    pub fn u8(&mut self, value: u8) -> &mut Self {
        self.put(&[value])
    }

    pub fn i64(&mut self, value: i64) -> &mut Self {
        self.put(&value.to_le_bytes())
    }

    /// A Borsh string (u32 length prefix).
    pub fn string(&mut self, bytes: &[u8]) -> &mut Self {
        self.put(&(bytes.len() as u32).to_le_bytes()).put(bytes)
    }

    pub fn as_slice(&self) -> &[u8] {
        &self.buf[..self.len]
    }
}

impl<const N: usize> Default for Writer<N> {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_fields_in_order() {
        let mut data = std::vec::Vec::new();
        data.extend_from_slice(&[7u8; 32]);
        data.push(1);
        data.extend_from_slice(&(-5i64).to_le_bytes());
        data.extend_from_slice(&3u32.to_le_bytes());
        data.extend_from_slice(b"abc");
        let mut r = Reader::new(&data);
        assert_eq!(r.pubkey().unwrap(), &[7u8; 32]);
        assert!(r.bool().unwrap());
        assert_eq!(r.i64().unwrap(), -5);
        assert_eq!(r.string().unwrap(), "abc");
        r.finish().unwrap();
    }

    #[test]
    fn short_or_bad_data_is_a_named_error() {
        assert_eq!(Reader::new(&[1, 2]).i64(), Err(Error::InvalidInstructionData));
        assert_eq!(Reader::new(&[2]).bool(), Err(Error::InvalidInstructionData));
        // Length prefix larger than the data.
        assert_eq!(Reader::new(&[9, 0, 0, 0, b'a']).string(), Err(Error::InvalidInstructionData));
        // Huge length prefix must not overflow.
        assert_eq!(Reader::new(&[0xff, 0xff, 0xff, 0xff]).string(), Err(Error::InvalidInstructionData));
        // Invalid UTF-8.
        assert_eq!(Reader::new(&[1, 0, 0, 0, 0xff]).string(), Err(Error::InvalidInstructionData));
        // Trailing bytes.
        let mut r = Reader::new(&[1, 0]);
        r.u8().unwrap();
        assert_eq!(r.finish(), Err(Error::InvalidInstructionData));
    }

    #[test]
    fn writer_writes_borsh() {
        let mut w = Writer::<32>::new();
        w.u8(1).i64(2).string(b"hi");
        assert_eq!(w.as_slice(), &[1, 2, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, b'h', b'i']);
    }
}
