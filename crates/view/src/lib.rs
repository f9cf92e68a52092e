//! `grundy view`: a table explorer in the browser.
//!
//! A local web server (axum routes served by hyper on a small tokio runtime, bound to 127.0.0.1
//! only, with timeouts and a connection cap: [`Server`]) serves one page,
//! its script and style embedded in the binary (no CDN: the page works offline), and a JSON and
//! PNG API over one table:
//!
//! | route | answer |
//! |---|---|
//! | `GET /` | the page |
//! | `GET /api/info` | the table's name, axes, size, largest value, zoom levels, and the state of its fill (`computing` with cells done, `ready` or `failed`) |
//! | `GET /api/tile?level=Z&row=R&col=C&colours=values\|outcomes` | a 256-pixel PNG tile ([`grundy_plot::tiles`]) |
//! | `GET /api/cell?pos=3,5` | a cell's value and outcome |
//! | `GET /api/moves?pos=3,5` | its options with their values and the mex, as `grundy moves --json` gives them ([`grundy_play::moves`]) |
//! | `POST /api/check` `{"claim": "...", "kind": "p-set"}` | the claim's verdict, proof and first counterexamples ([`grundy_laws::conjecture`]); with `"from": [I, J], "to": [K, L]`, those of that box only (the markers in view) |
//! | `GET /api/patterns` | the analysis of `grundy patterns --json` (computed once, on first request) |
//! | `GET /api/sequence?from=A&to=B&points=K` | a heap game's values from A to B in K buckets (smallest and largest of each) |
//! | `GET /api/region.csv?from=I,J&to=K,L` | a region as CSV, as `grundy compute` writes it |
//!
//! Every request is admitted first ([`Access`]): it must name this server as its Host, come from
//! no other origin or site, and carry the token printed in the page's address
//! ([`Server::url`]). Then it is validated: a coordinate outside the table, a zoom level that does not
//! exist, a region too large, a malformed body or a bad expression is answered with a 4xx and a
//! JSON `{"error": "..."}` naming the problem; the server goes on serving.
//!
//! The table may still be computing when the server starts ([`ViewState::computing`]): the page
//! shows the fill's progress ([`ViewProgress`]) until [`ViewState::ready`]. What the view holds
//! besides the table is [`view_bytes`], for the caller's memory check.

mod access;
mod api;
mod assets;
mod limits;
mod refusal;
mod server;
mod state;

pub use access::{Access, TOKEN_HEADER, TOKEN_PARAMETER};
pub use api::router;
pub use server::{ServeError, Server, BODY_TIMEOUT, GRACE, HEADER_TIMEOUT, MAX_CONNECTIONS};
pub use state::{view_bytes, ViewProgress, ViewState};
