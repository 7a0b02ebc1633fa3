//! Bit strings packed little-endian, as both gnubg keys are: the first bit of
//! the string is the least significant bit of the first byte.

/// Appends bits to a fixed-size key.
pub struct BitWriter<const N: usize> {
    bytes: [u8; N],
    len: usize,
}

impl<const N: usize> BitWriter<N> {
    pub fn new() -> Self {
        BitWriter {
            bytes: [0; N],
            len: 0,
        }
    }

    /// Appends one bit. Bits past the key's end are dropped; callers write
    /// only what fits (a valid board takes at most 80 bits).
    pub fn push(&mut self, bit: bool) {
        if self.len < N * 8 {
            if bit {
                self.bytes[self.len / 8] |= 1 << (self.len % 8);
            }
            self.len += 1;
        }
    }

    /// Appends `value` in `width` bits, least significant first.
    pub fn push_field(&mut self, value: u32, width: u32) {
        for i in 0..width {
            self.push(value >> i & 1 == 1);
        }
    }

    /// Appends `count` ones and a zero: one point of a Position ID.
    pub fn push_run(&mut self, count: u8) {
        for _ in 0..count {
            self.push(true);
        }
        self.push(false);
    }

    pub fn into_bytes(self) -> [u8; N] {
        self.bytes
    }
}

impl<const N: usize> Default for BitWriter<N> {
    fn default() -> Self {
        Self::new()
    }
}

/// Reads bits from a key in the order they were written.
pub struct BitReader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> BitReader<'a> {
    pub fn new(bytes: &'a [u8]) -> Self {
        BitReader { bytes, pos: 0 }
    }

    /// Index of the next bit (0-based).
    pub fn position(&self) -> usize {
        self.pos
    }

    pub fn bits_left(&self) -> usize {
        self.bytes.len() * 8 - self.pos
    }

    /// The next bit, or None at the end of the key.
    pub fn next_bit(&mut self) -> Option<bool> {
        let byte = *self.bytes.get(self.pos / 8)?;
        let bit = byte >> (self.pos % 8) & 1 == 1;
        self.pos += 1;
        Some(bit)
    }

    /// The next `width` bits as a number, least significant first; bits past
    /// the end read as zero.
    pub fn field(&mut self, width: u32) -> u32 {
        (0..width).fold(0, |acc, i| {
            acc | (u32::from(self.next_bit().unwrap_or(false)) << i)
        })
    }

    /// The position (1-based, as the documents count) of the first set bit
    /// from here to the end, if any.
    pub fn first_set_bit(&mut self) -> Option<usize> {
        while let Some(bit) = self.next_bit() {
            if bit {
                return Some(self.pos);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_round_trip_least_significant_bit_first() {
        let mut w = BitWriter::<2>::new();
        w.push_field(0b1011, 4);
        w.push_field(3, 2);
        let bytes = w.into_bytes();
        assert_eq!(bytes, [0b0011_1011, 0]);
        let mut r = BitReader::new(&bytes);
        assert_eq!(r.field(4), 0b1011);
        assert_eq!(r.field(2), 3);
        assert_eq!(r.first_set_bit(), None);
    }
}
