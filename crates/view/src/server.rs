//! The server: one listening socket on 127.0.0.1, connections served by hyper on a small tokio
//! runtime, with the limits that keep a slow or hostile client from holding it.
//!
//! - A client has [`HEADER_TIMEOUT`] to send a request's headers (and, idle, the next request's),
//!   and [`BODY_TIMEOUT`] for its body; at most [`MAX_CONNECTIONS`] connections are open at once.
//!   At the cap a new connection takes the place of the oldest one with no request in flight
//!   (one that has not sent its headers, or idles between requests), so a local process that
//!   holds half-open connections cannot lock the user out (issue 59: 140 of them did); when
//!   every connection is serving a request, the new one is closed as it comes.
//! - Heavy work (a claim's check, the analysis) runs at most [`crate::state::HEAVY_AT_ONCE`] at a
//!   time and stops when its client goes away (see `api.rs`); the blocking threads are enough for
//!   those and for as many light requests (tiles, cells) as the pool has threads besides, so a
//!   tile never waits behind a check.
//! - Stopping cancels the work under way, lets the connections finish their answers for
//!   [`GRACE`], then closes whatever is left: [`Server::run`] returns within about a second
//!   whatever the clients do.

use crate::access::{Access, TOKEN_PARAMETER};
use crate::state::{ViewState, HEAVY_AT_ONCE};
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::collections::VecDeque;
use std::net::{Ipv4Addr, SocketAddr, TcpListener};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{watch, Semaphore};
use tokio::task::JoinSet;

pub use crate::limits::{BODY_TIMEOUT, GRACE, HEADER_TIMEOUT, MAX_CONNECTIONS};

/// How often the server asks whether to stop.
const STOP_POLL: Duration = Duration::from_millis(50);

/// A server bound to a port of 127.0.0.1, not yet serving.
#[derive(Debug)]
pub struct Server {
    listener: TcpListener,
    address: SocketAddr,
    access: Access,
}

/// Why the server could not start or stopped.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The port could not be bound.
    #[error("cannot listen on 127.0.0.1:{port}")]
    Bind {
        /// The port asked for (0: any free one).
        port: u16,
        /// The cause.
        source: std::io::Error,
    },
    /// Serving failed.
    #[error("the view's server failed")]
    Serve(#[source] std::io::Error),
}

impl Server {
    /// Binds 127.0.0.1 at `port`, or at a free port when `None`, with a fresh token. Only this
    /// machine can connect (over SSH, forward the port: `ssh -L PORT:127.0.0.1:PORT host`), and
    /// only with the token (see [`Server::url`]).
    ///
    /// # Errors
    /// When the port cannot be bound, or no token can be made.
    pub fn bind(port: Option<u16>) -> Result<Server, ServeError> {
        let port = port.unwrap_or(0);
        let bind = |source| ServeError::Bind { port, source };
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, port)).map_err(bind)?;
        let address = listener.local_addr().map_err(bind)?;
        listener.set_nonblocking(true).map_err(bind)?;
        let access = Access::random(address.port()).map_err(bind)?;
        Ok(Server { listener, address, access })
    }

    /// The page's address with its token, e.g. `http://127.0.0.1:8080/?token=3f…`: what the user
    /// opens. Whoever has it can read the table, so it is printed to the user only.
    pub fn url(&self) -> String {
        format!("http://{}/?{TOKEN_PARAMETER}={}", self.address, self.access.token())
    }

    /// The address the server listens on.
    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// The token every request needs.
    pub fn token(&self) -> &str {
        self.access.token()
    }

    /// Serves `state` until `stop` says so (it is asked every 50 ms), then cancels the work
    /// under way and returns within about a second, whatever the clients do (see the module
    /// docs). Blocking work (tiles, checks, analyses) runs on as many threads as the state's
    /// pool has, plus one for each heavy request at once.
    ///
    /// # Errors
    /// When the runtime cannot start or the socket fails.
    pub fn run(
        self,
        state: Arc<ViewState>,
        stop: impl Fn() -> bool + Send + 'static,
    ) -> Result<(), ServeError> {
        let blocking_threads = state.threads().count().max(1) + HEAVY_AT_ONCE + 2;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_io()
            .enable_time()
            .max_blocking_threads(blocking_threads)
            .build()
            .map_err(ServeError::Serve)?;
        let app = crate::api::router(state.clone(), self.access);
        let served = runtime.block_on(async move {
            let listener =
                tokio::net::TcpListener::from_std(self.listener).map_err(ServeError::Serve)?;
            accept_until(listener, app, &state, stop).await;
            Ok(())
        });
        // Work still running on a blocking thread was told to stop (`serve`'s end); it is not
        // waited for longer than this.
        runtime.shutdown_timeout(Duration::from_millis(200));
        served
    }
}

/// Accepts connections and serves them until `stop`; then cancels the work under way, gives the
/// connections [`GRACE`] to finish and closes the rest.
async fn accept_until(
    listener: tokio::net::TcpListener,
    app: axum::Router,
    state: &ViewState,
    stop: impl Fn() -> bool + Send + 'static,
) {
    let (closing, closed) = watch::channel(false);
    let slots = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    let mut connections = JoinSet::new();
    // The connections held, oldest first: the ones to evict at the cap.
    let mut held: VecDeque<Held> = VecDeque::new();
    let stopped = async move {
        while !stop() {
            tokio::time::sleep(STOP_POLL).await;
        }
    };
    tokio::pin!(stopped);
    loop {
        tokio::select! {
            () = &mut stopped => break,
            accepted = listener.accept() => {
                let stream = match accepted {
                    Ok((stream, _)) => stream,
                    // Out of file descriptors, say: wait for connections to close.
                    Err(_) => {
                        tokio::time::sleep(Duration::from_millis(20)).await;
                        continue;
                    }
                };
                held.retain(|connection| !connection.abort.is_finished());
                let slot = match slots.clone().try_acquire_owned() {
                    Ok(slot) => slot,
                    Err(_) => {
                        // At the cap: the oldest connection with no request in flight makes
                        // room; with none, the new connection is closed as it comes.
                        let Some(at) = held.iter().position(Held::idle) else { continue };
                        if let Some(evicted) = held.remove(at) {
                            evicted.abort.abort();
                        }
                        let freed = slots.clone().acquire_owned();
                        match tokio::time::timeout(EVICTION_WAIT, freed).await {
                            Ok(Ok(slot)) => slot,
                            _ => continue,
                        }
                    }
                };
                let serving = Arc::new(AtomicUsize::new(0));
                let service = TowerToHyperService::new(counted(app.clone(), serving.clone()));
                let mut closed = closed.clone();
                let abort = connections.spawn(async move {
                    let _slot = slot;
                    let mut builder = hyper::server::conn::http1::Builder::new();
                    builder.timer(TokioTimer::new()).header_read_timeout(HEADER_TIMEOUT);
                    let connection = builder.serve_connection(TokioIo::new(stream), service);
                    tokio::pin!(connection);
                    tokio::select! {
                        _ = connection.as_mut() => {}
                        _ = closed.changed() => {
                            connection.as_mut().graceful_shutdown();
                            let _ = connection.await;
                        }
                    }
                });
                held.push_back(Held { serving, abort });
            }
            // Finished connections are collected as they end.
            Some(_) = connections.join_next(), if !connections.is_empty() => {}
        }
    }
    drop(listener);
    state.stop_work();
    let _ = closing.send(true);
    let drained = async { while connections.join_next().await.is_some() {} };
    if tokio::time::timeout(GRACE, drained).await.is_err() {
        connections.abort_all();
    }
}

/// How long a new connection at the cap waits for the slot of the connection it evicted.
const EVICTION_WAIT: Duration = Duration::from_millis(200);

/// A connection the server holds: how many requests are in flight on it, and its task.
struct Held {
    serving: Arc<AtomicUsize>,
    abort: tokio::task::AbortHandle,
}

impl Held {
    /// Whether no request is in flight: it has not sent its headers, or idles between requests.
    fn idle(&self) -> bool {
        self.serving.load(Ordering::Relaxed) == 0
    }
}

/// `app`, counting in `serving` the requests in flight on one connection.
fn counted(
    app: axum::Router,
    serving: Arc<AtomicUsize>,
) -> impl tower::Service<
    hyper::Request<hyper::body::Incoming>,
    Response = axum::response::Response,
    Error = std::convert::Infallible,
    Future = impl Send,
> + Clone {
    tower::service_fn(move |request: hyper::Request<hyper::body::Incoming>| {
        let app = app.clone();
        let serving = serving.clone();
        async move {
            serving.fetch_add(1, Ordering::Relaxed);
            let _done = InFlight(serving);
            tower::ServiceExt::oneshot(app, request).await
        }
    })
}

/// One request in flight, counted off when its answer is made (or its future dropped).
struct InFlight(Arc<AtomicUsize>);

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}
