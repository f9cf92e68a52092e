//! The page, its script and its style, embedded in the binary: the view works offline.

use axum::http::header;
use axum::response::{Html, IntoResponse, Response};

const PAGE: &str = include_str!("../assets/index.html");
// One script in two files: the map and its drawing, then the panels, which use its names.
const SCRIPT: &str =
    concat!(include_str!("../assets/view.js"), include_str!("../assets/panels.js"));
const STYLE: &str = include_str!("../assets/view.css");

pub(crate) fn page() -> Html<&'static str> {
    Html(PAGE)
}

pub(crate) fn script() -> Response {
    ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], SCRIPT).into_response()
}

pub(crate) fn style() -> Response {
    ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], STYLE).into_response()
}
