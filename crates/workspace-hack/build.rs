//! Nothing to build: without a build script cargo would ignore the `[build-dependencies]` whose
//! features this crate exists to unify (see `Cargo.toml`).
fn main() {}
