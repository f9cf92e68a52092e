//! `grundy view`: a table explorer in the browser.
//!
//! A local web server (axum on a small tokio runtime, bound to 127.0.0.1 only) serves one page,
//! its script and style embedded in the binary (no CDN: the page works offline), and a JSON and
//! PNG API over one table:
//!
//! | route | answer |
//! |---|---|
//! | `GET /` | the page |
//! | `GET /api/info` | the table's name, axes, size, largest value, zoom levels, and the state of its fill (`computing` with cells done, `ready` or `failed`) |
//! | `GET /api/tile?level=Z&row=R&col=C&colours=values\|outcomes` | a 256-pixel PNG tile ([`grundy_plot::tiles`]) |
//! | `GET /api/cell?pos=3,5` | a cell's value and outcome |
//! | `GET /api/moves?pos=3,5` | its options with their values and the mex, as `grundy moves --json` gives them ([`grundy_patterns::moves`]) |
//! | `POST /api/check` `{"claim": "...", "kind": "p-set"}` | the claim's verdict, proof and first counterexamples ([`grundy_patterns::conjecture`]); with `"from": [I, J], "to": [K, L]`, those of that box only (the markers in view) |
//! | `GET /api/patterns` | the analysis of `grundy patterns --json` (computed once, on first request) |
//! | `GET /api/sequence?from=A&to=B&points=K` | a heap game's values from A to B in K buckets (smallest and largest of each) |
//! | `GET /api/region.csv?from=I,J&to=K,L` | a region as CSV, as `grundy compute` writes it |
//!
//! Every request is validated: a coordinate outside the table, a zoom level that does not
//! exist, a region too large, a malformed body or a bad expression is answered with a 4xx and a
//! JSON `{"error": "..."}` naming the problem; the server goes on serving.
//!
//! The table may still be computing when the server starts ([`ViewState::computing`]): the page
//! shows the fill's progress ([`ViewProgress`]) until [`ViewState::ready`]. What the view holds
//! besides the table is [`view_bytes`], for the caller's memory check.

mod api;
mod assets;
mod state;

pub use api::router;
pub use state::{view_bytes, ViewProgress, ViewState};

use std::net::{Ipv4Addr, SocketAddr, TcpListener};
use std::sync::Arc;

/// A server bound to a port of 127.0.0.1, not yet serving.
#[derive(Debug)]
pub struct Server {
    listener: TcpListener,
    address: SocketAddr,
}

/// Why the server could not start or stopped.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The port could not be bound.
    #[error("cannot listen on 127.0.0.1:{port}: {source}")]
    Bind {
        /// The port asked for (0: any free one).
        port: u16,
        /// The cause.
        source: std::io::Error,
    },
    /// Serving failed.
    #[error("the view's server failed: {0}")]
    Serve(std::io::Error),
}

impl Server {
    /// Binds 127.0.0.1 at `port`, or at a free port when `None`. Only this machine can connect
    /// (over SSH, forward the port: `ssh -L PORT:127.0.0.1:PORT host`).
    pub fn bind(port: Option<u16>) -> Result<Server, ServeError> {
        let port = port.unwrap_or(0);
        let bind = |source| ServeError::Bind { port, source };
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, port)).map_err(bind)?;
        let address = listener.local_addr().map_err(bind)?;
        listener.set_nonblocking(true).map_err(bind)?;
        Ok(Server { listener, address })
    }

    /// The page's address, e.g. `http://127.0.0.1:8080/`.
    pub fn url(&self) -> String {
        format!("http://{}/", self.address)
    }

    /// Serves `state` until `stop` says so (it is asked ten times a second), then finishes the
    /// requests under way and returns. Blocking work (tiles, checks, analyses) runs on as many
    /// threads as the state's pool has.
    pub fn run(
        self,
        state: Arc<ViewState>,
        stop: impl Fn() -> bool + Send + 'static,
    ) -> Result<(), ServeError> {
        let blocking_threads = state.threads().count();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_io()
            .enable_time()
            .max_blocking_threads(blocking_threads.max(1))
            .build()
            .map_err(ServeError::Serve)?;
        let stopped = async move {
            while !stop() {
                tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            }
        };
        runtime.block_on(async move {
            let listener =
                tokio::net::TcpListener::from_std(self.listener).map_err(ServeError::Serve)?;
            axum::serve(listener, router(state))
                .with_graceful_shutdown(stopped)
                .await
                .map_err(ServeError::Serve)
        })
    }
}
