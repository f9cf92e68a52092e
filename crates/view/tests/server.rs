//! The server over real sockets, against the clients of issue 50: a page of another site (a
//! foreign Host, a cross-site request, no token), a client that sends half a request and holds
//! the connection, and heavy claims sent and abandoned. After each, the server must answer a
//! tile within a second and stop within two.

use grundy_compute::{FillRequest, NoProgress, ThreadCount, Threads};
use grundy_core::{lookup, Table, TableShape};
use grundy_view::{Server, ViewState, HEADER_TIMEOUT};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

fn state_of(name: &str, size: &[i64]) -> Arc<ViewState> {
    let game = lookup(name).unwrap();
    let shape = TableShape::from_axes(game.axes().to_vec(), size.to_vec());
    let table = FillRequest::new(&game, &shape)
        .table(&grundy_compute::memory::Besides::NOTHING)
        .unwrap()
        .fill(&NoProgress)
        .unwrap();
    ViewState::of_table(
        Table::of_game(game, table),
        Threads::new(Some(ThreadCount::new(2).unwrap())).unwrap(),
    )
}

/// A server serving on a thread of its own.
struct Running {
    address: SocketAddr,
    token: String,
    url: String,
    stop: Arc<AtomicBool>,
    serving: Option<JoinHandle<Result<(), grundy_view::ServeError>>>,
}

impl Running {
    fn start(state: Arc<ViewState>) -> Running {
        let server = Server::bind(None).unwrap();
        let (address, token, url) = (server.address(), server.token().to_string(), server.url());
        let stop = Arc::new(AtomicBool::new(false));
        let stopping = stop.clone();
        let serving =
            std::thread::spawn(move || server.run(state, move || stopping.load(Ordering::SeqCst)));
        Running { address, token, url, stop, serving: Some(serving) }
    }

    fn connect(&self) -> TcpStream {
        let stream = TcpStream::connect(self.address).unwrap();
        stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        stream
    }

    /// Sends `request` as it is and reads the whole answer.
    fn raw(&self, request: &str) -> String {
        let mut stream = self.connect();
        stream.write_all(request.as_bytes()).unwrap();
        let mut answer = Vec::new();
        let _ = stream.read_to_end(&mut answer);
        String::from_utf8_lossy(&answer).into_owned()
    }

    /// A request from this server's own page: its Host, its token, and `extra` headers.
    fn request(&self, method: &str, path: &str, extra: &[&str], body: &str) -> String {
        let mut head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nX-Grundy-Token: {}\r\nConnection: close\r\n",
            self.address, self.token
        );
        for line in extra {
            head.push_str(line);
            head.push_str("\r\n");
        }
        if !body.is_empty() {
            head.push_str(&format!("Content-Length: {}\r\n", body.len()));
        }
        self.raw(&format!("{head}\r\n{body}"))
    }

    fn get(&self, path: &str) -> String {
        self.request("GET", path, &[], "")
    }

    /// The page's claim check, as the page sends it.
    fn check(&self, claim: &str) -> String {
        let body = serde_json::json!({ "claim": claim }).to_string();
        self.request("POST", "/api/check", &["Content-Type: application/json"], &body)
    }

    /// Asserts that a tile is answered, and within a second.
    fn tile_within_a_second(&self, when: &str) {
        let start = Instant::now();
        let answer = self.get("/api/tile?level=0&row=0&col=0");
        let took = start.elapsed();
        assert!(answer.starts_with("HTTP/1.1 200"), "{when}: {}", first_line(&answer));
        assert!(took < Duration::from_secs(1), "{when}: a tile took {took:?}");
    }

    /// Stops the server and asserts that it stopped within two seconds.
    fn stop_within_two_seconds(mut self, when: &str) {
        let start = Instant::now();
        self.stop.store(true, Ordering::SeqCst);
        self.serving.take().unwrap().join().unwrap().unwrap();
        let took = start.elapsed();
        assert!(took < Duration::from_secs(2), "{when}: stopping took {took:?}");
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
    }
}

fn first_line(answer: &str) -> &str {
    answer.lines().next().unwrap_or("")
}

fn status(answer: &str) -> u16 {
    first_line(answer).split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0)
}

/// The JSON error of an answer.
fn error(answer: &str) -> String {
    let body = answer.split_once("\r\n\r\n").map_or("", |(_, body)| body);
    let value: serde_json::Value =
        serde_json::from_str(body).unwrap_or_else(|_| panic!("not a JSON answer: {answer}"));
    value["error"].as_str().unwrap().to_string()
}

#[test]
fn a_foreign_host_is_refused_on_every_route() {
    let running = Running::start(state_of("wythoff", &[64, 64]));
    for path in ["/", "/api/info", "/api/region.csv?from=0,0&to=9,9", "/view.js", "/nope"] {
        // The token would not help a rebinding page: it does not have it, but even with it the
        // Host is wrong.
        let answer = running.raw(&format!(
            "GET {path} HTTP/1.1\r\nHost: attacker.example:{port}\r\nX-Grundy-Token: {token}\r\n\
             Connection: close\r\n\r\n",
            port = running.address.port(),
            token = running.token
        ));
        assert_eq!(status(&answer), 421, "{path}: {answer}");
    }
    let answer = running.raw("GET /api/info HTTP/1.0\r\n\r\n");
    assert_eq!(status(&answer), 421, "no Host: {answer}");
    assert!(error(&running.raw(&format!(
        "GET /api/info HTTP/1.1\r\nHost: attacker.example\r\nX-Grundy-Token: {}\r\nConnection: close\r\n\r\n",
        running.token
    )))
    .contains("127.0.0.1"));
    // localhost and [::1] with the port are this server.
    for host in [
        format!("localhost:{}", running.address.port()),
        format!("[::1]:{}", running.address.port()),
    ] {
        let answer = running.raw(&format!(
            "GET /api/info HTTP/1.1\r\nHost: {host}\r\nX-Grundy-Token: {}\r\nConnection: close\r\n\r\n",
            running.token
        ));
        assert_eq!(status(&answer), 200, "{host}: {answer}");
    }
    running.tile_within_a_second("after foreign hosts");
    running.stop_within_two_seconds("after foreign hosts");
}

#[test]
fn cross_site_requests_and_requests_without_the_token_are_refused() {
    let running = Running::start(state_of("wythoff", &[64, 64]));
    let body = r#"{"claim": "a == b"}"#;
    let host = format!("Host: {}", running.address);
    let length = format!("Content-Length: {}", body.len());
    // The form a page of another site can send without asking first: text/plain, its Origin,
    // no token.
    let cross_site = format!(
        "POST /api/check HTTP/1.1\r\n{host}\r\nContent-Type: text/plain\r\nOrigin: \
         http://evil.example\r\nSec-Fetch-Site: cross-site\r\n{length}\r\nConnection: close\r\n\r\n{body}"
    );
    let answer = running.raw(&cross_site);
    assert_eq!(status(&answer), 403, "{answer}");
    // Each guard on its own, the token given.
    let cases: &[(&[&str], u16, &str)] = &[
        (&["Content-Type: text/plain"], 415, "Content-Type: application/json"),
        (&["Content-Type: application/json", "Origin: http://evil.example"], 403, "other origins"),
        (&["Content-Type: application/json", "Origin: null"], 403, "other origins"),
        (&["Content-Type: application/json", "Sec-Fetch-Site: cross-site"], 403, "cross-site"),
        (&["Content-Type: application/json", "Sec-Fetch-Site: same-site"], 403, "same-site"),
    ];
    for &(headers, code, message) in cases {
        let answer = running.request("POST", "/api/check", headers, body);
        assert_eq!(status(&answer), code, "{headers:?}: {answer}");
        assert!(error(&answer).contains(message), "{headers:?}: {answer}");
    }
    // The page's own request passes: same origin.
    let own_origin = format!("Origin: http://{}", running.address);
    let answer = running.request(
        "POST",
        "/api/check",
        &["Content-Type: application/json", &own_origin, "Sec-Fetch-Site: same-origin"],
        body,
    );
    assert_eq!(status(&answer), 200, "{answer}");

    // No token, or a wrong one: refused, for the API and for the page.
    let without = |path: &str, token: Option<&str>| {
        let token = token.map_or(String::new(), |t| format!("X-Grundy-Token: {t}\r\n"));
        running.raw(&format!("GET {path} HTTP/1.1\r\n{host}\r\n{token}Connection: close\r\n\r\n"))
    };
    for path in ["/api/info", "/api/cell?pos=1,1", "/api/tile?level=0&row=0&col=0", "/api/patterns"]
    {
        let answer = without(path, None);
        assert_eq!(status(&answer), 403, "{path}: {answer}");
        assert!(error(&answer).contains("a token is needed"), "{path}: {answer}");
        let answer = without(path, Some("0000"));
        assert_eq!(status(&answer), 403, "{path}: {answer}");
        assert!(error(&answer).contains("the token is wrong"), "{path}: {answer}");
    }
    let page = without("/", None);
    assert_eq!(status(&page), 403, "{page}");
    assert!(page.contains("text/html") && page.contains("the address grundy printed"), "{page}");
    // The address grundy prints opens the page, also from a link on another site (a notebook);
    // the token in an API address works too and is not taken for a parameter.
    let path = running.url.trim_start_matches(&format!("http://{}", running.address)).to_string();
    let page = without(&path, None);
    assert_eq!(status(&page), 200, "{page}");
    assert!(page.contains("view.js"));
    let linked = running.raw(&format!(
        "GET {path} HTTP/1.1\r\n{host}\r\nSec-Fetch-Site: cross-site\r\nSec-Fetch-Mode: navigate\r\n\
         Connection: close\r\n\r\n"
    ));
    assert_eq!(status(&linked), 200, "{linked}");
    let answer = without(&format!("/api/cell?pos=3,5&token={}", running.token), None);
    assert_eq!(status(&answer), 200, "{answer}");
    assert!(answer.contains(r#""value":0"#), "{answer}");
    // The script and the style need no token: they hold nothing of the table.
    assert_eq!(status(&without("/view.js", None)), 200);
    running.tile_within_a_second("after cross-site requests");
    running.stop_within_two_seconds("after cross-site requests");
}

#[test]
fn half_sent_requests_time_out_and_do_not_hold_the_server() {
    let running = Running::start(state_of("wythoff", &[64, 64]));
    // Many clients that send half their headers and wait.
    let mut held = Vec::new();
    for _ in 0..100 {
        let mut stream = running.connect();
        write!(stream, "GET /api/info HTTP/1.1\r\nHost: {}\r\nX-Gru", running.address).unwrap();
        held.push(stream);
    }
    running.tile_within_a_second("with 100 half-sent requests held");
    // The server closes them once the header timeout has passed.
    let start = Instant::now();
    let mut first = held.pop().unwrap();
    let mut rest = Vec::new();
    let _ = first.read_to_end(&mut rest);
    let waited = start.elapsed();
    assert!(
        waited < HEADER_TIMEOUT + Duration::from_secs(3),
        "a half-sent request was held {waited:?}"
    );
    // And stopping does not wait for the ones still open.
    let mut late = running.connect();
    write!(late, "GET / HTTP/1.1\r\nHo").unwrap();
    running.stop_within_two_seconds("with half-sent requests held");
    drop(late);
}

/// Issue 59, item 4: at the connection cap a new connection takes the place of the oldest one
/// with no request in flight, so half-open connections (any local process can open them,
/// without the token) cannot lock the user out: 140 of them did, and here 1000 are held while
/// the page's requests are answered.
#[test]
fn half_open_connections_give_way_to_the_users_requests() {
    let running = Running::start(state_of("wythoff", &[64, 64]));
    let mut held: Vec<TcpStream> =
        (0..grundy_view::MAX_CONNECTIONS).map(|_| running.connect()).collect();
    // Give the server time to take them all.
    std::thread::sleep(Duration::from_millis(300));
    let start = Instant::now();
    assert_eq!(status(&running.get("/api/info")), 200, "at the cap");
    assert!(start.elapsed() < Duration::from_secs(1), "answered after {:?}", start.elapsed());
    // The oldest idle connection made room: the server closed it.
    held[0].set_read_timeout(Some(Duration::from_secs(2))).unwrap();
    let mut byte = [0u8; 1];
    assert_eq!(held[0].read(&mut byte).unwrap_or(0), 0, "the oldest was closed");
    // A thousand half-open connections, each with the start of a request and no end to it, and
    // the user's requests between them.
    for round in 0..10 {
        for _ in 0..100 {
            let mut stream = running.connect();
            let _ = stream.write_all(b"GET /");
            held.push(stream);
        }
        let start = Instant::now();
        let answer = running.get("/api/info");
        assert_eq!(status(&answer), 200, "round {round}: {}", first_line(&answer));
        let took = start.elapsed();
        assert!(took < Duration::from_secs(1), "round {round}: answered after {took:?}");
    }
    running.tile_within_a_second("with a thousand half-open connections");
    drop(held);
    running.stop_within_two_seconds("after a thousand half-open connections");
}

/// A claim of 8 operations a step and 6 more, flat (no deeper than the parser allows): 120 steps
/// on Wythoff 2000² are some 3.9 × 10⁹ operations, seconds of work, just under the view's budget
/// (2³² ≈ 4.3 × 10⁹).
fn heavy_claim(steps: usize) -> String {
    // `a * b` keeps the claim from repeating in its form: a claim that repeats is read from a
    // lookup by residue (issue 62) and is light however long it is.
    let mut claim = String::from("(a * b");
    for k in 0..steps {
        claim.push_str(&format!(" + b * {k} - a % 7"));
    }
    claim.push_str(") % 2 == 0");
    claim
}

/// Sends the page's check of `claim` and leaves the connection open, its answer not yet read.
fn send_check(running: &Running, claim: &str) -> TcpStream {
    let body = serde_json::json!({ "claim": claim }).to_string();
    let mut stream = running.connect();
    write!(
        stream,
        "POST /api/check HTTP/1.1\r\nHost: {}\r\nX-Grundy-Token: {}\r\nContent-Type: \
         application/json\r\nContent-Length: {}\r\n\r\n{body}",
        running.address,
        running.token,
        body.len()
    )
    .unwrap();
    stream
}

/// Asserts that no answer comes within `wait`: the work is under way (or waits its turn).
fn still_working(stream: &mut TcpStream, wait: Duration) {
    stream.set_read_timeout(Some(wait)).unwrap();
    let mut byte = [0u8; 1];
    match stream.read(&mut byte) {
        Err(err)
            if matches!(
                err.kind(),
                std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
            ) => {}
        other => panic!("the heavy claim was answered at once: {other:?}"),
    }
}

#[test]
fn abandoned_heavy_claims_are_cancelled_and_tiles_do_not_wait() {
    let running = Running::start(state_of("wythoff", &[1999, 1999]));
    let claim = heavy_claim(120);
    // Six claims sent, each still being worked on (or waiting its turn) when its connection is
    // closed.
    for _ in 0..6 {
        let mut stream = send_check(&running, &claim);
        still_working(&mut stream, Duration::from_millis(200));
        drop(stream);
    }
    running.tile_within_a_second("with six heavy claims abandoned");
    // The abandoned checks were stopped: a small claim gets its turn at once (each of them
    // takes half a minute of a core).
    let start = Instant::now();
    let answer = running.check("a == b");
    assert_eq!(status(&answer), 200, "{}", first_line(&answer));
    let took = start.elapsed();
    assert!(took < Duration::from_secs(5), "a small claim waited {took:?} behind abandoned ones");
    // Two heavy claims under way and one waiting while the server stops: all are cancelled.
    let mut streams: Vec<TcpStream> = (0..3).map(|_| send_check(&running, &claim)).collect();
    for stream in &mut streams {
        still_working(stream, Duration::from_millis(100));
    }
    running.tile_within_a_second("with heavy claims under way");
    running.stop_within_two_seconds("with heavy claims under way");
    // Each was answered (503: stopped) or closed.
    for mut stream in streams {
        stream.set_read_timeout(Some(Duration::from_secs(2))).unwrap();
        let mut answer = String::new();
        let _ = stream.read_to_string(&mut answer);
        assert!(answer.is_empty() || status(&answer) == 503, "{answer}");
    }
}

#[test]
fn a_claim_is_refused_by_its_work_not_its_length() {
    let running = Running::start(state_of("wythoff", &[2999, 2999]));
    // 567 operations at 9 million cells: over the view's budget, in under 4096 bytes.
    let claim = heavy_claim(70);
    assert!(claim.len() < 4096, "{}", claim.len());
    let answer = running.check(&claim);
    assert_eq!(status(&answer), 413, "{}", first_line(&answer));
    assert!(error(&answer).contains("567 operations at each of 9000000 cells"), "{answer}");
    // A long claim of few operations is not refused for its length.
    let spaced = format!("a{}== b", " ".repeat(3000));
    let answer = running.check(&spaced);
    assert_eq!(status(&answer), 200, "{}", first_line(&answer));
    running.stop_within_two_seconds("after a refused claim");
}

/// Issue 59, item 3: heavy checks run two at once and two more wait; one more is answered at
/// once, 503 with `Retry-After`, instead of waiting in silence (a light check waited 63-83 s
/// behind two heavy ones). A light check needs no turn: it is answered while heavy ones run.
#[test]
fn a_full_queue_answers_busy_at_once_and_a_light_check_does_not_wait() {
    let running = Running::start(state_of("wythoff", &[1999, 1999]));
    let claim = heavy_claim(120);
    let mut streams: Vec<TcpStream> = (0..4).map(|_| send_check(&running, &claim)).collect();
    for stream in &mut streams {
        still_working(stream, Duration::from_millis(100));
    }
    let start = Instant::now();
    let mut fifth = send_check(&running, &claim);
    fifth.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    // The answer's first bytes (the connection stays open for the next request).
    let mut bytes = [0u8; 4096];
    let read = fifth.read(&mut bytes).unwrap();
    let answer = String::from_utf8_lossy(&bytes[..read]).into_owned();
    assert_eq!(status(&answer), 503, "{answer}");
    assert!(answer.to_ascii_lowercase().contains("retry-after: 2"), "{answer}");
    assert!(error(&answer).starts_with("busy: 2 heavy requests are running"), "{answer}");
    assert!(start.elapsed() < Duration::from_secs(2), "busy after {:?}", start.elapsed());
    let start = Instant::now();
    let light = running.check("a == b");
    assert_eq!(status(&light), 200, "{}", first_line(&light));
    let took = start.elapsed();
    assert!(took < Duration::from_secs(5), "a light check waited {took:?} behind heavy ones");
    drop(streams);
    running.stop_within_two_seconds("with heavy claims abandoned");
}

/// Issue 59, item 3 ("proofs counted by the cost guard"): a claim that is light to check on a
/// small table may ask for a heavy proof (its form repeats every 1200 cells: a box of 1.4 M
/// cells). Such checks take heavy turns like heavy checks: two run, two wait, the fifth
/// is told the view is busy, and a light claim with a light proof is answered meanwhile.
#[test]
fn a_heavy_proof_takes_a_heavy_turn() {
    let running = Running::start(state_of("kiki", &[100, 100]));
    // A box of 1.4 M cells: about a second of a core each, well within the proof's budget.
    let claim = "n % 2 == 1 && m % 2 == 1 || (n + m) % 1200 == 9999";
    let streams: Vec<TcpStream> = (0..4).map(|_| send_check(&running, claim)).collect();
    let mut fifth = send_check(&running, claim);
    fifth.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    let mut bytes = [0u8; 4096];
    let read = fifth.read(&mut bytes).unwrap();
    let answer = String::from_utf8_lossy(&bytes[..read]).into_owned();
    assert_eq!(status(&answer), 503, "{answer}");
    let start = Instant::now();
    let light = running.check("n % 2 == 1 && m % 2 == 1");
    assert_eq!(status(&light), 200, "{}", first_line(&light));
    assert!(light.contains("\"proved\":true"), "{light}");
    let took = start.elapsed();
    assert!(took < Duration::from_secs(1), "a light check waited {took:?} behind heavy proofs");
    drop(streams);
    running.stop_within_two_seconds("with heavy proofs abandoned");
}
