//! Headless Chromium driven through the DevTools protocol over `--remote-debugging-pipe`: the
//! browser reads requests on its file descriptor 3 and writes answers and events on 4, each
//! message JSON ending in a NUL byte. The few methods the view's test needs (a tab, evaluate,
//! mouse, keys, screenshots) are a page of code over serde_json; a protocol crate (generated
//! bindings for every method, a WebSocket and TLS stack) cost more to build than the rest of
//! the workspace's tests.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, PipeWriter, Write};
use std::os::fd::AsRawFd;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::sync::Mutex;
use std::time::Duration;

/// How long one request may wait for its answer before the test fails (a hung browser).
const ANSWER_TIMEOUT: Duration = Duration::from_secs(60);

/// A point in the page's CSS pixels.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Point {
    pub(crate) x: f64,
    pub(crate) y: f64,
}

/// A running headless Chromium, killed (and its profile removed) when dropped.
pub(crate) struct Browser {
    child: Child,
    requests: Mutex<PipeWriter>,
    answers: Mutex<Receiver<Value>>,
    next_id: AtomicU64,
    _profile: tempfile::TempDir,
}

impl Browser {
    /// Starts Chromium at `path`, headless, with a window of `width` × `height` and `flags`.
    pub(crate) fn launch(path: &Path, (width, height): (u32, u32), flags: &[&str]) -> Browser {
        let profile = tempfile::tempdir().unwrap();
        let (to_browser_read, to_browser) = std::io::pipe().unwrap();
        let (from_browser, from_browser_write) = std::io::pipe().unwrap();
        let (read_fd, write_fd) = (to_browser_read.as_raw_fd(), from_browser_write.as_raw_fd());
        let mut command = Command::new(path);
        command
            .args(["--headless", "--no-sandbox", "--remote-debugging-pipe"])
            // What headless_chrome passed, among them the colour profile the pixel checks need.
            .args([
                "--disable-background-timer-throttling",
                "--disable-backgrounding-occluded-windows",
                "--disable-renderer-backgrounding",
                "--disable-breakpad",
                "--disable-dev-shm-usage",
                "--disable-extensions",
                "--disable-default-apps",
                "--disable-popup-blocking",
                "--force-color-profile=srgb",
                "--password-store=basic",
                "--use-mock-keychain",
            ])
            .arg(format!("--window-size={width},{height}"))
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .args(flags)
            .arg("about:blank")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        // SAFETY: between fork and exec only async-signal-safe calls (fcntl, dup2) on descriptors
        // this process owns. Both ends are first copied above 9 so that neither is overwritten
        // by the other's dup2, and dup2 clears close-on-exec on 3 and 4.
        unsafe {
            command.pre_exec(move || {
                let high_read = libc::fcntl(read_fd, libc::F_DUPFD, 10);
                let high_write = libc::fcntl(write_fd, libc::F_DUPFD, 10);
                if high_read < 0
                    || high_write < 0
                    || libc::dup2(high_read, 3) < 0
                    || libc::dup2(high_write, 4) < 0
                {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = command.spawn().expect("Chromium starts");
        // The child's ends live in the child only: a closed browser then ends the reader.
        drop((to_browser_read, from_browser_write));
        let (sender, answers) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(from_browser);
            let mut message = Vec::new();
            while matches!(reader.read_until(0, &mut message), Ok(n) if n > 0) {
                message.pop_if(|byte| *byte == 0);
                if let Ok(value) = serde_json::from_slice::<Value>(&message) {
                    if sender.send(value).is_err() {
                        break;
                    }
                }
                message.clear();
            }
        });
        Browser {
            child,
            requests: Mutex::new(to_browser),
            answers: Mutex::new(answers),
            next_id: AtomicU64::new(1),
            _profile: profile,
        }
    }

    /// Sends `method` with `params` (to a tab's `session`, or to the browser) and returns the
    /// answer's `result`; events that arrive meanwhile are dropped.
    fn call(&self, session: Option<&str>, method: &str, params: Value) -> Value {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let mut request = json!({ "id": id, "method": method, "params": params });
        if let Some(session) = session {
            request["sessionId"] = json!(session);
        }
        let mut bytes = serde_json::to_vec(&request).unwrap();
        bytes.push(0);
        self.requests.lock().unwrap().write_all(&bytes).expect("the browser reads requests");
        let answers = self.answers.lock().unwrap();
        loop {
            let message = answers
                .recv_timeout(ANSWER_TIMEOUT)
                .unwrap_or_else(|e| panic!("no answer to {method} from the browser: {e}"));
            if message["id"].as_u64() == Some(id) {
                if let Some(error) = message.get("error") {
                    panic!("{method} failed in the browser: {error}");
                }
                return message["result"].clone();
            }
        }
    }

    /// A new tab, attached.
    pub(crate) fn new_tab(&self) -> Tab<'_> {
        let target = self.call(None, "Target.createTarget", json!({ "url": "about:blank" }));
        let attached = self.call(
            None,
            "Target.attachToTarget",
            json!({ "targetId": target["targetId"], "flatten": true }),
        );
        let session = attached["sessionId"].as_str().expect("a session id").to_string();
        Tab { browser: self, session }
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One page of the browser.
pub(crate) struct Tab<'a> {
    browser: &'a Browser,
    session: String,
}

impl Tab<'_> {
    fn call(&self, method: &str, params: Value) -> Value {
        self.browser.call(Some(&self.session), method, params)
    }

    /// Opens `url` and waits until its document has loaded.
    pub(crate) fn navigate(&self, url: &str) {
        let answer = self.call("Page.navigate", json!({ "url": url }));
        if let Some(error) = answer.get("errorText") {
            panic!("the browser could not open {url}: {error}");
        }
        let start = std::time::Instant::now();
        while self.evaluate("document.readyState === 'complete' && location.href !== 'about:blank'")
            != Value::Bool(true)
        {
            assert!(start.elapsed() < ANSWER_TIMEOUT, "{url} never finished loading");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The value of `expression` in the page (`null` for `undefined`); a thrown exception fails.
    pub(crate) fn evaluate(&self, expression: &str) -> Value {
        let answer = self
            .call("Runtime.evaluate", json!({ "expression": expression, "returnByValue": true }));
        if let Some(exception) = answer.get("exceptionDetails") {
            panic!("{expression} threw in the page: {exception}");
        }
        answer["result"].get("value").cloned().unwrap_or(Value::Null)
    }

    fn mouse(&self, kind: &str, at: Point, extra: Value) {
        let mut params = json!({ "type": kind, "x": at.x, "y": at.y });
        params.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        self.call("Input.dispatchMouseEvent", params);
    }

    pub(crate) fn move_mouse_to(&self, at: Point) {
        self.mouse("mouseMoved", at, json!({}));
    }

    /// Moves to `at`, then presses and releases the left button there.
    pub(crate) fn click(&self, at: Point) {
        self.move_mouse_to(at);
        for kind in ["mousePressed", "mouseReleased"] {
            self.mouse(kind, at, json!({ "button": "left", "buttons": 1, "clickCount": 1 }));
        }
    }

    /// Clicks the middle of the element that `selector` finds (waiting for it to exist).
    pub(crate) fn click_element(&self, selector: &str) {
        let selector = serde_json::to_string(selector).unwrap();
        let expression = format!(
            "(() => {{ const e = document.querySelector({selector}); if (!e) return null; \
             e.scrollIntoView({{ block: 'center' }}); const r = e.getBoundingClientRect(); \
             return {{ x: r.left + r.width / 2, y: r.top + r.height / 2 }}; }})()"
        );
        let start = std::time::Instant::now();
        let centre = loop {
            let centre = self.evaluate(&expression);
            if !centre.is_null() {
                break centre;
            }
            assert!(start.elapsed() < ANSWER_TIMEOUT, "no element {selector} in the page");
            std::thread::sleep(Duration::from_millis(50));
        };
        self.click(Point { x: centre["x"].as_f64().unwrap(), y: centre["y"].as_f64().unwrap() });
    }

    /// Turns the mouse wheel at `at` by `delta_y` pixels (negative: away from the user).
    pub(crate) fn wheel(&self, at: Point, delta_y: f64) {
        self.mouse("mouseWheel", at, json!({ "deltaX": 0.0, "deltaY": delta_y }));
    }

    /// Types `text` into the focused element, as an input method would.
    pub(crate) fn type_text(&self, text: &str) {
        self.call("Input.insertText", json!({ "text": text }));
    }

    /// Presses and releases Enter.
    pub(crate) fn press_enter(&self) {
        let key = json!({ "key": "Enter", "code": "Enter", "windowsVirtualKeyCode": 13,
                          "nativeVirtualKeyCode": 13 });
        let mut down = key.clone();
        down["type"] = json!("keyDown");
        down["text"] = json!("\r");
        down["unmodifiedText"] = json!("\r");
        self.call("Input.dispatchKeyEvent", down);
        let mut up = key;
        up["type"] = json!("keyUp");
        self.call("Input.dispatchKeyEvent", up);
    }

    /// The viewport as a PNG.
    pub(crate) fn screenshot_png(&self) -> Vec<u8> {
        use base64::Engine;
        let answer =
            self.call("Page.captureScreenshot", json!({ "format": "png", "fromSurface": true }));
        let data = answer["data"].as_str().expect("screenshot data");
        base64::engine::general_purpose::STANDARD.decode(data).unwrap()
    }
}
