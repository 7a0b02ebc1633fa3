//! Random dice from the operating system's random source, for the runtime
//! (the reducer only asks for them, as an effect).

/// Two fair dice, each 1–6.
pub(crate) fn roll() -> Result<[u8; 2], DiceError> {
    let mut dice = [0u8; 2];
    let mut filled = 0;
    // Rejection sampling keeps the dice fair: 252 is the largest multiple
    // of 6 that fits in a byte.
    for _ in 0..64 {
        let mut bytes = [0u8; 8];
        getrandom::fill(&mut bytes).map_err(DiceError::Source)?;
        for b in bytes {
            if b < 252 && filled < 2 {
                dice[filled] = b % 6 + 1;
                filled += 1;
            }
        }
        if filled == 2 {
            return Ok(dice);
        }
    }
    Err(DiceError::NoUsableBytes)
}

/// Why no dice came: the operating system's random source failed (its
/// words), or gave 64 rounds of bytes all rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DiceError {
    #[error("the random source failed: {0}")]
    Source(getrandom::Error),
    #[error("the random source gave no usable bytes")]
    NoUsableBytes,
}

#[cfg(test)]
mod tests {
    #[test]
    fn dice_are_one_to_six_and_all_faces_come_up() {
        let mut seen = [false; 7];
        for _ in 0..500 {
            let [a, b] = super::roll().unwrap();
            assert!((1..=6).contains(&a) && (1..=6).contains(&b));
            seen[usize::from(a)] = true;
            seen[usize::from(b)] = true;
        }
        assert!(seen[1..].iter().all(|&s| s));
    }
}
