//! Limits under load: at most a fixed number of requests in work at once (the
//! rest refused at once with 503 and `Retry-After`, so no queue grows), a time
//! limit per request, and the JSON error every refusal is sent as.
//!
//! The permit is taken before the body is read (it is an extractor that runs
//! before the body extractor), so bodies held in memory are bounded by
//! `max_in_flight` x the body limit, whatever the clients send.

use std::sync::Arc;
use std::time::Duration;

use axum::Json;
use axum::extract::{FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde_json::json;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// A refused request: a status and a message, sent as `{"error": message}`.
#[derive(Debug)]
pub struct ApiError {
    /// The HTTP status (4xx for the client's fault, 503 when busy).
    pub status: StatusCode,
    /// What went wrong, in words.
    pub message: String,
}

impl ApiError {
    /// Bad input: 400.
    pub fn bad_input(message: impl ToString) -> ApiError {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            message: message.to_string(),
        }
    }

    /// Work that failed on our side: 500.
    pub fn failed(message: impl ToString) -> ApiError {
        ApiError {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            message: message.to_string(),
        }
    }
}

/// Seconds a refused client is asked to wait before trying again.
pub const RETRY_AFTER_SECONDS: u32 = 1;

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (self.status, Json(json!({"error": self.message}))).into_response();
        if self.status == StatusCode::SERVICE_UNAVAILABLE {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(RETRY_AFTER_SECONDS));
        }
        response
    }
}

/// The requests that may be in work at once.
#[derive(Clone, Debug)]
pub struct Admission(Arc<Semaphore>);

impl Admission {
    /// Room for `max_in_flight` requests (at least one).
    pub fn new(max_in_flight: usize) -> Admission {
        Admission(Arc::new(Semaphore::new(max_in_flight.max(1))))
    }

    /// A place in work, or 503 when every place is taken.
    pub fn admit(&self) -> Result<Admitted, ApiError> {
        self.0
            .clone()
            .try_acquire_owned()
            .map(Admitted)
            .map_err(|_| ApiError {
                status: StatusCode::SERVICE_UNAVAILABLE,
                message: "busy: every worker is reading a frame; try again shortly".to_string(),
            })
    }
}

/// A place in work, held until dropped: handlers move it into the blocking task
/// that does the work, so a request cut off by its time limit still counts
/// until its work really ends.
#[derive(Debug)]
pub struct Admitted(#[allow(dead_code)] OwnedSemaphorePermit);

/// Anything that owns the server's [`Admission`].
pub trait HasAdmission {
    /// The admission of this server.
    fn admission(&self) -> &Admission;
}

impl<S: HasAdmission + Send + Sync> FromRequestParts<Arc<S>> for Admitted {
    type Rejection = ApiError;

    async fn from_request_parts(_parts: &mut Parts, state: &Arc<S>) -> Result<Self, ApiError> {
        state.admission().admit()
    }
}

/// Middleware: a request that has not been answered within the limit gets 408
/// (a slow upload, or a client that stopped sending its body).
pub async fn time_limit(State(limit): State<Duration>, request: Request, next: Next) -> Response {
    match tokio::time::timeout(limit, next.run(request)).await {
        Ok(response) => response,
        Err(_) => ApiError {
            status: StatusCode::REQUEST_TIMEOUT,
            message: format!("the request took longer than {} s", limit.as_secs()),
        }
        .into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn admits_up_to_the_limit_then_refuses_until_a_place_frees() {
        let admission = Admission::new(2);
        let first = admission.admit().expect("first place");
        let _second = admission.admit().expect("second place");
        let refused = admission.admit().expect_err("no third place");
        assert_eq!(refused.status, StatusCode::SERVICE_UNAVAILABLE);
        drop(first);
        assert!(admission.admit().is_ok());
    }

    #[test]
    fn busy_answers_carry_retry_after() {
        let admission = Admission::new(1);
        let _held = admission.admit().expect("a place");
        let response = admission.admit().expect_err("busy").into_response();
        assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(response.headers()[header::RETRY_AFTER], "1");
    }
}
