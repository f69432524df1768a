//! The protobuf watch stream's wire format: frames of a 4-byte big-endian length and a
//! `meta/v1.WatchEvent` whose object is an enveloped protobuf object, decoded with the
//! informer's slim type into the same [`Line`]s as the JSON stream (`lines`): an object that
//! cannot be decoded is named with its resourceVersion, so the watch moves past it. Owns the
//! framing; must not decide what an event means.

use futures::{Stream, StreamExt};
use http_body_util::BodyExt;
use kube::api::WatchEvent;
use kube::core::watch::{Bookmark, BookmarkMeta};
use kube::core::{Status, TypeMeta};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use tokio_util::codec::{FramedRead, LengthDelimitedCodec};
use tokio_util::io::StreamReader;

use super::super::failure::{one_line, Failure};
use super::lines::{Line, MAX_LINE};
use crate::protobuf;

/// A bookmark's object: only its metadata matters.
#[derive(Deserialize)]
struct BookmarkObj {
    metadata: BookmarkMeta,
}

/// An ERROR event's `Status`.
#[derive(Deserialize)]
struct StatusObj {
    #[serde(default)]
    code: i64,
    #[serde(default)]
    message: String,
    #[serde(default)]
    reason: String,
}

fn undecodable(e: impl std::fmt::Display) -> Failure {
    Failure::Other(one_line(&format!("watch event could not be decoded: {e}")))
}

/// Decodes one frame's payload; `kind` names unreadable objects (`pod`).
pub fn decode<T: DeserializeOwned>(frame: &[u8], kind: &str) -> Result<Line<T>, Failure> {
    let f = protobuf::watch_frame(frame).map_err(undecodable)?;
    let event = match f.type_ {
        "ADDED" | "MODIFIED" | "DELETED" => {
            let obj = match protobuf::object::<T>(&f.object) {
                Ok(obj) => obj,
                Err(e) => {
                    let (what, resource_version) = protobuf::object_name(&f.object, kind);
                    return Ok(Line::Unreadable {
                        what: one_line(&format!("{what}: {e}")),
                        resource_version,
                    });
                }
            };
            match f.type_ {
                "ADDED" => WatchEvent::Added(obj),
                "MODIFIED" => WatchEvent::Modified(obj),
                _ => WatchEvent::Deleted(obj),
            }
        }
        "BOOKMARK" => {
            let b: BookmarkObj = protobuf::object(&f.object).map_err(undecodable)?;
            WatchEvent::Bookmark(Bookmark {
                types: TypeMeta {
                    api_version: f.object.api_version.to_owned(),
                    kind: f.object.kind.to_owned(),
                },
                metadata: b.metadata,
            })
        }
        "ERROR" => {
            let s: StatusObj = protobuf::object(&f.object).map_err(undecodable)?;
            WatchEvent::Error(Box::new(Status {
                code: u16::try_from(s.code).unwrap_or(0),
                message: s.message,
                reason: s.reason,
                ..Status::default()
            }))
        }
        other => return Err(undecodable(format!("event type {other:?}"))),
    };
    Ok(Line::Event(event))
}

/// The frames of a protobuf watch response body, decoded; ends when the body does, yields
/// `Err` once and ends when the connection breaks or a frame passes [`MAX_LINE`]; a frame
/// that is no watch event yields `Err` and the stream goes on.
pub fn frames<T: DeserializeOwned + Send + 'static>(
    body: kube::client::Body,
    kind: &str,
) -> impl Stream<Item = Result<Line<T>, Failure>> + Send {
    let data = body.into_data_stream().map(|r| r.map_err(std::io::Error::other));
    let codec = LengthDelimitedCodec::builder()
        .length_field_length(4)
        .big_endian()
        .max_frame_length(MAX_LINE)
        .new_codec();
    let framed = FramedRead::new(StreamReader::new(data), codec);
    futures::stream::unfold(
        (framed, kind.to_owned(), false),
        |(mut framed, kind, ended)| async move {
            if ended {
                return None;
            }
            match framed.next().await? {
                Ok(frame) => Some((decode::<T>(&frame, &kind), (framed, kind, false))),
                Err(e) => {
                    let failed = one_line(&format!("watch stream broke: {e}"));
                    Some((Err(Failure::Other(failed)), (framed, kind, true)))
                }
            }
        },
    )
}
