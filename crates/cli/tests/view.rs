//! `grundy view` in a real browser (issue 29): Debian's Chromium, headless, driven through the
//! DevTools protocol over a pipe (`browser/`). The page of a real Wythoff table must load its
//! tiles, show the known value of a hovered cell, list a clicked cell's moves with the winning
//! ones marked, mark a claim's counterexamples (as many as `grundy check` counts), and draw
//! P-positions red where they are (checked on screenshots, pixel by pixel).
//!
//! Chromium is found at Debian's path or named by `GRUNDY_CHROMIUM`. Without it each test prints
//! that it was skipped and why, and passes, so that `cargo test --workspace` runs on any machine;
//! with `GRUNDY_REQUIRE_EXTERNAL=1` (set by `.ci/run`, which installs Chromium) it fails instead.

mod browser;
mod common;

use browser::{Browser, Point, Tab};
use common::{grundy, stdout_of};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The server, stopped (with SIGINT, as Ctrl-C would) when the test ends.
struct Served {
    child: Child,
    url: String,
}

impl Served {
    fn start(args: &[&str]) -> Served {
        let mut child = Command::new(env!("CARGO_BIN_EXE_grundy"))
            .arg("view")
            .args(args)
            .args(["--quiet"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let url = common::view_url(&mut child);
        Served { child, url }
    }

    /// Stops the server as Ctrl-C does and returns its exit code.
    fn interrupt(mut self) -> Option<i32> {
        let status = common::interrupt(&mut self.child);
        std::mem::forget(self);
        status.code()
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn chromium() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("GRUNDY_CHROMIUM") {
        // A path that names nothing hides the browser (`.ci/run` tests the skip that way).
        return Some(PathBuf::from(path)).filter(|p| p.exists());
    }
    ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.exists())
}

fn browser() -> Option<Browser> {
    let Some(path) = chromium() else {
        let why = "no Chromium at /usr/bin/chromium (or GRUNDY_CHROMIUM): `apt-get install \
                   chromium` to run it";
        if std::env::var_os("GRUNDY_REQUIRE_EXTERNAL").is_some() {
            panic!("the browser test is required here (GRUNDY_REQUIRE_EXTERNAL) but {why}");
        }
        eprintln!("skipped the browser test: {why}");
        return None;
    };
    // The flags a closed network needs (no background connections, no first-run work).
    let flags = [
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--hide-scrollbars",
        "--force-device-scale-factor=1",
    ];
    Some(Browser::launch(&path, (1280, 860), &flags))
}

/// Starts `grundy view ARGS` and opens its page in a new tab, once its table is ready.
fn open_page<'b>(browser: &'b Browser, args: &[&str]) -> (Served, Tab<'b>) {
    let served = Served::start(args);
    let tab = browser.new_tab();
    tab.navigate(&served.url);
    wait_for(&tab, "window.grundyView && grundyView.ready === true");
    (served, tab)
}

/// Evaluates `expression` in the page.
fn eval(tab: &Tab<'_>, expression: &str) -> serde_json::Value {
    tab.evaluate(expression)
}

/// Waits until `expression` is true in the page (10 s at most).
fn wait_for(tab: &Tab<'_>, expression: &str) {
    let start = Instant::now();
    while eval(tab, expression) != serde_json::Value::Bool(true) {
        assert!(start.elapsed() < Duration::from_secs(20), "timed out waiting for {expression}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Where the centre of the cell at `pos` is in the page.
fn cell_point(tab: &Tab<'_>, pos: [i64; 2]) -> Point {
    let p =
        eval(tab, &format!("JSON.stringify(grundyView.cellToClient([{}, {}]))", pos[0], pos[1]));
    let p: serde_json::Value = serde_json::from_str(p.as_str().unwrap()).unwrap();
    Point { x: p["x"].as_f64().unwrap(), y: p["y"].as_f64().unwrap() }
}

/// Clicks the cell at `pos` and waits for its moves: the winning ones' options, sorted, joined
/// by spaces.
fn pin(tab: &Tab<'_>, pos: [i64; 2]) -> serde_json::Value {
    tab.click(cell_point(tab, pos));
    wait_for(tab, "document.querySelectorAll('#pinned-moves li').length > 0");
    eval(
        tab,
        "Array.from(document.querySelectorAll('#pinned-moves li.winning')).map(li => li.dataset.to).sort().join(' ')",
    )
}

/// The RGB of the page's pixel at `point`, from a PNG screenshot.
fn pixel(screenshot: &[u8], point: Point) -> [u8; 3] {
    let decoder = png::Decoder::new(std::io::Cursor::new(screenshot));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = info.color_type.samples();
    let (x, y) = (point.x.floor() as usize, point.y.floor() as usize);
    let at = (y * info.width as usize + x) * channels;
    [buf[at], buf[at + 1], buf[at + 2]]
}

fn screenshot(tab: &Tab<'_>, name: &str) -> Vec<u8> {
    let png = tab.screenshot_png();
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("view-screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(name), &png).unwrap();
    png
}

const P_RED: [u8; 3] = [220, 30, 50];

#[test]
#[cfg_attr(
    chromium_missing,
    ignore = "needs Chromium, not installed when the tests were built: apt-get install chromium, then touch crates/cli/build.rs"
)]
// One browser session walked step by step: the limit is for functions of the code.
#[allow(clippy::too_many_lines)]
fn the_page_shows_values_moves_and_counterexamples() {
    let Some(browser) = browser() else { return };
    let (served, tab) = open_page(&browser, &["wythoff", "--size", "300x300", "--port", "0"]);
    // Every visible tile has loaded.
    wait_for(&tab, "grundyView.tilesLoaded >= grundyView.visibleTiles().length");
    assert_eq!(eval(&tab, "grundyView.tilesFailed"), 0);

    // P-positions of Wythoff's game are red on the screen, other cells are not.
    let png = screenshot(&tab, "loaded.png");
    for p in [[16, 26], [26, 16], [3, 5], [8, 13]] {
        assert_eq!(pixel(&png, cell_point(&tab, p)), P_RED, "P-position {p:?}");
    }
    for n in [[16, 27], [5, 5], [100, 100]] {
        assert_ne!(pixel(&png, cell_point(&tab, n)), P_RED, "N-position {n:?}");
    }

    // Hovering shows the value: (3, 5) is P (0), (5, 8) has value 2.
    for (pos, value) in [([3, 5], "0"), ([5, 8], "2"), ([120, 77], "")] {
        tab.move_mouse_to(cell_point(&tab, pos));
        let shown = format!("{}x{}", pos[0], pos[1]);
        wait_for(&tab, &format!("document.getElementById('hover').dataset.pos === '{shown}'"));
        let text = eval(&tab, "document.getElementById('hover').textContent");
        let got = eval(&tab, "document.getElementById('hover').dataset.value");
        if value.is_empty() {
            // Any cell: the value the command line gives.
            let json = stdout_of(&["value", "wythoff", &shown, "--json"]);
            let expected: serde_json::Value = serde_json::from_str(&json).unwrap();
            assert_eq!(got, expected["value"].to_string().as_str(), "{shown}");
        } else {
            assert_eq!(got, value, "{shown}: {text}");
            assert!(text.as_str().unwrap().contains(&format!("value {value}")), "{text}");
        }
    }

    // Clicking (5, 8) pins it: its options are listed, the winning ones ((4, 7) and (5, 3))
    // first, and the mex is explained.
    assert_eq!(pin(&tab, [5, 8]), "4x7 5x3");
    let count = eval(&tab, "document.querySelectorAll('#pinned-moves li').length");
    assert_eq!(count, 18, "5 + 8 + 5 options");
    let mex = eval(&tab, "document.getElementById('pinned-mex').textContent");
    assert!(mex.as_str().unwrap().contains("the smallest missing is 2"), "{mex}");
    let first = eval(&tab, "document.querySelector('#pinned-moves li').className");
    assert_eq!(first, "winning");

    // A claim typed into the page: its counterexamples are counted as `grundy check` counts them
    // and marked on the map.
    let claim = "a % 2 == 1 && b % 2 == 1";
    tab.click_element("#claim");
    tab.type_text(claim);
    tab.press_enter();
    wait_for(&tab, "document.getElementById('claim-result').dataset.disagreements !== undefined && document.getElementById('claim-result').dataset.disagreements !== ''");
    let shown = eval(&tab, "document.getElementById('claim-result').dataset.disagreements");
    // `check` exits with 1: the claim disagrees.
    let args = ["check", "wythoff", "--size", "300x300", "--p-set", claim, "--json"];
    let check = grundy().args(args).output().unwrap();
    assert_eq!(check.status.code(), Some(1));
    let check: serde_json::Value = serde_json::from_slice(&check.stdout).unwrap();
    assert_eq!(shown, check["disagreements"].to_string().as_str());
    // The first counterexample, (0, 0), has a magenta cross at its centre.
    wait_for(&tab, "grundyView.counterexamples.length > 0");
    let png = screenshot(&tab, "claim.png");
    let first = &check["counterexamples"][0]["position"];
    let first = [first[0].as_i64().unwrap(), first[1].as_i64().unwrap()];
    // (Magenta, give or take the line's anti-aliasing.)
    let [r, g, b] = pixel(&png, cell_point(&tab, first));
    assert!(r > 200 && g < 60 && b > 180, "cross at {first:?}: {:?}", [r, g, b]);

    // Zooming in with the wheel fetches only tiles that are visible at the new level.
    let before = eval(&tab, "grundyView.requested.length").as_u64().unwrap() as usize;
    let centre = cell_point(&tab, [150, 150]);
    for _ in 0..3 {
        tab.wheel(centre, -100.0);
        std::thread::sleep(Duration::from_millis(150));
    }
    wait_for(
        &tab,
        "grundyView.tilesLoaded >= grundyView.requested.length - grundyView.tilesFailed",
    );
    let level = eval(&tab, "grundyView.level").as_i64().unwrap();
    let fetched = eval(&tab, &format!("JSON.stringify(grundyView.requested.slice({before}))"));
    let fetched: Vec<String> = serde_json::from_str(fetched.as_str().unwrap()).unwrap();
    let visible = eval(
        &tab,
        "JSON.stringify(grundyView.visibleTiles().map(([r, c]) => grundyView.colours + '/' + grundyView.level + '/' + r + '/' + c))",
    );
    let visible: Vec<String> = serde_json::from_str(visible.as_str().unwrap()).unwrap();
    let at_level: Vec<&String> =
        fetched.iter().filter(|k| k.split('/').nth(1) == Some(&level.to_string())).collect();
    assert!(!at_level.is_empty(), "tiles of level {level} were fetched");
    for key in at_level {
        assert!(visible.contains(key), "{key} was fetched but is not visible: {visible:?}");
    }
    assert!(visible.len() <= 40, "a screen needs few tiles: {}", visible.len());
    // Zoomed in, the claim's marked counterexamples are those in view (asked for once the zoom
    // settles), and they are counterexamples: cells where the claim and the table differ. The
    // text of the level before may still stand until the new region's answer comes.
    wait_for(
        &tab,
        "(() => { if (!document.getElementById('claim-in-view').textContent.includes('in view')) \
         return false; const [low, , high] = document.getElementById('region-text').textContent \
         .split(' ').map((c) => c.split('x').map(Number)); return grundyView.counterexamples \
         .every(([a, b]) => a >= low[0] && a <= high[0] && b >= low[1] && b <= high[1]); })()",
    );
    let marked = eval(&tab, "JSON.stringify(grundyView.counterexamples)");
    let marked: Vec<[i64; 2]> = serde_json::from_str(marked.as_str().unwrap()).unwrap();
    assert!(!marked.is_empty());
    let corner = |pos: &str| -> [i64; 2] {
        let text = eval(
            &tab,
            &format!("document.getElementById('region-text').textContent.split(' ')[{pos}]"),
        );
        let parts: Vec<i64> =
            text.as_str().unwrap().split('x').map(|p| p.parse().unwrap()).collect();
        [parts[0], parts[1]]
    };
    let (low, high) = (corner("0"), corner("2"));
    for [a, b] in &marked {
        let seen = (low[0]..=high[0]).contains(a) && (low[1]..=high[1]).contains(b);
        assert!(seen, "{a}x{b} is not in view");
    }
    // (The first 12 are asked of the command line, one process each.)
    for [a, b] in marked.iter().take(12) {
        let claimed_p = a % 2 == 1 && b % 2 == 1;
        let json = stdout_of(&["value", "wythoff", &format!("{a}x{b}"), "--json"]);
        let value: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_ne!(value["value"] == 0, claimed_p, "{a}x{b} is no counterexample");
    }
    screenshot(&tab, "zoomed.png");

    // Ctrl-C stops the server cleanly, with the exit code of an interrupted command.
    assert_eq!(served.interrupt(), Some(130));
}

/// A heap game: its sequence plotted, its proved period found, a heap's moves listed.
#[test]
#[cfg_attr(
    chromium_missing,
    ignore = "needs Chromium, not installed when the tests were built: apt-get install chromium, then touch crates/cli/build.rs"
)]
fn a_heap_game_is_plotted_with_its_period() {
    let Some(browser) = browser() else { return };
    let (served, tab) = open_page(&browser, &["kayles", "--size", "500", "--port", "0"]);
    wait_for(&tab, "grundyView.sequence !== null && grundyView.sequenceReport !== null");
    let text = eval(&tab, "document.getElementById('patterns').textContent");
    assert!(text.as_str().unwrap().starts_with("period 12 from n = 71, proved"), "{text}");
    tab.move_mouse_to(cell_point(&tab, [5, 0]));
    wait_for(&tab, "document.getElementById('hover').dataset.pos === '5'");
    assert_eq!(eval(&tab, "document.getElementById('hover').dataset.value"), "4", "Kayles 5 = 4");
    // A click on heap 10 lists its moves: the four to a pair of rows of value 0 win.
    assert_eq!(pin(&tab, [10, 0]), "1+8 2+7 3+6 4+4");
    screenshot(&tab, "sequence.png");
    assert_eq!(served.interrupt(), Some(130));
}

/// The README's picture of the view (`docs/images/view-wythoff.png`): Wythoff's game zoomed in
/// near the origin, a cell hovered and one pinned with its moves. Run by hand to remake it:
/// `cargo test -p grundy-cli --test view -- --ignored readme_picture`.
#[test]
#[ignore = "writes docs/images/view-wythoff.png"]
fn readme_picture() {
    let Some(browser) = browser() else { return };
    let (_served, tab) = open_page(&browser, &["wythoff", "--size", "300x300", "--port", "0"]);
    eval(&tab, "grundyView.centreOn(56, 78, 3)");
    wait_for(
        &tab,
        "grundyView.tilesLoaded >= grundyView.requested.length - grundyView.tilesFailed",
    );
    // (50, 75) has one winning move: to the P-position (46, 75), hovered.
    tab.click(cell_point(&tab, [50, 75]));
    wait_for(&tab, "document.querySelectorAll('#pinned-moves li').length > 0");
    tab.move_mouse_to(cell_point(&tab, [46, 75]));
    wait_for(&tab, "document.getElementById('hover').dataset.pos === '46x75'");
    std::thread::sleep(Duration::from_millis(300));
    let png = screenshot(&tab, "readme.png");
    let out = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/images/view-wythoff.png");
    std::fs::write(out, png).unwrap();
}

/// The address (`127.0.0.1:P`) and the token of the page's URL.
fn address_and_token(url: &str) -> (&str, &str) {
    let rest = url.trim_start_matches("http://");
    let (address, query) = rest.split_once("/?token=").unwrap_or_else(|| panic!("no token: {url}"));
    (address, query)
}

/// A request over a plain socket, as the page sends it (Host, token): the status line and the
/// body.
fn http(url: &str, method: &str, path: &str, body: &str) -> (String, String) {
    use std::io::{Read, Write};
    let (address, token) = address_and_token(url);
    let mut stream = std::net::TcpStream::connect(address).unwrap();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {address}\r\nX-Grundy-Token: {token}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).unwrap();
    let answer = String::from_utf8_lossy(&answer);
    let (head, body) = answer.split_once("\r\n\r\n").unwrap();
    (head.lines().next().unwrap().to_string(), body.to_string())
}

fn http_get(url: &str, path: &str) -> (String, String) {
    http(url, "GET", path, "")
}

/// A table written as `.npy` is viewed (and analysed) as a table of its own: axes i, j from 0,
/// values as written, no moves. No browser needed.
#[test]
fn a_numpy_table_is_served_without_moves() {
    let dir = tempfile::tempdir().unwrap();
    let npy = dir.path().join("wythoff.npy");
    let npy = npy.to_str().unwrap();
    stdout_of(&["compute", "wythoff", "--size", "20x20", "--format", "npy", "--out", npy]);
    let served = Served::start(&[npy, "--port", "0"]);
    let (status, body) = http_get(&served.url, "/api/cell?pos=3,5");
    assert_eq!(status, "HTTP/1.1 200 OK");
    assert!(body.contains(r#""value":0"#), "{body}");
    let (status, body) = http_get(&served.url, "/api/moves?pos=3,5");
    assert!(status.starts_with("HTTP/1.1 409"), "{status}: {body}");
    let (_, info) = http_get(&served.url, "/api/info");
    assert!(info.contains(r#""name":"i""#) && info.contains(r#""name":"j""#), "{info}");
    assert_eq!(served.interrupt(), Some(130));
    // The other commands read it too.
    let report = stdout_of(&["patterns", npy, "--json"]);
    assert!(report.contains(r#""axes":["i","j"]"#), "{report}");
}

/// The address `grundy view` prints carries a token; a request without it, or naming another
/// host, is refused (issue 50).
#[test]
fn the_printed_address_carries_the_token_the_server_needs() {
    use std::io::{Read, Write};
    let served = Served::start(&["wythoff", "--size", "30x30", "--port", "0"]);
    wait_until_ready(&served.url);
    let (address, token) = address_and_token(&served.url);
    assert_eq!(token.len(), 32, "{}", served.url);
    let raw = |request: String| {
        let mut stream = std::net::TcpStream::connect(address).unwrap();
        stream.write_all(request.as_bytes()).unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        answer.lines().next().unwrap_or("").to_string()
    };
    let no_token =
        raw(format!("GET /api/info HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n"));
    assert!(no_token.starts_with("HTTP/1.1 403"), "{no_token}");
    let rebound = raw(format!(
        "GET /api/info HTTP/1.1\r\nHost: attacker.example\r\nX-Grundy-Token: {token}\r\nConnection: close\r\n\r\n"
    ));
    assert!(rebound.starts_with("HTTP/1.1 421"), "{rebound}");
    assert_eq!(served.interrupt(), Some(130));
}

/// Waits until the view's table is ready (`/api/info` says so).
fn wait_until_ready(url: &str) {
    let start = Instant::now();
    while !http_get(url, "/api/info").1.contains(r#""status":"ready""#) {
        assert!(start.elapsed() < Duration::from_secs(60), "the table never became ready");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Whatever the clients do (half a request held open, heavy claims abandoned, one under way),
/// the view answers tiles within a second and Ctrl-C ends it within two (issue 50: Ctrl-C
/// waited more than 242 s).
#[test]
fn ctrl_c_ends_the_view_within_two_seconds_whatever_the_clients_do() {
    use std::io::Write;
    let served =
        Served::start(&["wythoff", "--size", "1999x1999", "--port", "0", "--threads", "2"]);
    wait_until_ready(&served.url);
    let (address, token) = address_and_token(&served.url);
    let tile_within_a_second = |when: &str| {
        let start = Instant::now();
        let (status, _) = http_get(&served.url, "/api/tile?level=0&row=0&col=0");
        assert_eq!(status, "HTTP/1.1 200 OK", "{when}");
        assert!(start.elapsed() < Duration::from_secs(1), "{when}: {:?}", start.elapsed());
    };
    let mut half = std::net::TcpStream::connect(address).unwrap();
    write!(half, "GET /api/info HTTP/1.1\r\nHost: {address}\r\nX-Gr").unwrap();
    tile_within_a_second("half a request held");
    // A claim of some 960 operations at each of 4 million cells: half a minute of a core.
    let mut claim = String::from("(a");
    for k in 0..120 {
        claim.push_str(&format!(" + b * {k} - a % 7"));
    }
    claim.push_str(") % 2 == 0");
    let body = serde_json::json!({ "claim": claim }).to_string();
    let send = || {
        let mut stream = std::net::TcpStream::connect(address).unwrap();
        write!(
            stream,
            "POST /api/check HTTP/1.1\r\nHost: {address}\r\nX-Grundy-Token: {token}\r\n\
             Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )
        .unwrap();
        stream
    };
    for _ in 0..6 {
        drop(send());
        std::thread::sleep(Duration::from_millis(100));
    }
    tile_within_a_second("six heavy claims abandoned");
    let under_way = send();
    std::thread::sleep(Duration::from_millis(300));
    tile_within_a_second("a heavy claim under way");
    let start = Instant::now();
    assert_eq!(served.interrupt(), Some(130));
    let took = start.elapsed();
    assert!(took < Duration::from_secs(2), "Ctrl-C took {took:?}");
    drop((half, under_way));
}

/// A slice that the table does not have is refused at once, as `plot` refuses it, not served as
/// a failed page (issue 50).
#[test]
fn a_slice_outside_the_table_is_refused_before_serving() {
    let output = grundy()
        .args(["view", "cutting-cuboid", "--size", "6x6x6", "--slice", "z=99", "--port", "0"])
        .timeout(Duration::from_secs(20))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty(), "it served: {}", String::from_utf8_lossy(&output.stdout));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("--slice `z=99`: z runs from 2 to 6"), "{stderr}");
}

/// A port in use is one error line that says its cause once (issue 50: "Address already in use
/// (os error 98): Address already in use (os error 98)").
#[test]
fn a_port_in_use_is_said_once() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let output =
        grundy().args(["view", "wythoff", "--size", "9x9", "--port", &port]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert_eq!(stderr.matches("Address already in use").count(), 1, "{stderr}");
    assert!(stderr.contains(&format!("cannot listen on 127.0.0.1:{port}")), "{stderr}");
}
