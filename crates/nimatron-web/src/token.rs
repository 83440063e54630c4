//! Ids and seat tokens from the operating system's secure random source
//! (`getrandom`), never from the library's seedable generator.

/// Random bytes from the OS. Only a broken OS random source fails here,
/// which is no request's fault and leaves nothing safe to do.
fn random_bytes<const N: usize>() -> [u8; N] {
    let mut buf = [0u8; N];
    getrandom::fill(&mut buf).expect("the operating system's random source failed");
    buf
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A seat token or invite code: 128 random bits as 32 hex digits.
pub fn new_token() -> String {
    hex(&random_bytes::<16>())
}

/// A game id: 64 random bits as 16 hex digits.
pub fn new_id() -> String {
    hex(&random_bytes::<8>())
}

/// Whether a string could be a game id (so junk never reaches the database).
pub fn plausible_id(id: &str) -> bool {
    id.len() == 16 && id.bytes().all(|b| b.is_ascii_hexdigit())
}

/// A random seed.
pub fn random_u64() -> u64 {
    u64::from_le_bytes(random_bytes::<8>())
}

/// Compare a presented secret with the stored one in time that does not
/// depend on where they first differ.
pub fn same(presented: &str, stored: &str) -> bool {
    let (a, b) = (presented.as_bytes(), stored.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_long_distinct_and_hex() {
        let a = new_token();
        let b = new_token();
        assert_eq!(a.len(), 32);
        assert!(a.bytes().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
        assert!(plausible_id(&new_id()));
        assert!(!plausible_id("../etc/passwd"));
        assert!(same(&a, &a.clone()));
        assert!(!same(&a, &b));
        assert!(!same(&a, &a[..31]));
    }
}
