//! Little-endian fields read in order from a byte slice, for the readers of
//! checkpoints and sequence files. Reading past the end gives the reader's
//! own error, never a panic.

/// A position in `bytes`; every read past the end returns `short`.
pub(super) struct Fields<'a, E> {
    bytes: &'a [u8],
    at: usize,
    short: E,
}

impl<'a, E: Clone> Fields<'a, E> {
    /// Reads `bytes` from offset `at`; `short` is the error for a read past
    /// the end.
    pub(super) fn new(bytes: &'a [u8], at: usize, short: E) -> Fields<'a, E> {
        Fields { bytes, at, short }
    }

    /// The next `n` bytes.
    pub(super) fn take(&mut self, n: usize) -> Result<&'a [u8], E> {
        let end = self
            .at
            .checked_add(n)
            .filter(|&e| e <= self.bytes.len())
            .ok_or_else(|| self.short.clone())?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }

    pub(super) fn u8(&mut self) -> Result<u8, E> {
        Ok(self.take(1)?[0])
    }

    pub(super) fn u32(&mut self) -> Result<u32, E> {
        Ok(u32::from_le_bytes(
            self.take(4)?.try_into().expect("4 bytes"),
        ))
    }

    pub(super) fn u64(&mut self) -> Result<u64, E> {
        Ok(u64::from_le_bytes(
            self.take(8)?.try_into().expect("8 bytes"),
        ))
    }

    /// The offset of the next read.
    pub(super) fn at(&self) -> usize {
        self.at
    }

    /// The bytes not read yet.
    pub(super) fn rest(&self) -> &'a [u8] {
        self.bytes.get(self.at..).unwrap_or(&[])
    }
}
