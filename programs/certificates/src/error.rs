//! Every failure is a named error with a code from 6000 (Anchor's offset), logged first as the
//! `AnchorError occurred. ...` line that Anchor's TypeScript client parses.

use crate::syscalls::log;

/// Program errors; the numbers, names and messages are SPEC.md's table and the IDL's `errors`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum Error {
    // 6000..: malformed instructions and accounts.
    InvalidInstruction = 6000,
    InvalidInstructionData = 6001,
    NotEnoughAccounts = 6002,
    MissingSignature = 6003,
    AccountNotWritable = 6004,
    InvalidAccountOwner = 6005,
    InvalidDiscriminator = 6006,
    InvalidPda = 6007,
    AccountAlreadyInitialized = 6008,
    InvalidProgramId = 6009,
    ArithmeticOverflow = 6010,
    AccountDataTooSmall = 6011,
    // 6020..: registry administration and issuers.
    Unauthorized = 6020,
    NotAVerifier = 6021,
    VerifierListFull = 6022,
    VerifierNotFound = 6023,
    InvalidName = 6024,
    InvalidUri = 6025,
    // 6030..: issuer status.
    IssuerNotApproved = 6030,
    IssuerSuspended = 6031,
    InvalidIssuerStatus = 6032,
    // 6040..: certificate lifecycle.
    HashAlreadyAnchored = 6040,
    InvalidCertificateStatus = 6041,
    AlreadyVerified = 6042,
    CertificateRevoked = 6043,
    AlreadyRevoked = 6044,
    CertificateExpired = 6045,
    NotVerified = 6046,
    AlreadyMinted = 6047,
    NotHolder = 6048,
    NotAuthorizedToRevoke = 6049,
    AlreadyConfirmed = 6050,
    InvalidExpiry = 6051,
    InvalidReasonCode = 6052,
    ConfirmationNotRequested = 6053,
    RecordAlreadyNamesHolder = 6054,
    // 6060..: the soulbound Token-2022 mint.
    InvalidMint = 6060,
    MintNotNonTransferable = 6061,
    MintAuthorityNotRevoked = 6062,
    InvalidSupply = 6063,
    MetadataMismatch = 6064,
    InvalidTokenAccount = 6065,
}

impl Error {
    /// The error's name and message, as in SPEC.md.
    pub fn describe(self) -> (&'static str, &'static str) {
        use Error::*;
        match self {
            InvalidInstruction => ("InvalidInstruction", "Unknown instruction discriminator"),
            InvalidInstructionData => ("InvalidInstructionData", "Instruction data could not be decoded"),
            NotEnoughAccounts => ("NotEnoughAccounts", "Not enough accounts were provided"),
            MissingSignature => ("MissingSignature", "A required signer did not sign"),
            AccountNotWritable => ("AccountNotWritable", "An account that must be writable is read-only"),
            InvalidAccountOwner => ("InvalidAccountOwner", "An account is owned by the wrong program"),
            InvalidDiscriminator => ("InvalidDiscriminator", "An account has the wrong type"),
            InvalidPda => ("InvalidPda", "An account is not the expected program address"),
            AccountAlreadyInitialized => ("AccountAlreadyInitialized", "The account already exists"),
            InvalidProgramId => ("InvalidProgramId", "A program account is not the expected program"),
            ArithmeticOverflow => ("ArithmeticOverflow", "Arithmetic overflow"),
            AccountDataTooSmall => ("AccountDataTooSmall", "Account data is too small"),
            Unauthorized => ("Unauthorized", "Only the registry admin may do this"),
            NotAVerifier => ("NotAVerifier", "The signer is not a platform verifier"),
            VerifierListFull => ("VerifierListFull", "The registry already has the maximum number of verifiers"),
            VerifierNotFound => ("VerifierNotFound", "That key is not a verifier"),
            InvalidName => ("InvalidName", "Issuer name must be 1 to 64 bytes"),
            InvalidUri => ("InvalidUri", "Issuer URI must be at most 128 bytes"),
            IssuerNotApproved => ("IssuerNotApproved", "The issuer is not approved"),
            IssuerSuspended => ("IssuerSuspended", "The issuer is suspended"),
            InvalidIssuerStatus => ("InvalidIssuerStatus", "Unknown issuer status"),
            HashAlreadyAnchored => ("HashAlreadyAnchored", "This certificate hash is already anchored"),
            InvalidCertificateStatus => ("InvalidCertificateStatus", "The certificate is not in a state that allows this"),
            AlreadyVerified => ("AlreadyVerified", "The certificate is already verified"),
            CertificateRevoked => ("CertificateRevoked", "The certificate has been revoked"),
            AlreadyRevoked => ("AlreadyRevoked", "The certificate is already revoked"),
            CertificateExpired => ("CertificateExpired", "The certificate has expired"),
            NotVerified => ("NotVerified", "Only verified certificates can be minted"),
            AlreadyMinted => ("AlreadyMinted", "The certificate is already minted"),
            NotHolder => ("NotHolder", "Only the certificate's holder may do this"),
            NotAuthorizedToRevoke => ("NotAuthorizedToRevoke", "Only the issuer, a platform verifier or the admin may revoke"),
            AlreadyConfirmed => ("AlreadyConfirmed", "The certificate is already confirmed by an issuer"),
            InvalidExpiry => ("InvalidExpiry", "Expiry must be zero or in the future"),
            InvalidReasonCode => ("InvalidReasonCode", "A reason code is required"),
            ConfirmationNotRequested => ("ConfirmationNotRequested", "The holder has not asked this issuer to confirm the certificate"),
            RecordAlreadyNamesHolder => ("RecordAlreadyNamesHolder", "The record already names this holder: the holder asks the issuer (request_confirmation), then the issuer confirms (confirm_certificate)"),
            InvalidMint => ("InvalidMint", "The mint is not a valid Token-2022 certificate mint"),
            MintNotNonTransferable => ("MintNotNonTransferable", "The mint is not non-transferable"),
            MintAuthorityNotRevoked => ("MintAuthorityNotRevoked", "The mint still has a mint or freeze authority"),
            InvalidSupply => ("InvalidSupply", "The mint's supply must be exactly 1 with 0 decimals"),
            MetadataMismatch => ("MetadataMismatch", "The mint's metadata does not name this certificate"),
            InvalidTokenAccount => ("InvalidTokenAccount", "The holder's token account does not hold the token"),
        }
    }

    /// Formats the AnchorError log line into `buf`; returns its length.
    pub fn format(self, buf: &mut [u8; 256]) -> usize {
        let (name, message) = self.describe();
        let code = self as u32;
        let digits = [
            b'0' + (code / 1000 % 10) as u8,
            b'0' + (code / 100 % 10) as u8,
            b'0' + (code / 10 % 10) as u8,
            b'0' + (code % 10) as u8,
        ];
        let parts: [&[u8]; 7] = [
            b"AnchorError occurred. Error Code: ",
            name.as_bytes(),
            b". Error Number: ",
            &digits,
            b". Error Message: ",
            message.as_bytes(),
            b".",
        ];
        let mut len = 0;
        for part in parts {
            // Every part is a constant; the longest line (RecordAlreadyNamesHolder, 231 bytes) fits, a test holds it.
            let end = (len + part.len()).min(buf.len());
            buf[len..end].copy_from_slice(&part[..end - len]);
            len = end;
        }
        len
    }

    /// Logs the AnchorError line; cold because it runs once, on the failure path.
    #[cold]
    #[inline(never)]
    pub fn log(self) {
        let mut buf = [0u8; 256];
        let len = self.format(&mut buf);
        log(&buf[..len]);
    }
}

pub type Result<T> = core::result::Result<T, Error>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_longest_line_fits_the_buffer_whole() {
        let mut buf = [0u8; 256];
        let len = Error::RecordAlreadyNamesHolder.format(&mut buf);
        assert!(core::str::from_utf8(&buf[..len]).unwrap().ends_with("then the issuer confirms (confirm_certificate)."));
    }

    #[test]
    fn formats_the_anchor_error_line() {
        let mut buf = [0u8; 256];
        let len = Error::NotHolder.format(&mut buf);
        assert_eq!(
            core::str::from_utf8(&buf[..len]).unwrap(),
            "AnchorError occurred. Error Code: NotHolder. Error Number: 6048. Error Message: Only the certificate's holder may do this."
        );
    }
}
