//! Coordinates: what every position, offset and size is made of.

/// A coordinate on one axis of a board, or a heap size.
pub type Coord = i64;

/// Coordinates, and the components of offsets and directions, lie below this bound (2^31) in
/// absolute value: far beyond any table that fits in memory, and small enough that every sum and
/// product of two of them stays inside [`Coord`].
pub const COORD_LIMIT: Coord = 1 << 31;
