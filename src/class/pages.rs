//! The class server's two pages, built into the program: the pupils' (join with the code, play
//! the class's machine by taps) and the projector's (the class's score, the leaderboard, the
//! teacher's controls), which needs the teacher's token.

use std::sync::Arc;

use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};

use super::guard::same_secret;
use super::socket::{Shared, teacher_token};

const PUPIL: &str = include_str!("pupil.html");
const PROJECTOR: &str = include_str!("projector.html");

pub async fn pupil_page() -> Html<&'static str> {
    Html(PUPIL)
}

#[derive(serde::Deserialize)]
pub struct Token {
    token: Option<String>,
}

/// The teacher's address: the token becomes an HttpOnly cookie, and the projector's page opens.
pub async fn teacher_login(State(shared): State<Arc<Shared>>, Query(q): Query<Token>) -> Response {
    let given = q.token.unwrap_or_default();
    if !same_secret(&given, &shared.token) {
        return (StatusCode::FORBIDDEN, "the teacher's address is needed").into_response();
    }
    let cookie = format!("matchbox_teacher={given}; HttpOnly; SameSite=Strict; Path=/");
    (
        StatusCode::SEE_OTHER,
        [
            (header::SET_COOKIE, cookie),
            (header::LOCATION, "/projector".to_string()),
        ],
    )
        .into_response()
}

/// The machine as it stands, as a YAML file the command line loads (`--boxes`): the teacher's
/// download, with the teacher's cookie only.
pub async fn machine_yaml(State(shared): State<Arc<Shared>>, headers: HeaderMap) -> Response {
    let token = teacher_token(&headers, None).unwrap_or_default();
    if !same_secret(&token, &shared.token) {
        return (StatusCode::FORBIDDEN, "open the teacher's address first").into_response();
    }
    let (tx, rx) = tokio::sync::oneshot::channel();
    if shared.inbox.send(super::Cmd::Yaml(tx)).await.is_err() {
        return (StatusCode::SERVICE_UNAVAILABLE, "the lesson is over").into_response();
    }
    match rx.await {
        Ok(yaml) => (
            [
                (header::CONTENT_TYPE, "application/yaml; charset=utf-8"),
                (
                    header::CONTENT_DISPOSITION,
                    "attachment; filename=\"class-machine.yaml\"",
                ),
            ],
            yaml,
        )
            .into_response(),
        Err(_) => (StatusCode::SERVICE_UNAVAILABLE, "the lesson is over").into_response(),
    }
}

pub async fn projector_page(State(shared): State<Arc<Shared>>, headers: HeaderMap) -> Response {
    let token = teacher_token(&headers, None).unwrap_or_default();
    if !same_secret(&token, &shared.token) {
        return (StatusCode::FORBIDDEN, "open the teacher's address first").into_response();
    }
    Html(PROJECTOR).into_response()
}
