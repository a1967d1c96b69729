//! The JSON API the page (and any program) calls; every answer is the JSON the
//! CLI prints for `--json` (built by [`snapsolve::json`]):
//!
//! | route | body | answer (as the CLI's) |
//! |---|---|---|
//! | `POST /api/set/photo` | image bytes (JPEG, PNG, WebP) | `set photo --json` |
//! | `POST /api/sudoku/photo` | image bytes | `sudoku photo --json` |
//! | `POST /api/set/solve` | `{"cards": ["2-red-striped-oval", ...]}` | `set solve --json` |
//! | `POST /api/sudoku/solve` | `{"puzzle": "81 characters"}` | `sudoku solve --json` |
//! | `POST /api/sudoku/hint` | `{"puzzle": "81 characters"}` | `sudoku hint --json` |
//!
//! Photo answers carry a `Server-Timing` header (`decode`, `read`) for the
//! page's per-stage figures.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Json, Path, State};
use axum::http::{HeaderName, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use snapsolve::images::{Limits, Photo, decode_photo};
use snapsolve::set_photo::{NetworkClassifier, decode_table_photo, read_table};
use snapsolve::sudoku::{DEFAULT_SOLVER, solve_puzzle, solver};
use snapsolve::sudoku_photo::{DigitReader, solve_photo};
use snapsolve_set::{Card, Layout};
use snapsolve_sudoku::hints::hint;
use snapsolve_sudoku::{Solver, parse_puzzles};

use crate::admission::{Admission, Admitted, ApiError, HasAdmission, time_limit};
use crate::{ServeConfig, ServeError, assets};

/// Largest photo body: 20 MB (a 12 MP phone JPEG is 3-8 MB).
pub const MAX_PHOTO_BYTES: usize = 20 * 1024 * 1024;
/// Largest body of the text routes (81 card names or one puzzle are far smaller).
pub const MAX_TEXT_BYTES: usize = 64 * 1024;

/// What every request shares: the networks, loaded once, and the admission.
pub struct AppState {
    classifier: NetworkClassifier,
    digits: DigitReader,
    admission: Admission,
    limits: Limits,
}

impl AppState {
    /// Loads the embedded networks.
    ///
    /// # Errors
    /// When a network does not load (a broken build).
    pub fn new(config: &ServeConfig) -> Result<AppState, ServeError> {
        Ok(AppState {
            classifier: NetworkClassifier::embedded()
                .map_err(|e| ServeError::Model(e.to_string()))?,
            digits: DigitReader::embedded().map_err(|e| ServeError::Model(e.to_string()))?,
            admission: Admission::new(config.max_in_flight),
            // The CLI's pixel limits; the body limit above is the tighter size limit.
            limits: Limits::default(),
        })
    }
}

impl HasAdmission for AppState {
    fn admission(&self) -> &Admission {
        &self.admission
    }
}

type Shared = Arc<AppState>;

/// Every route: the page's files, and the API under time, size and admission limits.
pub fn router(state: Shared, config: &ServeConfig) -> Router {
    let photos = Router::new()
        .route("/api/set/photo", post(photo::<SetPhoto>))
        .route("/api/sudoku/photo", post(photo::<SudokuPhoto>))
        .layer(DefaultBodyLimit::max(MAX_PHOTO_BYTES))
        .layer(axum::middleware::from_fn_with_state(
            MAX_PHOTO_BYTES,
            refuse_announced_over,
        ));
    let texts = Router::new()
        .route("/api/set/solve", post(set_solve))
        .route("/api/sudoku/solve", post(sudoku_solve))
        .route("/api/sudoku/hint", post(sudoku_hint))
        .layer(DefaultBodyLimit::max(MAX_TEXT_BYTES))
        .layer(axum::middleware::from_fn_with_state(
            MAX_TEXT_BYTES,
            refuse_announced_over,
        ));
    let api = photos
        .merge(texts)
        .fallback(|| async { ApiError::not_found() })
        .layer(axum::middleware::from_fn_with_state(
            config.request_timeout,
            time_limit,
        ))
        .with_state(state);
    Router::new()
        .route("/", get(|| async { assets::respond("") }))
        .route(
            "/{file}",
            get(|Path(file): Path<String>| async move { assets::respond(&file) }),
        )
        .merge(api)
        .layer(axum::middleware::from_fn(page_headers))
}

/// Headers that keep the page to its own files (no scripts from elsewhere) and
/// stop browsers guessing types.
async fn page_headers(request: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'self'; img-src 'self' blob: data:; media-src 'self' blob: mediastream:; \
             style-src 'self'; script-src 'self'; connect-src 'self' blob:; object-src 'none'; base-uri 'none'",
        ),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    response
}

impl ApiError {
    fn not_found() -> ApiError {
        ApiError {
            status: StatusCode::NOT_FOUND,
            message: "no such API route; see the README".to_string(),
        }
    }
}

/// Refuses (413) a request whose Content-Length announces more than `limit`
/// bytes before any of its body is read: the sender learns at once, instead
/// of after uploading the limit's worth. (Bodies without a length are cut
/// at the limit as they arrive, by `DefaultBodyLimit`.)
async fn refuse_announced_over(
    State(limit): State<usize>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let announced = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok())
        .and_then(|text| text.parse::<u64>().ok());
    match announced {
        Some(length) if length > limit as u64 => ApiError {
            status: StatusCode::PAYLOAD_TOO_LARGE,
            message: over_the_limit(limit),
        }
        .into_response(),
        _ => next.run(request).await,
    }
}

/// What a body over `limit` bytes is told.
fn over_the_limit(limit: usize) -> String {
    format!("the body is over the limit of {}", size_text(limit))
}

/// The body's bytes, or the reason it was refused (413 over `limit` bytes).
fn body_bytes(body: Result<Bytes, BytesRejection>, limit: usize) -> Result<Bytes, ApiError> {
    body.map_err(|rejection| ApiError {
        status: rejection.status(),
        message: match rejection.status() {
            StatusCode::PAYLOAD_TOO_LARGE => over_the_limit(limit),
            _ => rejection.body_text(),
        },
    })
}

/// "20 MB", "64 KB".
fn size_text(bytes: usize) -> String {
    if bytes >= 1024 * 1024 {
        format!("{} MB", bytes / (1024 * 1024))
    } else {
        format!("{} KB", bytes / 1024)
    }
}

/// The image bytes of a photo body.
fn photo_body(body: Result<Bytes, BytesRejection>) -> Result<Bytes, ApiError> {
    let bytes = body_bytes(body, MAX_PHOTO_BYTES)?;
    if bytes.is_empty() {
        return Err(ApiError::bad_input(
            "the body is empty: send the image's bytes (JPEG, PNG or WebP)",
        ));
    }
    Ok(bytes)
}

/// A JSON body (whatever its `Content-Type` says, so `curl -d` works too).
fn json_body<T: DeserializeOwned>(body: Result<Bytes, BytesRejection>) -> Result<T, ApiError> {
    let bytes = body_bytes(body, MAX_TEXT_BYTES)?;
    serde_json::from_slice(&bytes)
        .map_err(|e| ApiError::bad_input(format!("the body is not the JSON expected: {e}")))
}

/// Runs the work on a blocking thread, holding the admission place until it ends.
async fn blocking<T: Send + 'static>(
    admitted: Admitted,
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(move || {
        let answer = work();
        drop(admitted);
        answer
    })
    .await
    .map_err(|e| ApiError::failed(format!("the work stopped: {e}")))
}

/// A JSON answer with a `Server-Timing` header of named stage durations.
fn timed_json(value: Value, stages: &[(&str, Duration)]) -> Response {
    let timing: Vec<String> = stages
        .iter()
        .map(|(name, d)| format!("{name};dur={:.1}", d.as_secs_f64() * 1000.0))
        .collect();
    let mut response = Json(value).into_response();
    if let Ok(value) = HeaderValue::from_str(&timing.join(", ")) {
        response
            .headers_mut()
            .insert(HeaderName::from_static("server-timing"), value);
    }
    response
}

/// How one kind of photo is read: its decoding (the SET reader decodes large JPEGs
/// at a reduced scale) and the reading that gives its JSON answer. One handler,
/// [`photo`], serves every kind.
trait PhotoKind: 'static {
    /// The image bytes decoded under the server's limits.
    fn decode(state: &AppState, bytes: &[u8]) -> Result<Photo, ApiError>;
    /// The photo read, as the CLI's `--json`.
    fn read(state: &AppState, photo: Photo) -> Result<Value, ApiError>;
}

/// `POST /api/set/photo`.
struct SetPhoto;

impl PhotoKind for SetPhoto {
    fn decode(state: &AppState, bytes: &[u8]) -> Result<Photo, ApiError> {
        decode_table_photo(bytes, state.limits).map_err(ApiError::bad_input)
    }

    fn read(state: &AppState, photo: Photo) -> Result<Value, ApiError> {
        let reading = read_table(&photo, &state.classifier);
        Ok(snapsolve::json::set_photo(&reading))
    }
}

/// `POST /api/sudoku/photo`.
struct SudokuPhoto;

impl PhotoKind for SudokuPhoto {
    fn decode(state: &AppState, bytes: &[u8]) -> Result<Photo, ApiError> {
        decode_photo(bytes, state.limits).map_err(ApiError::bad_input)
    }

    fn read(state: &AppState, photo: Photo) -> Result<Value, ApiError> {
        let answer = solve_photo(&photo.image, &state.digits).map_err(ApiError::failed)?;
        Ok(snapsolve::json::sudoku_photo(&answer))
    }
}

/// `POST /api/{set,sudoku}/photo`: the body decoded and read on a blocking thread,
/// the answer timed by stage.
async fn photo<K: PhotoKind>(
    State(state): State<Shared>,
    admitted: Admitted,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let bytes = photo_body(body)?;
    let (value, stages) = blocking(admitted, move || {
        let start = Instant::now();
        let photo = K::decode(&state, &bytes)?;
        let decoded = Instant::now();
        let value = K::read(&state, photo)?;
        Ok::<_, ApiError>((
            value,
            [("decode", decoded - start), ("read", decoded.elapsed())],
        ))
    })
    .await??;
    Ok(timed_json(value, &stages))
}

/// Body of `POST /api/set/solve`.
#[derive(Deserialize)]
struct CardsBody {
    /// Card names, as the CLI takes them.
    cards: Vec<String>,
}

/// `POST /api/set/solve`: the SETs among named cards (a corrected reading).
async fn set_solve(
    admitted: Admitted,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let names = json_body::<CardsBody>(body)?.cards;
    let cards = names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            name.parse::<Card>()
                .map_err(|e| ApiError::bad_input(format!("card {}: {e}", i + 1)))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let layout = Layout::new(cards).map_err(ApiError::bad_input)?;
    let engine = snapsolve::set::engine(snapsolve::set::DEFAULT_ENGINE)
        .ok_or_else(|| ApiError::failed("no default engine"))?;
    let value = blocking(admitted, move || {
        let sets = engine.find_sets(&layout).map_err(ApiError::failed)?;
        Ok::<_, ApiError>(snapsolve::json::set_solve(&layout, &sets, engine, None))
    })
    .await??;
    Ok(Json(value))
}

/// Body of `POST /api/sudoku/solve` and `/api/sudoku/hint`.
#[derive(Deserialize)]
struct PuzzleBody {
    /// One puzzle, as the CLI takes it (81 characters, `.` or `0` for empty).
    puzzle: String,
}

/// The one puzzle of a body.
fn one_puzzle(body: Result<Bytes, BytesRejection>) -> Result<snapsolve_sudoku::Puzzle, ApiError> {
    let text = json_body::<PuzzleBody>(body)?.puzzle;
    let mut puzzles = parse_puzzles(&text).map_err(ApiError::bad_input)?;
    match puzzles.len() {
        1 => Ok(puzzles.remove(0)),
        0 => Err(ApiError::bad_input("no puzzle in \"puzzle\"")),
        n => Err(ApiError::bad_input(format!(
            "{n} puzzles in \"puzzle\"; send one"
        ))),
    }
}

fn default_solver() -> Result<&'static dyn Solver, ApiError> {
    solver(DEFAULT_SOLVER).ok_or_else(|| ApiError::failed("no default solver"))
}

/// `POST /api/sudoku/solve`: a puzzle (a corrected reading) solved; the answer is
/// the JSON text `snapsolve::json` writes for the CLI, sent as it is.
async fn sudoku_solve(
    admitted: Admitted,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let puzzle = one_puzzle(body)?;
    let solver = default_solver()?;
    let text = blocking(admitted, move || {
        snapsolve::json::sudoku_answer(&solve_puzzle(puzzle, solver), None)
    })
    .await?;
    // What axum's `Json` sends for the other answers.
    let json = HeaderValue::from_static("application/json");
    Ok(([(header::CONTENT_TYPE, json)], text).into_response())
}

/// `POST /api/sudoku/hint`: the next logical step, with its technique.
async fn sudoku_hint(
    admitted: Admitted,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let grid = one_puzzle(body)?.grid;
    let solver = default_solver()?;
    let value = blocking(admitted, move || {
        let found = hint(&grid, solver).map_err(ApiError::bad_input)?;
        let candidates = snapsolve_sudoku::diagnose::basic_candidates(&grid);
        Ok::<_, ApiError>(snapsolve::json::sudoku_hint(&grid, &found, &candidates))
    })
    .await??;
    Ok(Json(value))
}
