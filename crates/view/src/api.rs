//! The routes: the page, and a JSON and PNG API over the table, every request validated.

use crate::access::{admit, Access};
use crate::assets;
use crate::limits::BODY_TIMEOUT;
use crate::refusal::{printable, ApiError};
use crate::state::{holds_values, Client, Phase, Ready, ViewState};
use axum::body::{Body, Bytes};
use axum::extract::{Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use grundy_compute::{Budget, Progress, Seconds};
use grundy_core::{CellKind, Coord, CsvLayout, GrundyTable, Nimber, TableShape};
use grundy_laws::closed_form::LawOptions;
use grundy_laws::conjecture::{check_in, proof_work, ClaimKind, Conjecture, Lanes};
use grundy_laws::ErrorKind;
use grundy_play::moves::{moves_in_table, MovesError};
use grundy_plot::tiles::{TileColours, Tiles, MAX_LEVEL, TILE_PIXELS};
use serde::Deserialize;
use serde_json::json;
use std::collections::HashMap;
use std::sync::Arc;

/// The largest request body (a claim).
const MAX_BODY: usize = 16 << 10;
/// The longest claim, in bytes.
const MAX_CLAIM: usize = 4096;
/// Counterexamples sent back at most.
const MAX_COUNTEREXAMPLES: usize = 2000;
/// The time a claim's proof may take in the view (the check of the table's cells comes first,
/// bounded by the claim's work): a box of a few million cells.
const PROOF_SECONDS: Seconds = Seconds::new_const(5.0);
/// The most work a claim may ask for: cells of the table times the operations of the claim
/// ([`Conjecture::size`]; an operation takes about 10 ns, so this is about 40 s of one core, and
/// the check stops as soon as its client goes away).
const MAX_CLAIM_WORK: u128 = 1 << 32;
/// The work of a claim that runs without waiting for a heavy turn (`a == b` on a 2000 × 2000
/// table is 1.2 × 10⁷, tenths of a second): it is checked on the request's own thread alone
/// ([`Lanes::Caller`]), so a light check is answered while heavy ones keep the pool busy.
const LIGHT_CLAIM_WORK: u128 = 1 << 25;
/// The most cells of a region downloaded as CSV.
const MAX_REGION_CELLS: u64 = 1 << 22;
/// The most buckets of a sequence request.
const MAX_POINTS: u64 = 8192;
/// The most query parameters of a request.
const MAX_PARAMETERS: usize = 8;

/// The server's routes over `state`, each request admitted by `access` first (Host, Origin,
/// token: see the `access` module).
pub fn router(state: Arc<ViewState>, access: Access) -> Router {
    Router::new()
        .route("/", get(|| async { assets::page() }))
        .route("/view.js", get(|| async { assets::script() }))
        .route("/view.css", get(|| async { assets::style() }))
        .route("/api/info", get(info))
        .route("/api/tile", get(tile))
        .route("/api/legend", get(legend))
        .route("/api/cell", get(cell))
        .route("/api/moves", get(moves))
        .route("/api/check", post(check_claim))
        .route("/api/patterns", get(patterns))
        .route("/api/sequence", get(sequence))
        .route("/api/region.csv", get(region))
        .fallback(|| async { ApiError::new(StatusCode::NOT_FOUND, "no such page or API route") })
        .with_state(state)
        .layer(axum::middleware::from_fn_with_state(Arc::new(access), admit))
}

type Params = Query<HashMap<String, String>>;
type ApiResult<T> = Result<T, ApiError>;

/// The table, or 503 while it is computed (409 when its fill failed).
fn ready(state: &ViewState) -> ApiResult<Arc<Ready>> {
    match &*state.phase() {
        Phase::Ready(ready) => Ok(ready.clone()),
        Phase::Computing => {
            let (done, total) = state.progress();
            Err(ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                format!("the table is being computed ({done} of {total} cells)"),
            ))
        }
        Phase::Failed(why) => Err(ApiError::new(StatusCode::CONFLICT, why.clone())),
    }
}

/// The parameter `name`, which must be given, with no parameter the route does not know.
fn param<'p>(params: &'p HashMap<String, String>, name: &str) -> ApiResult<&'p str> {
    params
        .get(name)
        .map(String::as_str)
        .ok_or_else(|| ApiError::bad(format!("`{name}` is missing")))
}

/// Refuses parameters other than `known` (a typo must not be silently ignored).
fn only(params: &HashMap<String, String>, known: &[&str]) -> ApiResult<()> {
    if params.len() > MAX_PARAMETERS {
        return Err(ApiError::bad("too many parameters"));
    }
    match params.keys().find(|k| !known.contains(&k.as_str())) {
        Some(key) => Err(ApiError::bad(format!(
            "unknown parameter `{}`; this route takes {}",
            printable(key),
            known.join(", ")
        ))),
        None => Ok(()),
    }
}

fn integer(name: &str, text: &str) -> ApiResult<i64> {
    text.trim().parse::<i64>().map_err(|_| {
        ApiError::bad(format!("`{name}` = `{}` is not a whole number", printable(text)))
    })
}

/// A position `3,5` (or `3x5`) inside the table.
fn position(text: &str, table: &GrundyTable) -> ApiResult<Vec<Coord>> {
    let axes = table.axes();
    // `3,5` as the page writes it, or `3x5` as the command line does.
    let separator = if text.contains(',') { ',' } else { 'x' };
    let parts: Vec<&str> = text.split(separator).collect();
    if parts.len() != axes.len() {
        return Err(ApiError::bad(format!(
            "position `{}` has {} coordinates; the table has {} axes",
            printable(text),
            parts.len(),
            axes.len()
        )));
    }
    let pos = parts.iter().map(|p| integer("pos", p)).collect::<ApiResult<Vec<_>>>()?;
    inside(&pos, table)?;
    Ok(pos)
}

/// Refuses a position of another number of coordinates than the table's axes, or outside it.
fn on_table(pos: &[Coord], table: &GrundyTable) -> ApiResult<()> {
    let dims = table.axes().len();
    if pos.len() != dims {
        return Err(ApiError::bad(format!(
            "position {pos:?} has {} coordinates; the table has {dims} axes",
            pos.len()
        )));
    }
    inside(pos, table)
}

/// Refuses a position outside the table, naming the axis and its range.
fn inside(pos: &[Coord], table: &GrundyTable) -> ApiResult<()> {
    let max = table.shape().max();
    for ((&c, axis), &top) in pos.iter().zip(table.axes()).zip(max) {
        if c < axis.min || c > top {
            return Err(ApiError::bad(format!(
                "{} = {c} is outside the table: {} runs from {} to {top}",
                axis.name, axis.name, axis.min
            )));
        }
    }
    Ok(())
}

/// Runs blocking `work` off the server's thread.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> ApiResult<T> + Send + 'static,
) -> ApiResult<T> {
    tokio::task::spawn_blocking(work).await.map_err(|err| {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, format!("the work failed: {err}"))
    })?
}

/// A request's body: at most [`MAX_BODY`] bytes, sent within [`BODY_TIMEOUT`].
async fn read_body(body: Body) -> ApiResult<Bytes> {
    let too_long = || {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the body is longer than {MAX_BODY} bytes"),
        )
    };
    match tokio::time::timeout(BODY_TIMEOUT, axum::body::to_bytes(body, MAX_BODY)).await {
        Ok(Ok(bytes)) => Ok(bytes),
        Ok(Err(_)) => Err(too_long()),
        Err(_) => Err(ApiError::new(
            StatusCode::REQUEST_TIMEOUT,
            format!("the body was not sent within {} s", BODY_TIMEOUT.as_secs()),
        )),
    }
}

async fn info(State(state): State<Arc<ViewState>>) -> Response {
    let (done, total) = state.progress();
    let body = match &*state.phase() {
        Phase::Computing => {
            json!({ "status": "computing", "name": state.name(), "done": done, "total": total })
        }
        Phase::Failed(why) => json!({ "status": "failed", "name": state.name(), "error": why }),
        Phase::Ready(ready) => {
            let table = ready.table.data();
            let stats = table.stats();
            let axes: Vec<_> = table
                .axes()
                .iter()
                .zip(table.shape().max())
                .map(|(a, max)| json!({ "name": a.name, "min": a.min, "max": max }))
                .collect();
            json!({
                "status": "ready",
                "name": ready.table.name(),
                "axes": axes,
                "cells": if holds_values(ready.table.kind()) { "values" } else { "outcomes" },
                "max": stats.max,
                "p_positions": stats.p_positions,
                "moves": ready.table.game().is_some(),
                "min_level": ready.tiles.as_ref().map(Tiles::min_level),
                "max_level": MAX_LEVEL,
                "tile_pixels": TILE_PIXELS,
                "done": done,
                "total": total,
            })
        }
    };
    axum::Json(body).into_response()
}

async fn tile(State(state): State<Arc<ViewState>>, Query(params): Params) -> ApiResult<Response> {
    only(&params, &["level", "row", "col", "colours"])?;
    let ready = ready(&state)?;
    let Some(_) = &ready.tiles else {
        return Err(ApiError::bad("tiles are drawn of 2-D tables; this one is a sequence"));
    };
    let level = integer("level", param(&params, "level")?)?;
    let row = integer("row", param(&params, "row")?)?;
    let col = integer("col", param(&params, "col")?)?;
    if row < 0 || col < 0 {
        return Err(ApiError::bad(format!("tile ({row}, {col}) lies outside the table")));
    }
    let colours = colours(&params, &ready)?;
    let png = blocking(move || {
        let tiles = ready.tiles.as_ref().expect("checked above");
        tiles
            .png(ready.table.data(), level, row as u64, col as u64, colours)
            .map_err(|err| ApiError::bad(err.to_string()))
    })
    .await?;
    Ok(([(header::CONTENT_TYPE, "image/png"), (header::CACHE_CONTROL, "max-age=3600")], png)
        .into_response())
}

async fn legend(State(state): State<Arc<ViewState>>, Query(params): Params) -> ApiResult<Response> {
    only(&params, &["colours", "width"])?;
    let ready = ready(&state)?;
    let colours = colours(&params, &ready)?;
    let width = match params.get("width") {
        Some(text) => integer("width", text)?,
        None => 256,
    };
    if !(2..=2048).contains(&width) {
        return Err(ApiError::bad(format!("`width` = {width}: ask for 2 to 2048 pixels")));
    }
    let max = ready.table.data().stats().max;
    let png = grundy_plot::tiles::legend_png(max, colours, width as u32);
    Ok(([(header::CONTENT_TYPE, "image/png")], png).into_response())
}

/// The `colours` parameter: values (the default) or outcomes; a P/N table has outcomes only.
fn colours(params: &HashMap<String, String>, ready: &Ready) -> ApiResult<TileColours> {
    match params.get("colours").map(String::as_str) {
        None | Some("values") if holds_values(ready.table.kind()) => Ok(TileColours::Values),
        None | Some("values") | Some("outcomes") => Ok(TileColours::Outcomes),
        Some(other) => Err(ApiError::bad(format!(
            "`colours` = `{}`: write values or outcomes",
            printable(other)
        ))),
    }
}

/// The outcome of a cell: `P` when its value (or mask cell) is 0.
fn outcome(value: Nimber) -> &'static str {
    if value.is_p() {
        "P"
    } else {
        "N"
    }
}

async fn cell(State(state): State<Arc<ViewState>>, Query(params): Params) -> ApiResult<Response> {
    only(&params, &["pos"])?;
    let ready = ready(&state)?;
    let table = ready.table.data();
    let pos = position(param(&params, "pos")?, table)?;
    let value = table.get(&pos).expect("inside the table");
    let body = if holds_values(ready.table.kind()) {
        json!({ "position": pos, "value": value.value(), "outcome": outcome(value) })
    } else {
        json!({ "position": pos, "value": null, "outcome": outcome(value) })
    };
    Ok(axum::Json(body).into_response())
}

async fn moves(State(state): State<Arc<ViewState>>, Query(params): Params) -> ApiResult<Response> {
    only(&params, &["pos"])?;
    let ready = ready(&state)?;
    let Some(game) = ready.table.game() else {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "the rules of this table are not known (it was read from a file, or is a slice of a \
             3-D table), so neither are its moves",
        ));
    };
    let pos = position(param(&params, "pos")?, ready.table.data())?;
    let game = game.clone();
    blocking(move || {
        let moves = moves_in_table::<std::convert::Infallible>(&game, ready.table.data(), &pos)
            .map_err(|err| match err {
                MovesError::TooManyOptions { .. } => {
                    ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, err.to_string())
                }
                MovesError::Values(_) => {
                    ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, err.to_string())
                }
            })?;
        let component = &moves.components[0];
        let mut body = serde_json::to_value(moves.report()).expect("a report serialises");
        body["mex"] = json!(component.mex());
        Ok(axum::Json(body).into_response())
    })
    .await
}

/// The body of `POST /api/check`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CheckBody {
    claim: String,
    #[serde(default)]
    kind: Option<String>,
    /// With `to`: check only this box (the markers of the part in view), not the whole table.
    #[serde(default)]
    from: Option<Vec<Coord>>,
    #[serde(default)]
    to: Option<Vec<Coord>>,
}

async fn check_claim(State(state): State<Arc<ViewState>>, body: Body) -> ApiResult<Response> {
    let ready = ready(&state)?;
    let body = read_body(body).await?;
    let body: CheckBody = serde_json::from_slice(&body).map_err(|err| {
        ApiError::bad(format!(
            "the body must be JSON {{\"claim\": \"...\", \"kind\": \"p-set\"}}: {err}"
        ))
    })?;
    if body.claim.len() > MAX_CLAIM {
        return Err(ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the claim is {} bytes long; at most {MAX_CLAIM}", body.claim.len()),
        ));
    }
    let region = match (&body.from, &body.to) {
        (None, None) => None,
        (Some(from), Some(to)) => {
            let table = ready.table.data();
            on_table(from, table)?;
            on_table(to, table)?;
            Some(Region::new(from.clone(), to.clone(), table)?)
        }
        _ => return Err(ApiError::bad("`from` and `to` go together: a box of the table")),
    };
    let kind = match body.kind.as_deref() {
        None => ClaimKind::PSet,
        Some(name) => name.parse().map_err(|err| ApiError::bad(format!("`kind`: {err}")))?,
    };
    let names: Vec<&str> = ready.table.data().axes().iter().map(|a| a.name.as_str()).collect();
    let conjecture = Conjecture::parse(kind, &body.claim, &names)
        .map_err(|err| ApiError::bad(format!("bad expression: {err}")))?;
    let cells = region.as_ref().map_or(ready.table.data().len() as u128, |r| u128::from(r.cells));
    let work = cells * conjecture.size() as u128;
    if work > MAX_CLAIM_WORK {
        return Err(ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "the claim does {} operations at each of {cells} cells: {work} in all, more than \
                 the view evaluates at once ({MAX_CLAIM_WORK}); check the part in view, shorten \
                 the claim, or run `grundy check` on the command line",
                conjecture.size()
            ),
        ));
    }
    // A light claim runs at once; a heavy one is one of a few at once, or waits in a short
    // queue, or is told that the view is busy. The check stops when its client goes away. The
    // proof that follows an agreement counts too (a box, checked for the whole table only), as
    // it may be heavy on a light table; it is bounded by its budget, not refused.
    let proof = match region {
        None => proof_work(&ready.table, &conjecture),
        Some(_) => 0,
    };
    let light = work + proof <= LIGHT_CLAIM_WORK;
    let _turn = match light {
        true => None,
        false => Some(state.heavy_turn().await.map_err(|_| ApiError::busy())?),
    };
    let (client, _watch) = Client::watch(&state);
    blocking(move || {
        let checked = match &region {
            // A box is a table without rules: checked, never proved.
            Some(region) => &grundy_core::Table::without_game(
                region.part(ready.table.data()),
                ready.table.kind(),
                ready.table.name(),
            ),
            None => &ready.table,
        };
        // The proof after an agreement within the view's budget, stopped with its client
        // (issue 59: a 60-byte claim proved over a 49 M-cell box, on after its client left).
        let budget = Budget::new(PROOF_SECONDS, &client);
        let check =
            |lanes| check_in(checked, &conjecture, None, MAX_COUNTEREXAMPLES, &budget, lanes);
        // A light check on this thread alone (the pool may be busy with heavy ones), others on
        // the pool.
        let report = match light {
            true => check(Lanes::Caller),
            false => ready.threads.install(|| check(Lanes::Pool)),
        };
        let report = report.map_err(|err| match err.kind() {
            ErrorKind::Cancelled => {
                ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "the check was stopped")
            }
            _ => ApiError::bad(err.to_string()),
        })?;
        Ok(axum::Json(report).into_response())
    })
    .await
}

async fn patterns(State(state): State<Arc<ViewState>>) -> ApiResult<Response> {
    let ready = ready(&state)?;
    let json = match ready.patterns.get() {
        Some(made) => made.clone(),
        None => {
            // The analysis is heavy work: one of a few at once, and its law search and proofs
            // stop when its client goes away (a stopped analysis is not kept: the next request
            // makes it again).
            let _turn = state.heavy_turn().await.map_err(|_| ApiError::busy())?;
            let (client, _watch) = Client::watch(&state);
            blocking(move || {
                let options = LawOptions::default().reporting_to(&client);
                let made = ready
                    .threads
                    .install(|| grundy_laws::analyze_with(&ready.table, &options))
                    .map_err(|err| err.to_string())
                    .and_then(|report| {
                        let json = grundy_laws::ReportJson::<()> {
                            report: &report,
                            records: None,
                            until_proved: None,
                            known: None,
                        };
                        serde_json::to_string(&json).map_err(|err| err.to_string())
                    });
                if client.cancelled() {
                    return Err(ApiError::new(
                        StatusCode::SERVICE_UNAVAILABLE,
                        "the analysis was stopped",
                    ));
                }
                Ok(ready.patterns.get_or_init(|| made).clone())
            })
            .await?
        }
    };
    let json = json.map_err(|why| ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, why))?;
    Ok(([(header::CONTENT_TYPE, "application/json")], json).into_response())
}

async fn sequence(
    State(state): State<Arc<ViewState>>,
    Query(params): Params,
) -> ApiResult<Response> {
    only(&params, &["from", "to", "points"])?;
    let ready = ready(&state)?;
    let table = ready.table.data();
    if table.axes().len() != 1 {
        return Err(ApiError::bad("a sequence is read of a 1-D table; this one is a board"));
    }
    let from = integer("from", param(&params, "from")?)?;
    let to = integer("to", param(&params, "to")?)?;
    let points = integer("points", param(&params, "points")?)?;
    inside(&[from], table)?;
    inside(&[to], table)?;
    if to < from {
        return Err(ApiError::bad(format!("`to` = {to} is before `from` = {from}")));
    }
    if points < 1 || points as u64 > MAX_POINTS {
        return Err(ApiError::bad(format!("`points` = {points}: ask for 1 to {MAX_POINTS}")));
    }
    blocking(move || {
        let table = ready.table.data();
        let min = table.axes()[0].min;
        let count = (to - from + 1) as u64;
        let points = (points as u64).min(count);
        let step = count.div_ceil(points);
        let cells = table.cells();
        let (mut lows, mut highs) = (Vec::new(), Vec::new());
        let mut start = (from - min) as u64;
        let end = (to - min) as u64 + 1;
        while start < end {
            let stop = (start + step).min(end);
            let (mut low, mut high) = (u32::MAX, 0);
            for at in start..stop {
                let value = cells.get(at as usize).value();
                low = low.min(value);
                high = high.max(value);
            }
            lows.push(low);
            highs.push(high);
            start = stop;
        }
        let body = json!({ "from": from, "to": to, "step": step, "min": lows, "max": highs });
        Ok(axum::Json(body).into_response())
    })
    .await
}

async fn region(State(state): State<Arc<ViewState>>, Query(params): Params) -> ApiResult<Response> {
    only(&params, &["from", "to"])?;
    let ready = ready(&state)?;
    let table = ready.table.data();
    let from = position(param(&params, "from")?, table)?;
    let to = position(param(&params, "to")?, table)?;
    let region = Region::new(from, to, table)?;
    blocking(move || {
        let part = region.part(ready.table.data());
        let kind =
            if holds_values(ready.table.kind()) { CellKind::Values } else { CellKind::Outcomes };
        let mut csv = Vec::new();
        grundy_core::write_csv(&part, CsvLayout::Grid, kind, &mut csv)
            .map_err(|err| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, err.to_string()))?;
        let corner = |pos: &[Coord]| pos.iter().map(Coord::to_string).collect::<Vec<_>>().join("x");
        let name = format!(
            "attachment; filename=\"region-{}-{}.csv\"",
            corner(&region.from),
            corner(&region.to)
        );
        Ok((
            [(header::CONTENT_TYPE, "text/csv".to_string()), (header::CONTENT_DISPOSITION, name)],
            csv,
        )
            .into_response())
    })
    .await
}

/// A box of the table, `from ..= to` (both inside it), of at most [`MAX_REGION_CELLS`] cells.
struct Region {
    from: Vec<Coord>,
    to: Vec<Coord>,
    cells: u64,
}

impl Region {
    fn new(from: Vec<Coord>, to: Vec<Coord>, table: &GrundyTable) -> ApiResult<Region> {
        if let Some(d) = (0..from.len()).find(|&d| to[d] < from[d]) {
            let name = &table.axes()[d].name;
            return Err(ApiError::bad(format!("`to` is before `from` along {name}")));
        }
        let cells: u64 = from.iter().zip(&to).map(|(a, b)| (b - a + 1) as u64).product();
        if cells > MAX_REGION_CELLS {
            return Err(ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!(
                    "the region has {cells} cells; at most {MAX_REGION_CELLS} are taken at once \
                     (`grundy compute` and `grundy check` work on whole tables)"
                ),
            ));
        }
        Ok(Region { from, to, cells })
    }

    /// The region's cells as a table of their own (its axes start at `from`).
    fn part(&self, table: &GrundyTable) -> GrundyTable {
        let axes: Vec<_> = table
            .axes()
            .iter()
            .zip(&self.from)
            .map(|(a, &start)| grundy_core::Axis::new(&a.name, start))
            .collect();
        let shape = TableShape::from_axes(axes, self.to.clone());
        let mut values = Vec::with_capacity(self.cells as usize);
        let mut pos = self.from.clone();
        collect_region(table, &self.from, &self.to, 0, &mut pos, &mut values);
        GrundyTable::from_nimbers(shape, &values)
    }
}

/// The values of the box `from ..= to`, row-major.
fn collect_region(
    table: &GrundyTable,
    from: &[Coord],
    to: &[Coord],
    axis: usize,
    pos: &mut Vec<Coord>,
    out: &mut Vec<Nimber>,
) {
    for c in from[axis]..=to[axis] {
        pos[axis] = c;
        if axis + 1 == from.len() {
            out.push(table.get(pos).expect("inside the table"));
        } else {
            collect_region(table, from, to, axis + 1, pos, out);
        }
    }
}
