//! Words of messages that every crate phrases the same way.

/// `n` and the noun, singular or plural as `n` asks: `counted(1, "axis", "axes")` is `1 axis`.
pub fn counted(n: usize, singular: &str, plural: &str) -> String {
    format!("{n} {}", if n == 1 { singular } else { plural })
}
