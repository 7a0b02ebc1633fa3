//! Bit strings packed little-endian, as both gnubg keys are: the first bit of
//! the string is the least significant bit of the first byte. The IDs'
//! own encoders pack whole words at once; this writer, a bit at a time,
//! is what their tests build keys with to check them.

/// Appends bits to a fixed-size key.
pub(crate) struct BitWriter<const N: usize> {
    bytes: [u8; N],
    len: usize,
}

impl<const N: usize> BitWriter<N> {
    pub(crate) fn new() -> Self {
        BitWriter {
            bytes: [0; N],
            len: 0,
        }
    }

    /// Appends one bit. Bits past the key's end are dropped; callers write
    /// only what fits (a valid board takes at most 80 bits).
    pub(crate) fn push(&mut self, bit: bool) {
        if self.len < N * 8 {
            if bit {
                self.bytes[self.len / 8] |= 1 << (self.len % 8);
            }
            self.len += 1;
        }
    }

    /// Appends `value` in `width` bits, least significant first.
    pub(crate) fn push_field(&mut self, value: u32, width: u32) {
        for i in 0..width {
            self.push(value >> i & 1 == 1);
        }
    }

    /// Appends `count` ones and a zero: one point of a Position ID.
    pub(crate) fn push_run(&mut self, count: u8) {
        for _ in 0..count {
            self.push(true);
        }
        self.push(false);
    }

    pub(crate) fn into_bytes(self) -> [u8; N] {
        self.bytes
    }
}

impl<const N: usize> Default for BitWriter<N> {
    fn default() -> Self {
        Self::new()
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
    }
}
