//! Events (core/v1) as the timeline shows them: LAST SEEN, TYPE, REASON, OBJECT, COUNT,
//! MESSAGE, SOURCE, then the wide SUBOBJECT and FIRST SEEN — `kubectl get events`'s cells
//! (COUNT 0/absent shown as 1), in the timeline's order — plus the [`EventInfo`] the timeline
//! orders and filters by. Times are stored, never formatted here; must not keep annotations;
//! `action` and `related` are kept only when set (boxed, for the detail pane).

use std::borrow::Cow;
use serde::Deserialize;

use std::sync::Arc;

use ktui_kube::row::{Cell, EventInfo, Health, IntoRow, ObjRef, Row, RowCtx, UnixSecs};
use ktui_kube::sanitize::sanitize;

use super::{col, wide, KindSpec};
use super::meta::{shared_or, text, time, ObjMeta};

/// An event, decoded only as far as its columns need.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct EventObj {
    /// `metadata`.
    pub metadata: ObjMeta,
    /// `involvedObject`.
    pub involved_object: InvolvedObject,
    /// `reason`.
    pub reason: String,
    /// `message`.
    pub message: String,
    /// `type` (`Normal`, `Warning`).
    #[serde(rename = "type")]
    pub type_: String,
    /// `source`.
    pub source: EventSource,
    /// `action` (events.k8s.io/v1's `action`, mirrored on core/v1).
    pub action: String,
    /// `related` (events.k8s.io/v1's `related`, mirrored on core/v1).
    pub related: Option<InvolvedObject>,
    /// `reportingComponent` (Go field ReportingController).
    pub reporting_component: String,
    /// `reportingInstance`.
    pub reporting_instance: String,
    /// `firstTimestamp`.
    #[serde(deserialize_with = "time")]
    pub first_timestamp: Option<UnixSecs>,
    /// `lastTimestamp`.
    #[serde(deserialize_with = "time")]
    pub last_timestamp: Option<UnixSecs>,
    /// `eventTime` (MicroTime, truncated to seconds).
    #[serde(deserialize_with = "time")]
    pub event_time: Option<UnixSecs>,
    /// `count`.
    pub count: i64,
    /// `series`.
    pub series: Option<EventSeries>,
}

/// `involvedObject`.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct InvolvedObject {
    /// `kind`.
    pub kind: String,
    /// `name`.
    pub name: String,
    /// `fieldPath` (e.g. `spec.containers{web}`).
    pub field_path: String,
    /// `namespace`.
    pub namespace: Option<String>,
    /// `uid`.
    pub uid: String,
}

/// `source`.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(default)]
pub struct EventSource {
    /// `component`.
    pub component: String,
    /// `host`.
    pub host: String,
}

/// `series`.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct EventSeries {
    /// `series.count`.
    pub count: i64,
    /// `series.lastObservedTime`.
    #[serde(deserialize_with = "time")]
    pub last_observed_time: Option<UnixSecs>,
}

impl EventObj {
    /// FIRST SEEN instant: `firstTimestamp`, else `eventTime`.
    pub fn first_seen(&self) -> Option<UnixSecs> {
        self.first_timestamp.or(self.event_time)
    }

    /// LAST SEEN instant: `series.lastObservedTime` when `series` is set, else
    /// `lastTimestamp`, else the FIRST SEEN instant.
    pub fn last_seen(&self) -> Option<UnixSecs> {
        match &self.series {
            Some(s) => s.last_observed_time,
            None => self.last_timestamp.or(self.first_seen()),
        }
    }

    /// The instant the timeline orders by: `series.lastObservedTime` (when `series` is set)
    /// → `lastTimestamp` → `firstTimestamp` → `eventTime`; `None` only when all are null.
    pub fn timeline_instant(&self) -> Option<UnixSecs> {
        self.series
            .as_ref()
            .and_then(|s| s.last_observed_time)
            .or(self.last_timestamp)
            .or(self.first_timestamp)
            .or(self.event_time)
    }

    /// COUNT: `series.count` when `series` is set, else `count`; 0 or absent counts as 1.
    pub fn count(&self) -> i64 {
        let n = match &self.series {
            Some(s) => s.count,
            None => self.count,
        };
        n.max(1)
    }

    /// OBJECT: `lowercase(kind)/name`, or just the kind when the name is empty.
    fn object(&self) -> String {
        let kind = self.involved_object.kind.to_lowercase();
        if self.involved_object.name.is_empty() {
            kind
        } else {
            format!("{kind}/{}", self.involved_object.name)
        }
    }

    /// SOURCE: `component, host` with the reporting fields as fallbacks.
    fn source(&self) -> String {
        let or = |a: &'_ str, b: &'_ str| {
            if a.is_empty() {
                b.to_string()
            } else {
                a.to_string()
            }
        };
        let component = or(&self.source.component, &self.reporting_component);
        let host = or(&self.source.host, &self.reporting_instance);
        if host.is_empty() {
            component
        } else {
            format!("{component}, {host}")
        }
    }
}

/// The event timeline's columns: `kubectl get events` cells, with COUNT and SOURCE shown
/// by default (the timeline's order), SUBOBJECT and FIRST SEEN wide only.
pub static SPEC: KindSpec = KindSpec {
    columns: Cow::Borrowed(&[
        col("LAST SEEN"),
        col("TYPE"),
        col("REASON"),
        col("OBJECT"),
        col("COUNT"),
        col("MESSAGE"),
        col("SOURCE"),
        wide("SUBOBJECT"),
        wide("FIRST SEEN"),
    ]),
    status_col: Some(1),
};

/// The event columns dropped first on a narrow terminal, in order (see [`crate::drop_first`]):
/// where and when it was seen before what happened to which object.
pub static DROP_FIRST: &[&str] = &["SUBOBJECT", "SOURCE", "COUNT", "FIRST SEEN", "LAST SEEN"];

/// The literal text of `row`'s cell under the event column headed `header` (`TYPE`,
/// `REASON`, `OBJECT`, `MESSAGE`: found by name in [`SPEC`]); `""` when there is no such
/// column or the cell is formatted at draw time.
pub fn cell<'a>(row: &'a Row, header: &str) -> &'a str {
    SPEC.index_of(header)
        .and_then(|i| row.cells.get(i))
        .and_then(Cell::literal)
        .unwrap_or("")
}

impl IntoRow for EventObj {
    fn into_row(self, ctx: &RowCtx) -> Row {
        let health = if self.type_ == "Warning" {
            Health::Warn
        } else {
            Health::Ok
        };
        let count = self.count();
        let type_ = match self.type_.as_str() {
            "Normal" => Cell::Static("Normal"),
            "Warning" => Cell::Static("Warning"),
            other => text(other),
        };
        // Reasons, sources, sub-objects and kinds repeat across events: interned. A one-line
        // message (the usual case) is one allocation held by the MESSAGE cell and the info.
        let trimmed = self.message.trim();
        let (message, message_cell) = if trimmed.contains(['\n', '\r', '\u{c}']) {
            let whole: String = trimmed
                .lines()
                .map(|l| sanitize(l).into_owned())
                .collect::<Vec<_>>()
                .join("\n");
            (Arc::from(whole), text(trimmed))
        } else {
            let one: Arc<str> = Arc::from(sanitize(trimmed));
            let cell = if one.is_empty() {
                Cell::Static("")
            } else {
                Cell::Shared(one.clone())
            };
            (one, cell)
        };
        // LAST SEEN shows the instant the timeline orders by (kubectl's rule, except that a
        // `series` without `lastObservedTime` falls through instead of showing <unknown>).
        let cells = vec![
            Cell::Age(self.timeline_instant()),
            type_,
            shared_or(ctx, &self.reason, ""),
            text(&self.object()),
            Cell::Int(count),
            message_cell,
            shared_or(ctx, &self.source(), ""),
            shared_or(ctx, &self.involved_object.field_path, ""),
            Cell::Age(self.first_seen()),
        ];
        let obj_ref = |o: &InvolvedObject| ObjRef {
            kind: ctx.interner.intern(&sanitize(&o.kind)),
            name: sanitize(&o.name).into(),
            namespace: o
                .namespace
                .as_deref()
                .filter(|n| !n.is_empty())
                .map(|n| ctx.interner.intern(&sanitize(n))),
            uid: sanitize(&o.uid).into(),
        };
        let info = EventInfo {
            involved: obj_ref(&self.involved_object),
            action: Some(self.action.trim())
                .filter(|a| !a.is_empty())
                .map(|a| sanitize(a).into()),
            related: self
                .related
                .as_ref()
                .filter(|r| !r.kind.is_empty() || !r.name.is_empty())
                .map(|r| Box::new(obj_ref(r))),
            last_seen: self.timeline_instant(),
            count,
            warning: self.type_ == "Warning",
            message,
            expired: false,
        };
        let mut row = self.metadata.into_row(ctx, cells, health, None);
        row.event = Some(Arc::new(info));
        row
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use ktui_kube::builtin::BuiltinKind;
    use ktui_kube::row::Health;
    use ktui_kube::row::Row;
    use crate::testutil::{ago, cells, row};

    #[test]
    fn verified_examples() {
        let legacy = json!({"metadata": {"name": "e1", "namespace": "ns"}, "type": "Warning", "reason": "BackOff",
            "involvedObject": {"kind": "Pod", "name": "web-1", "fieldPath": "spec.containers{web}"},
            "source": {"component": "kubelet", "host": "node-1"},
            "message": "  Back-off restarting failed container\n", "count": 12,
            "firstTimestamp": ago(3600), "lastTimestamp": ago(65)});
        assert_eq!(
            cells(BuiltinKind::Event, legacy.clone()),
            [
                "65s",
                "Warning",
                "BackOff",
                "pod/web-1",
                "12",
                "Back-off restarting failed container",
                "kubelet, node-1",
                "spec.containers{web}",
                "60m",
            ]
        );
        let r = row(BuiltinKind::Event, legacy);
        assert_eq!((&*r.name, r.health), ("e1", Health::Warn));

        let series = json!({"type": "Normal", "reason": "Pulled", "involvedObject": {"kind": "Pod", "name": "p"},
            "reportingComponent": "kubelet", "reportingInstance": "node-2",
            "eventTime": ago(600).replace('Z', ".123456Z"),
            "series": {"count": 4, "lastObservedTime": ago(30)}});
        let got = cells(BuiltinKind::Event, series);
        assert_eq!(
            (got[0].as_str(), got[6].as_str(), got[8].as_str(), got[4].as_str()),
            ("30s", "kubelet, node-2", "10m", "4")
        );

        let single =
            json!({"involvedObject": {"kind": "Node"}, "reportingComponent": "c", "eventTime": ago(200)});
        let got = cells(BuiltinKind::Event, single);
        assert_eq!(
            (
                got[0].as_str(),
                got[3].as_str(),
                got[6].as_str(),
                got[8].as_str(),
                got[4].as_str()
            ),
            ("3m20s", "node", "c", "3m20s", "1")
        );

        let none = cells(BuiltinKind::Event, json!({}));
        assert_eq!(none, ["<unknown>", "", "", "", "1", "", "", "", "<unknown>"]);
        // Deliberate timeline deviations from kubectl (which prints `<unknown>` and `0`): a
        // series without lastObservedTime falls through to lastTimestamp, COUNT is at least 1.
        let series_no_time = cells(
            BuiltinKind::Event,
            json!({"lastTimestamp": ago(5), "series": {"count": 0}}),
        );
        assert_eq!(
            (series_no_time[0].as_str(), series_no_time[4].as_str()),
            ("5s", "1")
        );
    }

    /// 50,000 events held at the scale limits: what repeats is interned, a one-line message
    /// is held once for its cell and the detail pane.
    #[test]
    fn repeated_text_and_one_line_messages_share_allocations() {
        use ktui_kube::row::{Cell, RowCtx};
        use crate::decode_row;
        use std::sync::Arc;

        let ctx = RowCtx::default();
        let ev = |name: &str, message: &str| {
            let json = json!({"metadata": {"name": name, "namespace": "ns"}, "reason": "BackOff",
                "involvedObject": {"kind": "Pod", "name": "web-1", "fieldPath": "spec.containers{web}"},
                "source": {"component": "kubelet", "host": "node-1"}, "message": message});
            decode_row(BuiltinKind::Event, &serde_json::to_vec(&json).unwrap(), &ctx).unwrap()
        };
        let (a, b) = (ev("e1", " Back-off restarting \u{1b}[1m "), ev("e2", "two\nlines"));
        let shared = |r: &Row, col: &str| match &r.cells[crate::event::SPEC.index_of(col).unwrap()] {
            Cell::Shared(s) => s.clone(),
            other => panic!("{col}: {other:?}"),
        };
        for col in ["REASON", "SOURCE", "SUBOBJECT"] {
            assert!(Arc::ptr_eq(&shared(&a, col), &shared(&b, col)), "{col}");
        }
        let (ia, ib) = (a.event.as_ref().unwrap(), b.event.as_ref().unwrap());
        assert!(Arc::ptr_eq(&ia.involved.kind, &ib.involved.kind));
        assert!(Arc::ptr_eq(&shared(&a, "MESSAGE"), &ia.message));
        assert_eq!(&*ia.message, "Back-off restarting ^[[1m");
        assert_eq!(super::cell(&b, "MESSAGE"), "two...");
        assert_eq!(&*ib.message, "two\nlines");
    }

    #[test]
    fn action_and_related_are_kept_for_the_detail_pane() {
        let r = row(
            BuiltinKind::Event,
            json!({"action": "Binding", "involvedObject": {"kind": "Pod", "name": "web-1"},
                "related": {"kind": "Node", "name": "node-\u{1b}2", "uid": "n2"}}),
        );
        let info = r.event.as_ref().unwrap();
        assert_eq!(info.action.as_deref(), Some("Binding"));
        let related = info.related.as_deref().unwrap();
        assert_eq!(
            (&*related.kind, &*related.name, related.namespace.as_deref(), &*related.uid),
            ("Node", "node-^[2", None, "n2")
        );
        let plain = row(BuiltinKind::Event, json!({"action": "", "related": null}));
        let info = plain.event.as_ref().unwrap();
        assert!(info.action.is_none() && info.related.is_none());
    }

    #[test]
    fn message_first_line_and_escapes() {
        let got = cells(BuiltinKind::Event, json!({"message": "\u{1b}[2Jboom\nrest"}));
        assert_eq!(got[5], "^[[2Jboom...");
    }
}
