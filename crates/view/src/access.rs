//! Who may talk to the server: this machine's browser, through the address the server printed.
//!
//! Listening on 127.0.0.1 keeps other machines out, but not the web pages the user opens: a page
//! can send requests to `127.0.0.1:P` (a cross-site request), or make its own host name resolve
//! there (DNS rebinding) and read the answers. So every request passes [`admit`], as notebook
//! servers do it:
//!
//! - **Host**: the request must name this server: `127.0.0.1:P`, `localhost:P` or `[::1]:P`. A
//!   rebinding page's requests carry its own host name, and are refused with 421.
//! - **Origin** and **Sec-Fetch-Site**: a request that says it comes from another origin, or
//!   that the browser marks as cross-site (or same-site: another port of this machine), is
//!   refused with 403; only a navigation to the page itself may come from elsewhere (a link in a
//!   notebook), and it still needs the token.
//! - **Token**: a random token, printed in the page's address (`?token=…`), is needed by the page
//!   and by every API call (the page sends it as the header `X-Grundy-Token`, and in the
//!   addresses of its images and downloads). A page on another site cannot know it. Only the
//!   script and the style, which hold nothing of the table, are served without it.
//! - **Bodies**: a `POST` must say `Content-Type: application/json`: a browser sends such a
//!   request across sites only after asking (a preflight), which this server never allows.

use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode, Uri};
use axum::middleware::Next;
use axum::response::{Html, IntoResponse, Response};
use std::sync::Arc;

/// The header the page sends the token in.
pub const TOKEN_HEADER: &str = "x-grundy-token";
/// The query parameter that carries the token in an address.
pub const TOKEN_PARAMETER: &str = "token";

/// What a request must show to be answered: the server's port (for Host and Origin) and its
/// token.
#[derive(Clone)]
pub struct Access {
    port: u16,
    token: String,
}

impl std::fmt::Debug for Access {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The token is a secret: never in a log or a panic message.
        f.debug_struct("Access").field("port", &self.port).finish_non_exhaustive()
    }
}

impl Access {
    /// Access to a server on `port` with a fresh random token (128 bits from the system's
    /// random source).
    ///
    /// # Errors
    /// When the system's random source cannot be read.
    pub fn random(port: u16) -> std::io::Result<Access> {
        let mut bytes = [0u8; 16];
        getrandom::fill(&mut bytes).map_err(|err| std::io::Error::other(err.to_string()))?;
        let token = bytes.iter().map(|b| format!("{b:02x}")).collect();
        Ok(Access { port, token })
    }

    /// Access to a server on `port` with the token `token` (tests, and a caller that sets its
    /// own).
    pub fn new(port: u16, token: impl Into<String>) -> Access {
        Access { port, token: token.into() }
    }

    /// The token.
    pub fn token(&self) -> &str {
        &self.token
    }

    /// The port the server listens on.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The names a request may give as its Host.
    fn hosts(&self) -> [String; 3] {
        let port = self.port;
        [format!("127.0.0.1:{port}"), format!("localhost:{port}"), format!("[::1]:{port}")]
    }

    fn is_own_host(&self, host: &str) -> bool {
        self.hosts().iter().any(|own| own.eq_ignore_ascii_case(host))
    }

    fn is_own_origin(&self, origin: &str) -> bool {
        origin.strip_prefix("http://").is_some_and(|host| self.is_own_host(host))
    }

    /// Whether `given` is the token, compared in time that does not depend on where they differ.
    fn is_token(&self, given: &str) -> bool {
        let (a, b) = (given.as_bytes(), self.token.as_bytes());
        a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
    }
}

/// Why a request was refused.
struct Refusal {
    status: StatusCode,
    message: String,
}

impl Refusal {
    fn new(status: StatusCode, message: impl Into<String>) -> Refusal {
        Refusal { status, message: message.into() }
    }
}

/// The middleware: admits a request (see the module docs), its token taken out of the address
/// so that the routes see only their own parameters, or refuses it.
pub(crate) async fn admit(
    State(access): State<Arc<Access>>,
    mut request: Request,
    next: Next,
) -> Response {
    let page = request.uri().path() == "/";
    match check(&access, &mut request) {
        Ok(()) => {
            let mut response = next.run(request).await;
            let headers = response.headers_mut();
            // The page's address holds the token: it is never sent on as a Referer.
            headers.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
            headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
            response
        }
        Err(refusal) if page => {
            (refusal.status, Html(refused_page(&refusal.message))).into_response()
        }
        Err(refusal) => {
            crate::refusal::ApiError::new(refusal.status, refusal.message).into_response()
        }
    }
}

fn check(access: &Access, request: &mut Request) -> Result<(), Refusal> {
    let headers = request.headers();
    let host = text(headers, header::HOST.as_str())?;
    match host {
        Some(host) if access.is_own_host(host) => {}
        Some(host) => {
            return Err(Refusal::new(
                StatusCode::MISDIRECTED_REQUEST,
                format!(
                    "this server answers to 127.0.0.1:{port} and localhost:{port} only, not to \
                     `{}` (a page that made its own name point here?)",
                    crate::refusal::printable(host),
                    port = access.port
                ),
            ))
        }
        None => {
            return Err(Refusal::new(StatusCode::MISDIRECTED_REQUEST, "the request names no Host"))
        }
    }
    if let Some(origin) = text(headers, header::ORIGIN.as_str())? {
        if !access.is_own_origin(origin) {
            return Err(Refusal::new(
                StatusCode::FORBIDDEN,
                format!(
                    "requests from other origins are refused (Origin: `{}`)",
                    crate::refusal::printable(origin)
                ),
            ));
        }
    }
    let navigation = text(headers, "sec-fetch-mode")? == Some("navigate");
    let path = request.uri().path();
    if let Some(site @ ("cross-site" | "same-site")) = text(headers, "sec-fetch-site")? {
        // A link to the page (from a notebook, say) is a navigation; anything else that the
        // browser says comes from another site is a page of that site talking to this server.
        if !(navigation && path == "/") {
            return Err(Refusal::new(
                StatusCode::FORBIDDEN,
                format!("{site} requests are refused: open the page at the address grundy printed"),
            ));
        }
    }
    // The script and the style hold nothing of the table.
    if request.method() == Method::GET && matches!(path, "/view.js" | "/view.css") {
        return Ok(());
    }
    let from_header = text(headers, TOKEN_HEADER)?.map(str::to_string);
    let (from_query, rest) = take_token(request.uri());
    let given = from_header.or(from_query);
    match given {
        Some(given) if access.is_token(&given) => {}
        Some(_) => {
            return Err(Refusal::new(
                StatusCode::FORBIDDEN,
                "the token is wrong: open the page at the address grundy printed (with its \
                 ?token=)",
            ))
        }
        None => {
            return Err(Refusal::new(
                StatusCode::FORBIDDEN,
                "a token is needed: open the page at the address grundy printed (with its \
                 ?token=), or send it as X-Grundy-Token",
            ))
        }
    }
    if request.method() == Method::POST {
        let json = text(request.headers(), header::CONTENT_TYPE.as_str())?.is_some_and(|kind| {
            kind.split(';')
                .next()
                .is_some_and(|k| k.trim().eq_ignore_ascii_case("application/json"))
        });
        if !json {
            return Err(Refusal::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "the body must be JSON, sent with Content-Type: application/json",
            ));
        }
    }
    if let Some(rest) = rest {
        *request.uri_mut() = rest;
    }
    Ok(())
}

/// A header's value as text; `None` when absent. Two values of one header, or a value that is
/// not visible ASCII, is refused (a header this server reads must say one thing).
fn text<'h>(headers: &'h HeaderMap, name: &str) -> Result<Option<&'h str>, Refusal> {
    let mut values = headers.get_all(name).iter();
    let Some(value) = values.next() else { return Ok(None) };
    if values.next().is_some() {
        return Err(Refusal::new(
            StatusCode::BAD_REQUEST,
            format!("the header {name} is given twice"),
        ));
    }
    value.to_str().map(Some).map_err(|_| {
        Refusal::new(StatusCode::BAD_REQUEST, format!("the header {name} is not text"))
    })
}

/// The token of an address's query, and the address without it (`None`: no token there).
fn take_token(uri: &Uri) -> (Option<String>, Option<Uri>) {
    let Some(query) = uri.query() else { return (None, None) };
    let mut token = None;
    let mut kept = Vec::new();
    for pair in query.split('&') {
        match pair.strip_prefix(TOKEN_PARAMETER).and_then(|rest| rest.strip_prefix('=')) {
            Some(value) if token.is_none() => token = Some(value.to_string()),
            // A second token: kept, so the route refuses it as a parameter it does not take.
            _ => kept.push(pair),
        }
    }
    if token.is_none() {
        return (None, None);
    }
    let path = uri.path();
    let rest =
        if kept.is_empty() { path.to_string() } else { format!("{path}?{}", kept.join("&")) };
    (token, rest.parse().ok())
}

/// The page shown instead of the view when a request is refused.
fn refused_page(message: &str) -> String {
    let escaped: String = message
        .chars()
        .map(|c| match c {
            '<' => "&lt;".to_string(),
            '>' => "&gt;".to_string(),
            '&' => "&amp;".to_string(),
            '"' => "&quot;".to_string(),
            c => c.to_string(),
        })
        .collect();
    format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>grundy view</title>\
         </head><body><h1>grundy view</h1><p>{escaped}</p></body></html>\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_token_is_taken_out_of_the_address() {
        let uri: Uri = "/api/cell?pos=1,2&token=abc".parse().unwrap();
        let (token, rest) = take_token(&uri);
        assert_eq!(token.as_deref(), Some("abc"));
        assert_eq!(rest.unwrap().to_string(), "/api/cell?pos=1,2");
        let (token, rest) = take_token(&"/?token=abc".parse().unwrap());
        assert_eq!((token.as_deref(), rest.unwrap().to_string().as_str()), (Some("abc"), "/"));
        assert_eq!(take_token(&"/api/info?pos=1".parse().unwrap()), (None, None));
        // `tokens=` is another parameter.
        assert_eq!(take_token(&"/api/info?tokens=1".parse().unwrap()).0, None);
    }

    #[test]
    fn hosts_and_origins_are_this_servers_only() {
        let access = Access::new(8080, "t");
        for own in ["127.0.0.1:8080", "localhost:8080", "LOCALHOST:8080", "[::1]:8080"] {
            assert!(access.is_own_host(own), "{own}");
        }
        for other in ["127.0.0.1", "localhost", "127.0.0.1:8081", "attacker.example:8080", ""] {
            assert!(!access.is_own_host(other), "{other}");
        }
        assert!(access.is_own_origin("http://localhost:8080"));
        for other in
            ["null", "https://localhost:8080", "http://evil.example", "http://localhost:80"]
        {
            assert!(!access.is_own_origin(other), "{other}");
        }
        assert!(access.is_token("t") && !access.is_token("T") && !access.is_token("tt"));
    }

    #[test]
    fn random_tokens_differ_and_stay_out_of_debug() {
        let (a, b) = (Access::random(1).unwrap(), Access::random(1).unwrap());
        assert_eq!(a.token().len(), 32);
        assert_ne!(a.token(), b.token());
        assert!(!format!("{a:?}").contains(a.token()));
    }
}
