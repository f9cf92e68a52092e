//! The limits that keep a slow or hostile client from holding the server: the server applies
//! them to connections, the API to bodies.

use std::time::Duration;

/// How long a client may take to send a request's headers, or to start the next one.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(5);
/// How long a client may take to send a request's body.
pub const BODY_TIMEOUT: Duration = Duration::from_secs(10);
/// Connections open at once, at most.
pub const MAX_CONNECTIONS: usize = 128;
/// How long connections may take to finish their answers once the server stops.
pub const GRACE: Duration = Duration::from_millis(600);
