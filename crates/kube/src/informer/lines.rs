//! The watch stream's wire format: one JSON watch event per line (`{"type":…,"object":…}`),
//! decoded with the informer's slim type. A line whose object cannot be decoded (`"name": 42`)
//! becomes [`Line::Unreadable`] — named, with its resourceVersion so the watch can move past
//! it — instead of an error that would end the watch and replay the same line forever. Owns
//! the framing and decoding; must not decide what an event means.

use futures::{Stream, StreamExt};
use http_body_util::BodyExt;
use kube::api::WatchEvent;
use kube::core::watch::{Bookmark, BookmarkMeta};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use tokio_util::codec::{FramedRead, LinesCodec, LinesCodecError};
use tokio_util::io::StreamReader;

use super::super::failure::{one_line, status_failure, Failure};
use super::page::object_name;

/// The longest line accepted (a watch event carries one object; etcd's limit is 1.5 MiB).
pub const MAX_LINE: usize = 16 << 20;

/// One decoded line of a watch stream.
#[derive(Debug)]
pub enum Line<T> {
    /// A watch event of the informer's type.
    Event(WatchEvent<T>),
    /// An ADDED/MODIFIED/DELETED event whose object could not be decoded.
    Unreadable {
        /// `kind/namespace/name: error`, as undecodable list items are named.
        what: String,
        /// The object's `metadata.resourceVersion`, when it has one.
        resource_version: Option<String>,
    },
}

/// The shape every watch event has, whatever its object (kept as text).
#[derive(Deserialize)]
struct RawEvent {
    #[serde(rename = "type")]
    type_: String,
    object: Box<serde_json::value::RawValue>,
}

/// A `Status` body (the answer to a watch that could not start, or an ERROR line).
#[derive(Deserialize)]
struct Status {
    #[serde(default)]
    code: u16,
    #[serde(default)]
    message: String,
}

/// Decodes one line; `kind` names unreadable objects (`pod`).
pub fn decode<T: DeserializeOwned>(line: &[u8], kind: &str) -> Result<Line<T>, Failure> {
    let err = match serde_json::from_slice::<WatchEvent<T>>(line) {
        Ok(WatchEvent::Bookmark(b)) if b.types.kind == "Table" => {
            let b = table_bookmark(line, &b).unwrap_or(b);
            return Ok(Line::Event(WatchEvent::Bookmark(b)));
        }
        Ok(event) => return Ok(Line::Event(event)),
        Err(e) => e,
    };
    match serde_json::from_slice::<RawEvent>(line) {
        Ok(raw) if matches!(raw.type_.as_str(), "ADDED" | "MODIFIED" | "DELETED") => {
            // The object again, from its own text: a line with `object` before `type` is
            // buffered by serde's tagged-enum decoding, which some types (those keeping raw
            // text) cannot be decoded from.
            let err = match serde_json::from_str::<T>(raw.object.get()) {
                Ok(obj) => {
                    return Ok(Line::Event(match raw.type_.as_str() {
                        "ADDED" => WatchEvent::Added(obj),
                        "MODIFIED" => WatchEvent::Modified(obj),
                        _ => WatchEvent::Deleted(obj),
                    }))
                }
                Err(e) => e,
            };
            let object: serde_json::Value = serde_json::from_str(raw.object.get()).unwrap_or_default();
            Ok(Line::Unreadable {
                what: one_line(&format!("{}: {err}", object_name(kind, &object))),
                resource_version: object["metadata"]["resourceVersion"].as_str().map(str::to_owned),
            })
        }
        _ => match serde_json::from_slice::<Status>(line) {
            // Not an event at all: a Status where the stream should be.
            Ok(s) if s.code >= 400 => Err(status_failure(s.code, &s.message, "watch")),
            _ => Err(Failure::Other(one_line(&format!(
                "watch event could not be decoded: {err}"
            )))),
        },
    }
}

/// The bookmark of a watch that asked for printed rows (`as=Table`): kube-apiserver sends it
/// as a Table of one row whose object holds the bookmark's metadata — its
/// `k8s.io/initial-events-end` annotation is only there, not on the Table's own metadata.
fn table_bookmark(line: &[u8], table: &Bookmark) -> Option<Bookmark> {
    #[derive(Deserialize)]
    struct Event {
        object: Table,
    }
    #[derive(Deserialize)]
    struct Table {
        #[serde(default)]
        rows: Option<Vec<Row>>,
    }
    #[derive(Deserialize)]
    struct Row {
        object: Meta,
    }
    #[derive(Deserialize)]
    struct Meta {
        metadata: BookmarkMeta,
    }
    let event = serde_json::from_slice::<Event>(line).ok()?;
    let row = event.object.rows?.into_iter().next()?;
    Some(Bookmark {
        types: table.types.clone(),
        metadata: row.object.metadata,
    })
}

/// The lines of a watch response body, decoded; ends when the body does (a last line without
/// its newline is decoded too), yields `Err` once and ends when the connection breaks or a
/// line passes [`MAX_LINE`]; a line that is not a watch event yields `Err` and the stream
/// goes on. The framing is tokio-util's `LinesCodec` (it resumes its newline search where it
/// stopped, so a large object over many frames is scanned once).
pub fn lines<T: DeserializeOwned + Send + 'static>(
    body: kube::client::Body,
    kind: &str,
) -> impl Stream<Item = Result<Line<T>, Failure>> + Send {
    capped(body, kind, MAX_LINE)
}

/// [`lines`] with a line cap of `max_line` bytes instead of [`MAX_LINE`], so that the fuzz
/// targets can reach the cap with small inputs.
#[cfg(feature = "fuzzing")]
pub fn lines_capped<T: DeserializeOwned + Send + 'static>(
    body: kube::client::Body,
    kind: &str,
    max_line: usize,
) -> impl Stream<Item = Result<Line<T>, Failure>> + Send {
    capped(body, kind, max_line)
}

fn capped<T: DeserializeOwned + Send + 'static>(
    body: kube::client::Body,
    kind: &str,
    max_line: usize,
) -> impl Stream<Item = Result<Line<T>, Failure>> + Send {
    let data = body.into_data_stream().map(|r| r.map_err(std::io::Error::other));
    let framed = FramedRead::new(StreamReader::new(data), LinesCodec::new_with_max_length(max_line));
    futures::stream::unfold(
        (framed, kind.to_owned(), false),
        |(mut framed, kind, ended)| async move {
            if ended {
                return None;
            }
            loop {
                let failed = match framed.next().await? {
                    Ok(line) if line.trim().is_empty() => continue,
                    Ok(line) => {
                        return Some((decode::<T>(line.trim().as_bytes(), &kind), (framed, kind, false)))
                    }
                    Err(LinesCodecError::MaxLineLengthExceeded) => {
                        "watch event longer than 16 MiB".to_owned()
                    }
                    Err(LinesCodecError::Io(e)) => one_line(&format!("watch stream broke: {e}")),
                };
                return Some((Err(Failure::Other(failed)), (framed, kind, true)));
            }
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Deserialize, Clone, Debug)]
    struct Obj {
        metadata: Meta,
    }
    #[derive(Deserialize, Clone, Debug)]
    struct Meta {
        name: String,
    }

    impl crate::row::Versioned for Obj {
        fn version(&self) -> Option<&str> {
            None
        }
    }

    #[test]
    fn a_malformed_object_is_named_with_its_resource_version() {
        let line = br#"{"type":"MODIFIED","object":{"metadata":{"name":42,"namespace":"n","resourceVersion":"17"}}}"#;
        match decode::<Obj>(line, "pod").unwrap() {
            Line::Unreadable {
                what,
                resource_version,
            } => {
                assert!(what.starts_with("pod/n/42: invalid type: integer `42`"), "{what}");
                assert_eq!(resource_version.as_deref(), Some("17"));
            }
            Line::Event(e) => panic!("decoded {e:?}"),
        }
        match decode::<Obj>(br#"{"type":"ADDED","object":{"metadata":{"name":"a"}}}"#, "pod").unwrap() {
            Line::Event(WatchEvent::Added(o)) => assert_eq!(o.metadata.name, "a"),
            other => panic!("{other:?}"),
        }
    }

    /// kube-apiserver's bookmark to an `as=Table` watch: the annotation is on the row's object.
    #[test]
    fn a_printed_rows_bookmark_carries_its_rows_annotations() {
        let line = br#"{"type":"BOOKMARK","object":{"kind":"Table","apiVersion":"meta.k8s.io/v1","metadata":{"resourceVersion":"217"},"columnDefinitions":null,"rows":[{"cells":["","",0,"<unknown>"],"object":{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":{"resourceVersion":"217","annotations":{"k8s.io/initial-events-end":"true"}}}}]}}"#;
        match decode::<Obj>(line, "secret").unwrap() {
            Line::Event(WatchEvent::Bookmark(b)) => {
                assert_eq!(b.metadata.resource_version, "217");
                assert_eq!(
                    b.metadata
                        .annotations
                        .get("k8s.io/initial-events-end")
                        .map(String::as_str),
                    Some("true")
                );
            }
            other => panic!("{other:?}"),
        }
        let rowless = br#"{"type":"BOOKMARK","object":{"kind":"Table","apiVersion":"meta.k8s.io/v1","metadata":{"resourceVersion":"9"},"rows":null}}"#;
        match decode::<Obj>(rowless, "secret").unwrap() {
            Line::Event(WatchEvent::Bookmark(b)) => assert_eq!(b.metadata.resource_version, "9"),
            other => panic!("{other:?}"),
        }
    }

    /// The recording hook keeps each object's text, which serde cannot hand over once it has
    /// buffered the object of an `object`-first line: such lines are decoded field by field.
    #[test]
    fn captured_objects_decode_whatever_the_field_order() {
        use crate::history::capture::Captured;
        for line in [
            br#"{"type":"MODIFIED","object":{"metadata":{"name":"a"}}}"#.as_slice(),
            br#"{"object":{"metadata":{"name":"a"}},"type":"MODIFIED"}"#.as_slice(),
        ] {
            match decode::<Captured<Obj>>(line, "pod").unwrap() {
                Line::Event(WatchEvent::Modified(c)) => {
                    assert_eq!(c.obj.metadata.name, "a");
                    assert_eq!(c.json.get(), r#"{"metadata":{"name":"a"}}"#);
                }
                other => panic!("{other:?}"),
            }
        }
        let bad = br#"{"object":{"metadata":{"name":42,"resourceVersion":"9"}},"type":"ADDED"}"#;
        assert!(matches!(
            decode::<Captured<Obj>>(bad, "pod").unwrap(),
            Line::Unreadable { resource_version: Some(rv), .. } if rv == "9"
        ));
    }

    #[tokio::test]
    async fn lines_are_framed_blank_ones_skipped_and_a_last_one_without_newline_kept() {
        let body = kube::client::Body::from(
            b"{\"type\":\"ADDED\",\"object\":{\"metadata\":{\"name\":\"a\"}}}\r\n\n  \n\
              {\"type\":\"DELETED\",\"object\":{\"metadata\":{\"name\":\"b\"}}}"
                .to_vec(),
        );
        let got: Vec<_> = lines::<Obj>(body, "pod").collect().await;
        let names: Vec<String> = got
            .into_iter()
            .map(|l| match l {
                Ok(Line::Event(WatchEvent::Added(o) | WatchEvent::Deleted(o))) => o.metadata.name,
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(names, ["a", "b"]);
    }

    #[test]
    fn a_status_instead_of_an_event_is_its_failure() {
        let gone =
            br#"{"kind":"Status","apiVersion":"v1","status":"Failure","code":410,"message":"too old"}"#;
        assert!(matches!(decode::<Obj>(gone, "pod"), Err(Failure::Gone)));
        assert!(matches!(
            decode::<Obj>(b"not json", "pod"),
            Err(Failure::Other(_))
        ));
        let err = br#"{"type":"ERROR","object":{"kind":"Status","code":410,"message":"too old"}}"#;
        assert!(matches!(
            decode::<Obj>(err, "pod"),
            Ok(Line::Event(WatchEvent::Error(e))) if e.code == 410
        ));
    }
}
