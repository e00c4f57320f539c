//! The class server's two pages, built into the program: the pupils' (join with the code, play
//! the class's machine by taps) and the projector's (the class's score, the leaderboard, the
//! teacher's controls), which needs the teacher's token.

use std::sync::Arc;

use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};

use super::files::Want;
use super::guard::same_secret;
use super::socket::{Shared, teacher_token};

const PUPIL: &str = include_str!("pupil.html");
const PROJECTOR: &str = include_str!("projector.html");
const BOXES: &str = include_str!("boxes.js");
const CLIENT: &str = include_str!("client.js");
const PUPIL_JS: &str = include_str!("pupil.js");
const PROJECTOR_JS: &str = include_str!("projector.js");

/// A script of the pages, as it is built into the program.
fn script(text: &'static str) -> Response {
    let kind = [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")];
    (kind, text).into_response()
}

/// The shared client: the socket, reconnecting, the protocol's message types.
pub async fn client_script() -> Response {
    script(CLIENT)
}

pub async fn pupil_script() -> Response {
    script(PUPIL_JS)
}

/// The projector's script (its page needs the teacher's token; the script holds no secret).
pub async fn projector_script() -> Response {
    script(PROJECTOR_JS)
}

pub async fn pupil_page() -> Html<&'static str> {
    Html(PUPIL)
}

/// The script both pages draw boxes with, after the palette's bead colours.
pub async fn boxes_script() -> Response {
    static SCRIPT: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
        let colours: Vec<String> = (crate::palette::BEADS.iter())
            .map(|c| format!("{:?}", c.hex()))
            .collect();
        format!("const BEAD_COLOURS = [{}];\n{BOXES}", colours.join(", "))
    });
    let kind = [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")];
    (kind, SCRIPT.as_str()).into_response()
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
    let cookie = format!(
        "{}={given}; HttpOnly; SameSite=Strict; Path=/",
        shared.cookie
    );
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
pub async fn machine_yaml(state: State<Arc<Shared>>, headers: HeaderMap) -> Response {
    file(state, headers, Want::Machine).await
}

/// Blank labels to build the class's machine (each box's beads as a new machine starts).
pub async fn labels_pdf(state: State<Arc<Shared>>, headers: HeaderMap) -> Response {
    file(state, headers, Want::Labels).await
}

/// The labels with the beads the class's machine holds now.
pub async fn trained_labels_pdf(state: State<Arc<Shared>>, headers: HeaderMap) -> Response {
    file(state, headers, Want::TrainedLabels).await
}

/// The class's learning curve, as `train --plot` draws a run's.
pub async fn chart_svg(state: State<Arc<Shared>>, headers: HeaderMap) -> Response {
    file(state, headers, Want::ChartSvg).await
}

pub async fn chart_png(state: State<Arc<Shared>>, headers: HeaderMap) -> Response {
    file(state, headers, Want::ChartPng).await
}

/// A file of the machine as it stands, for the teacher only: the actor hands over a copy and
/// what makes the file, which runs here, off the actor's task.
async fn file(State(shared): State<Arc<Shared>>, headers: HeaderMap, want: Want) -> Response {
    let token = teacher_token(&headers, &shared.cookie, None).unwrap_or_default();
    if !same_secret(&token, &shared.token) {
        return (StatusCode::FORBIDDEN, "open the teacher's address first").into_response();
    }
    let over = || (StatusCode::SERVICE_UNAVAILABLE, "the lesson is over").into_response();
    let (tx, rx) = tokio::sync::oneshot::channel();
    if shared.inbox.send(super::Cmd::File(want, tx)).await.is_err() {
        return over();
    }
    let Ok(maker) = rx.await else {
        return over();
    };
    match tokio::task::spawn_blocking(maker).await {
        Ok(Ok(d)) => (
            [
                (header::CONTENT_TYPE, d.mime.to_string()),
                (
                    header::CONTENT_DISPOSITION,
                    format!("attachment; filename=\"{}\"", d.name),
                ),
            ],
            d.bytes,
        )
            .into_response(),
        Ok(Err(e)) => (StatusCode::INTERNAL_SERVER_ERROR, e).into_response(),
        Err(_) => (
            StatusCode::INTERNAL_SERVER_ERROR,
            "the file could not be made",
        )
            .into_response(),
    }
}

pub async fn projector_page(State(shared): State<Arc<Shared>>, headers: HeaderMap) -> Response {
    let token = teacher_token(&headers, &shared.cookie, None).unwrap_or_default();
    if !same_secret(&token, &shared.token) {
        return (StatusCode::FORBIDDEN, "open the teacher's address first").into_response();
    }
    Html(PROJECTOR).into_response()
}
