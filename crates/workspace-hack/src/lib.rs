//! No code: see this crate's `Cargo.toml`. Its dependencies are there for their features alone,
//! so that the release builds of the command line, of the mpi feature and of the Python package
//! compile each shared crate once in one target directory.
