//! The view's HTTP API without a browser: what good requests answer, and that bad ones get a 4xx
//! with a JSON message while the server goes on serving (issue 29).

use axum::body::Body;
use axum::http::{Request, StatusCode};
use grundy_compute::{FillRequest, NoProgress, Threads};
use grundy_core::{lookup, CellKind, Table, TableShape};
use grundy_view::{router, Access, Server, ViewState};
use http_body_util::BodyExt;
use std::io::{Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use tower::ServiceExt;

fn table_of(name: &str, size: &[i64]) -> Table {
    let game = lookup(name).unwrap();
    let shape = TableShape::from_axes(game.axes().to_vec(), size.to_vec());
    let table = FillRequest::new(&game, &shape)
        .table(&grundy_compute::memory::Besides::NOTHING)
        .unwrap()
        .fill(&NoProgress)
        .unwrap();
    Table::of_game(game, table)
}

fn state_of(name: &str, size: &[i64]) -> Arc<ViewState> {
    ViewState::of_table(table_of(name, size), Threads::current())
}

/// The port and token the requests below are admitted with (the router is called directly).
const PORT: u16 = 8080;
const TOKEN: &str = "0123456789abcdef";

/// The status, content type and body of a request to the router; the request names the server
/// as its Host and carries the token unless it says otherwise.
async fn send(state: &Arc<ViewState>, mut request: Request<Body>) -> (StatusCode, String, Vec<u8>) {
    let headers = request.headers_mut();
    if !headers.contains_key("host") {
        headers.insert("host", format!("127.0.0.1:{PORT}").parse().unwrap());
    }
    if !headers.contains_key("x-grundy-token") {
        headers.insert("x-grundy-token", TOKEN.parse().unwrap());
    }
    let response = router(state.clone(), Access::new(PORT, TOKEN)).oneshot(request).await.unwrap();
    let status = response.status();
    let kind = response
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    let body = response.into_body().collect().await.unwrap().to_bytes().to_vec();
    (status, kind, body)
}

async fn get(state: &Arc<ViewState>, uri: &str) -> (StatusCode, String, Vec<u8>) {
    send(state, Request::get(uri).body(Body::empty()).unwrap()).await
}

async fn post(state: &Arc<ViewState>, uri: &str, body: impl Into<Body>) -> (StatusCode, Vec<u8>) {
    let request = Request::post(uri).header("content-type", "application/json").body(body.into());
    let (status, _, body) = send(state, request.unwrap()).await;
    (status, body)
}

fn json(body: &[u8]) -> serde_json::Value {
    serde_json::from_slice(body)
        .unwrap_or_else(|_| panic!("JSON: {}", String::from_utf8_lossy(body)))
}

#[tokio::test]
async fn good_requests_answer_from_the_table() {
    let state = state_of("wythoff", &[64, 64]);
    let (status, kind, page) = get(&state, "/").await;
    assert_eq!(status, StatusCode::OK);
    assert!(kind.starts_with("text/html"));
    assert!(String::from_utf8(page).unwrap().contains("view.js"));
    let (status, kind, _) = get(&state, "/view.js").await;
    assert_eq!((status, kind.as_str()), (StatusCode::OK, "text/javascript; charset=utf-8"));

    let info = json(&get(&state, "/api/info").await.2);
    assert_eq!(info["status"], "ready");
    assert_eq!(info["axes"][1]["max"], 64);
    assert_eq!(info["moves"], true);

    let cell = json(&get(&state, "/api/cell?pos=3,5").await.2);
    assert_eq!((cell["value"].as_u64(), cell["outcome"].as_str()), (Some(0), Some("P")));
    let cell = json(&get(&state, "/api/cell?pos=5x8").await.2);
    assert_eq!(cell["value"], 2);

    // The moves of (5, 8): the winning ones go to the P-positions (4, 7) and (5, 3).
    let moves = json(&get(&state, "/api/moves?pos=5,8").await.2);
    assert_eq!(moves["mex"], 2);
    let mut winning = Vec::new();
    for group in moves["components"][0]["groups"].as_array().unwrap() {
        for option in group["options"].as_array().unwrap() {
            if option["winning"] == true {
                winning.push(option["to"][0].clone());
            }
        }
    }
    winning.sort_by_key(|p| p.to_string());
    assert_eq!(winning, [serde_json::json!([4, 7]), serde_json::json!([5, 3])]);

    let (status, kind, png) = get(&state, "/api/tile?level=2&row=0&col=0&colours=outcomes").await;
    assert_eq!((status, kind.as_str()), (StatusCode::OK, "image/png"));
    assert_eq!(&png[1..4], b"PNG");

    let (status, report) =
        post(&state, "/api/check", r#"{"claim": "a == b", "kind": "p-set"}"#).await;
    assert_eq!(status, StatusCode::OK);
    let report = json(&report);
    assert_eq!(report["verdict"], "disagrees");
    assert_eq!(report["counterexamples"][0]["position"], serde_json::json!([1, 1]));

    // The claim on a box: only its counterexamples, and no proof (a box has no rules).
    let body = r#"{"claim": "a == b", "from": [10, 20], "to": [40, 30]}"#;
    let (status, report) = post(&state, "/api/check", body).await;
    assert_eq!(status, StatusCode::OK);
    let report = json(&report);
    assert_eq!(report["cells"], 31 * 11);
    for c in report["counterexamples"].as_array().unwrap() {
        let (a, b) = (c["position"][0].as_i64().unwrap(), c["position"][1].as_i64().unwrap());
        assert!((10..=40).contains(&a) && (20..=30).contains(&b), "{c}");
    }
    // In the box, a == b at (20, 20) … (30, 30) is claimed P but is not: 11 counterexamples,
    // plus the P-positions of the box off the diagonal.
    // Wythoff's P-positions: (⌊kφ⌋, ⌊kφ⌋ + k) and their mirror images.
    let phi = (1.0 + 5f64.sqrt()) / 2.0;
    let p_positions = (1..40)
        .map(|k| ((k as f64 * phi).floor() as i64, k))
        .flat_map(|(a, k)| [(a, a + k), (a + k, a)])
        .filter(|&(a, b)| (10..=40).contains(&a) && (20..=30).contains(&b))
        .count();
    assert_eq!(report["disagreements"], 11 + p_positions as u64);

    let (status, kind, csv) = get(&state, "/api/region.csv?from=3,4&to=4,6").await;
    assert_eq!((status, kind.as_str()), (StatusCode::OK, "text/csv"));
    let csv = String::from_utf8(csv).unwrap();
    assert_eq!(csv.lines().next().unwrap(), "a\\b,4,5,6");
    assert!(csv.lines().nth(1).unwrap().starts_with("3,"), "{csv}");
    assert_eq!(csv.lines().nth(1).unwrap().split(',').nth(2), Some("0"), "(3, 5) is P");

    let patterns = json(&get(&state, "/api/patterns").await.2);
    assert_eq!(patterns["rows"][0]["period"], 1);
}

#[tokio::test]
async fn a_sequence_is_read_in_buckets() {
    let state = state_of("kayles", &[300]);
    let data = json(&get(&state, "/api/sequence?from=0&to=299&points=100").await.2);
    assert_eq!(data["step"], 3);
    assert_eq!(data["min"].as_array().unwrap().len(), 100);
    // Kayles: 0, 1, 2, 3, 1, 4, …: the first bucket (0, 1, 2) spans 0 to 2.
    assert_eq!((data["min"][0].as_u64(), data["max"][0].as_u64()), (Some(0), Some(2)));
    let patterns = json(&get(&state, "/api/patterns").await.2);
    assert_eq!(patterns["sequence"]["period"], 12);
    assert_eq!(patterns["sequence"]["proved"], true);
}

/// More than 30 bad requests: each a 4xx with a JSON message (or the framework's own 4xx for a
/// request it cannot even parse), and the state still answers a good request after them.
#[tokio::test]
async fn bad_requests_get_a_4xx_and_a_message() {
    let board = state_of("wythoff", &[64, 64]);
    let sequence = state_of("kayles", &[300]);
    let long = "a".repeat(5000);
    let nested = format!("{}a{}", "(".repeat(2000), ")".repeat(2000));
    let bad_gets: &[(&Arc<ViewState>, &str, u16, &str)] = &[
        (&board, "/api/tile", 400, "`level` is missing"),
        (&board, "/api/tile?level=abc&row=0&col=0", 400, "not a whole number"),
        (&board, "/api/tile?level=-100&row=0&col=0", 400, "zoom level -100 does not exist"),
        (&board, "/api/tile?level=100&row=0&col=0", 400, "zoom level 100 does not exist"),
        (&board, "/api/tile?level=99999999999999999999&row=0&col=0", 400, "not a whole number"),
        (&board, "/api/tile?level=0&row=-1&col=0", 400, "outside the table"),
        (&board, "/api/tile?level=0&row=100000&col=0", 400, "outside the table"),
        (&board, "/api/tile?level=0&row=0&col=9223372036854775807", 400, "outside the table"),
        (&board, "/api/tile?level=0&row=0&col=0&colours=rainbow", 400, "write values or outcomes"),
        (&board, "/api/tile?level=0&row=0&col=0&foo=1", 400, "unknown parameter `foo`"),
        (&board, "/api/tile?a=1&b=2&c=3&d=4&e=5&f=6&g=7&h=8&i=9", 400, "too many parameters"),
        (&board, "/api/cell", 400, "`pos` is missing"),
        (&board, "/api/cell?pos=3", 400, "has 1 coordinates; the table has 2 axes"),
        (&board, "/api/cell?pos=3,5,7", 400, "has 3 coordinates"),
        (&board, "/api/cell?pos=-1,5", 400, "a = -1 is outside the table"),
        (&board, "/api/cell?pos=65,5", 400, "a = 65 is outside the table: a runs from 0 to 64"),
        (&board, "/api/cell?pos=x,y", 400, "not a whole number"),
        (&board, "/api/cell?pos=9223372036854775807,0", 400, "outside the table"),
        (&board, "/api/cell?pos=%00%01,3", 400, "not a whole number"),
        (&board, "/api/moves?pos=1000,1000", 400, "outside the table"),
        (&board, "/api/moves", 400, "`pos` is missing"),
        (&board, "/api/sequence?from=0&to=3&points=4", 400, "this one is a board"),
        (&board, "/api/region.csv?from=10,10&to=5,5", 400, "`to` is before `from` along a"),
        (&board, "/api/region.csv?from=0,0", 400, "`to` is missing"),
        (&board, "/api/legend?width=0", 400, "ask for 2 to 2048 pixels"),
        (&board, "/api/legend?width=abc", 400, "not a whole number"),
        (&board, "/api/nope", 404, "no such page"),
        (&board, "/../../etc/passwd", 404, "no such page"),
        (&sequence, "/api/tile?level=0&row=0&col=0", 400, "this one is a sequence"),
        (&sequence, "/api/sequence?from=0&to=10&points=0", 400, "ask for 1 to 8192"),
        (&sequence, "/api/sequence?from=0&to=10&points=1000000", 400, "ask for 1 to 8192"),
        (&sequence, "/api/sequence?from=10&to=0&points=5", 400, "is before `from`"),
        (&sequence, "/api/sequence?from=-5&to=0&points=5", 400, "outside the table"),
        (&sequence, "/api/sequence?from=0&to=301&points=5", 400, "outside the table"),
    ];
    for &(state, uri, status, message) in bad_gets {
        let (got, _, body) = get(state, uri).await;
        assert_eq!(got.as_u16(), status, "{uri}: {}", String::from_utf8_lossy(&body));
        let error = json(&body)["error"].as_str().unwrap().to_string();
        assert!(error.contains(message), "{uri}: {error}");
    }
    let huge = format!(r#"{{"claim": "{}"}}"#, "a".repeat(100_000));
    let bad_posts: Vec<(String, u16, &str)> = vec![
        ("not json".into(), 400, "the body must be JSON"),
        ("{}".into(), 400, "missing field `claim`"),
        (r#"{"claim": 5}"#.into(), 400, "invalid type"),
        (r#"{"claim": "a +"}"#.into(), 400, "bad expression"),
        (r#"{"claim": "x == 1"}"#.into(), 400, "bad expression"),
        (
            r#"{"claim": "a == 1", "kind": "bogus"}"#.into(),
            400,
            "`bogus` is no kind of claim: write p-set, values, holds or draws",
        ),
        (r#"{"claim": "a == 1", "extra": 1}"#.into(), 400, "unknown field `extra`"),
        (r#"{"claim": "a == 1", "kind": "values"}"#.into(), 400, "bad expression"),
        (r#"{"claim": "a == 1", "from": [1, 1]}"#.into(), 400, "`from` and `to` go together"),
        (r#"{"claim": "a == 1", "from": [1], "to": [2]}"#.into(), 400, "has 1 coordinates"),
        (r#"{"claim": "a == 1", "from": [0, 0], "to": [65, 3]}"#.into(), 400, "outside the table"),
        (r#"{"claim": "a == 1", "from": [5, 5], "to": [1, 1]}"#.into(), 400, "`to` is before"),
        (r#"{"claim": "a == 1", "from": "x", "to": [1, 1]}"#.into(), 400, "invalid type"),
        (format!(r#"{{"claim": "{long}"}}"#), 413, "at most 4096"),
        (format!(r#"{{"claim": "{nested}"}}"#), 400, "bad expression"),
    ];
    for (body, status, message) in bad_posts {
        let (got, answer) = post(&board, "/api/check", body.clone()).await;
        assert_eq!(
            got.as_u16(),
            status,
            "{}: {}",
            &body[..body.len().min(60)],
            String::from_utf8_lossy(&answer)
        );
        let error = json(&answer)["error"].as_str().unwrap().to_string();
        assert!(error.contains(message), "{}: {error}", &body[..body.len().min(60)]);
    }
    // A body past the limit: a JSON message too (issue 50); a GET of a POST route: the
    // framework's own 4xx.
    let (status, answer) = post(&board, "/api/check", huge).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(json(&answer)["error"].as_str().unwrap().contains("longer than 16384 bytes"));
    assert_eq!(get(&board, "/api/check").await.0, StatusCode::METHOD_NOT_ALLOWED);
    // Still serving.
    let cell = json(&get(&board, "/api/cell?pos=3,5").await.2);
    assert_eq!(cell["value"], 0);
}

#[tokio::test]
async fn a_table_being_computed_or_read_from_a_file() {
    let threads = Threads::current();
    let computing = ViewState::computing("wythoff", 100, threads.clone());
    let info = json(&get(&computing, "/api/info").await.2);
    assert_eq!((info["status"].as_str(), info["total"].as_u64()), (Some("computing"), Some(100)));
    let (status, _, body) = get(&computing, "/api/cell?pos=1,1").await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert!(json(&body)["error"].as_str().unwrap().contains("being computed"));
    computing.failed("stopped".into());
    assert_eq!(get(&computing, "/api/cell?pos=1,1").await.0, StatusCode::CONFLICT);

    let file =
        Table::without_game(table_of("wythoff", &[8, 8]).into_data(), CellKind::Values, "w.csv");
    let state = ViewState::of_table(file, threads);
    let (status, _, body) = get(&state, "/api/moves?pos=1,1").await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert!(json(&body)["error"].as_str().unwrap().contains("read from a file"));
    assert_eq!(json(&get(&state, "/api/info").await.2)["moves"], false);
}

/// Over a real socket: bad requests one after another, then a good one, and a clean stop.
#[test]
fn the_server_keeps_serving_and_stops_when_asked() {
    let server = Server::bind(None).unwrap();
    let url = server.url();
    assert!(url.starts_with("http://127.0.0.1:"), "{url}");
    assert!(url.ends_with(&format!("/?token={}", server.token())), "{url}");
    let (address, token) = (server.address(), server.token().to_string());
    let stop = Arc::new(AtomicBool::new(false));
    let stopping = stop.clone();
    let state = state_of("wythoff", &[64, 64]);
    let serving =
        std::thread::spawn(move || server.run(state, move || stopping.load(Ordering::SeqCst)));
    let request = |path: &str| -> String {
        let mut stream = std::net::TcpStream::connect(address).unwrap();
        write!(
            stream,
            "GET {path} HTTP/1.1\r\nHost: {address}\r\nX-Grundy-Token: {token}\r\n\
             Connection: close\r\n\r\n"
        )
        .unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        answer
    };
    for path in ["/api/cell?pos=-1,0", "/api/tile?level=77&row=0&col=0", "/api/moves?pos=a", "/x"] {
        let answer = request(path);
        assert!(answer.starts_with("HTTP/1.1 4"), "{path}: {answer}");
    }
    let answer = request("/api/cell?pos=4,7");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains(r#""value":0"#), "{answer}");
    stop.store(true, Ordering::SeqCst);
    serving.join().unwrap().unwrap();
}

/// Issue 60, item 3: the view takes every kind of claim the library has, by the one parser
/// (`ClaimKind::from_str`): a loopy game's draws too.
#[tokio::test]
async fn every_kind_of_claim_is_taken() {
    let game = lookup("diagonal-shuffle").unwrap();
    let shape = TableShape::from_axes(game.axes().to_vec(), vec![63, 63]);
    let table = FillRequest::new(&game, &shape)
        .whole(&grundy_compute::memory::Besides::NOTHING)
        .unwrap()
        .fill(&NoProgress)
        .unwrap();
    let loopy = ViewState::of_table(table, Threads::current());
    let draws = r#"{"claim": "(n + m) % 2 == 1", "kind": "draws"}"#;
    let (status, report) = post(&loopy, "/api/check", draws).await;
    assert_eq!(status, StatusCode::OK, "{}", String::from_utf8_lossy(&report));
    let report = json(&report);
    assert_eq!(
        (report["claim"].as_str(), report["verdict"].as_str()),
        (Some("draws"), Some("agrees"))
    );
    let board = state_of("kiki", &[20, 20]);
    for (kind, claim) in [
        ("p-set", "n % 2 == 1 && m % 2 == 1"),
        ("values", "2 * ((min(n, m) + 1) % 2) + (n + m) % 2"),
        ("holds", "g < 4"),
    ] {
        let body = serde_json::json!({ "claim": claim, "kind": kind }).to_string();
        let (status, report) = post(&board, "/api/check", body).await;
        assert_eq!(status, StatusCode::OK, "{kind}: {}", String::from_utf8_lossy(&report));
        assert_eq!(json(&report)["claim"], kind);
    }
}
