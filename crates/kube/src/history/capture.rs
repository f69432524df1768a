//! The informer hook of history: [`Captured`] keeps a list/watch item's JSON text as it came
//! (one scan and one copy, no `Value`), decodes the informer's slim type from that text, and
//! hands the text to the history; [`Recording`] is the sink wrapper that does so around any other sink. Used only
//! for kinds that are recorded (see `super::recorded_by_lists`), so the pod informer pays
//! nothing. Owns that hook; must not decide revisions (that is `super::record`).

use std::collections::HashSet;
use std::sync::Arc;

use serde::de::Error as _;
use serde::{Deserialize, Deserializer};
use serde_json::value::RawValue;
use tokio::time::Instant;

use super::record::{id_of_raw, History, ObjId};
use crate::key::ResourceKey;
use crate::row::Versioned;
use crate::sink::{Relisted, Sink, Verified};
use crate::store::ObjKey;
use crate::sync::SyncState;

/// One list/watch item decoded as `T` and kept whole as JSON text until the sink has
/// recorded it.
#[derive(Debug, Clone)]
pub struct Captured<T> {
    /// The slim object the wrapped sink gets.
    pub obj: T,
    /// The whole object as the server sent it (its JSON text).
    pub json: Box<RawValue>,
}

/// Decodes from serde_json's own deserializers (a list body, a watch line whose `type`
/// comes before its `object` — the API server's order — or a `Value`). A watch line with
/// `object` first is buffered by serde's tagged-enum machinery, where raw text cannot be
/// kept: `kube::informer::lines` decodes such a line again field by field.
///
/// For a type read from the server's printed rows (`Versioned::TABLE_ROWS`: secrets), the
/// text kept is the row's `object` — a `PartialObjectMetadata`, so the history of such a kind
/// records its metadata (labels, annotations, owners, managedFields: who changed it when),
/// never its data.
impl<'de, T: Versioned> Deserialize<'de> for Captured<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let json = Box::<RawValue>::deserialize(d)?;
        let obj = serde_json::from_str(json.get()).map_err(D::Error::custom)?;
        let json = if T::TABLE_ROWS { row_object(json) } else { json };
        Ok(Captured { obj, json })
    }
}

/// A Table row's (`{"cells": …, "object": …}`) or one-row Table's object text; anything
/// else (a whole object, from a server that printed no table) as it is.
fn row_object(json: Box<RawValue>) -> Box<RawValue> {
    #[derive(Deserialize)]
    struct Row {
        object: Option<Box<RawValue>>,
        #[serde(default)]
        rows: Vec<Row>,
    }
    match serde_json::from_str::<Row>(json.get()) {
        Ok(Row { object: Some(o), .. }) => o,
        Ok(Row { rows, .. }) => rows.into_iter().next().and_then(|r| r.object).unwrap_or(json),
        Err(_) => json,
    }
}

impl<T: Versioned> Versioned for Captured<T> {
    const TABLE_ROWS: bool = T::TABLE_ROWS;

    fn version(&self) -> Option<&str> {
        self.obj.version()
    }
}

/// A sink that records every object into a [`History`] and passes the slim object on to
/// `inner`; after a complete list without selectors, the recorded objects it no longer
/// listed are marked deleted (they went during a watch gap).
pub struct Recording<S> {
    inner: S,
    history: Arc<History>,
    /// `Kind::full_name` of what the informer lists.
    resource: Box<str>,
    listing: bool,
    /// The namespace a complete list covers (`Some(None)`: all); `None` when the informer
    /// has selectors (its list says nothing of the objects it does not match).
    scope: Option<Option<Box<str>>>,
    /// The objects the list in progress has listed.
    seen: HashSet<ObjId>,
}

impl<S> Recording<S> {
    /// Wraps `inner`, recording objects of `resource` (`plural.group`) into `history`.
    pub fn new(inner: S, history: Arc<History>, resource: &str) -> Self {
        Recording {
            inner,
            history,
            resource: resource.into(),
            listing: false,
            scope: None,
            seen: HashSet::new(),
        }
    }

    /// What the informer lists (`key`): a list without selectors marks the objects of its
    /// namespace (or of all) it no longer finds deleted.
    pub fn scoped(mut self, key: &ResourceKey) -> Self {
        self.scope =
            (key.labels.is_none() && key.fields.is_none()).then(|| key.namespace.as_deref().map(Into::into));
        self
    }
}

fn now() -> i64 {
    jiff::Timestamp::now().as_second()
}

impl<T: Send, S: Sink<T>> Sink<Captured<T>> for Recording<S> {
    fn init(&mut self) {
        self.listing = true;
        self.seen.clear();
        self.inner.init();
    }
    fn init_apply(&mut self, c: Captured<T>) {
        if self.scope.is_some() {
            if let Some(id) = id_of_raw(&self.resource, &c.json) {
                self.seen.insert(id);
            }
        }
        self.history.observe_raw(&self.resource, &c.json, true, now());
        self.inner.init_apply(c.obj);
    }
    fn init_delete(&mut self, c: Captured<T>) {
        self.history.deleted_raw(&self.resource, &c.json, now());
        self.inner.init_delete(c.obj);
    }
    fn init_done(&mut self, rv: Option<String>) {
        self.listing = false;
        if let Some(ns) = &self.scope {
            self.history
                .relisted(&self.resource, ns.as_deref(), &self.seen, now());
            self.seen = HashSet::new();
        }
        self.inner.init_done(rv);
    }
    fn apply(&mut self, c: Captured<T>) {
        self.history
            .observe_raw(&self.resource, &c.json, self.listing, now());
        self.inner.apply(c.obj);
    }
    fn delete(&mut self, c: Captured<T>) {
        self.history.deleted_raw(&self.resource, &c.json, now());
        self.inner.delete(c.obj);
    }
    fn set_state(&mut self, state: SyncState) {
        self.inner.set_state(state);
    }
    fn set_resource_version(&mut self, rv: &str) {
        self.inner.set_resource_version(rv);
    }
    fn flush(&mut self) -> Option<Instant> {
        self.inner.flush()
    }
    fn unreadable(&mut self, line: Option<String>) {
        self.inner.unreadable(line);
    }
    fn relisted(&self) -> Option<Relisted> {
        self.inner.relisted()
    }
    /// The verifying list's objects are recorded as a relist's are (an unchanged
    /// resourceVersion costs one metadata scan), then verified by `inner`.
    fn verify(&mut self, listed: Vec<(Captured<T>, Option<u64>)>, upto: u64) -> Option<Verified> {
        let at = now();
        let listed = listed
            .into_iter()
            .map(|(c, rv)| {
                self.history.observe_raw(&self.resource, &c.json, true, at);
                (c.obj, rv)
            })
            .collect();
        self.inner.verify(listed, upto)
    }
    fn remove_ghosts(&mut self, keys: &[ObjKey]) -> usize {
        self.inner.remove_ghosts(keys)
    }
    fn publish(&mut self) {
        self.inner.publish();
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::builtin::BuiltinKind;
    use crate::history::HistoryConfig;

    fn cm(name: &str) -> Captured<u8> {
        Captured {
            obj: 0,
            json: serde_json::value::to_raw_value(
                &json!({"metadata": {"name": name, "namespace": "shop", "uid": name, "resourceVersion": "1"}}),
            )
            .unwrap(),
        }
    }

    fn deleted(h: &History, name: &str) -> bool {
        let id = ObjId {
            resource: "configmaps".into(),
            namespace: Some("shop".into()),
            name: name.into(),
        };
        h.record(&id).unwrap().deleted_unseen
    }

    #[test]
    fn a_relist_without_selectors_marks_the_objects_it_lost() {
        let key = ResourceKey::new(BuiltinKind::ConfigMap, Some("shop"));
        for (key, marks) in [(key.clone(), true), (key.with_labels("app=web"), false)] {
            let h = History::new(HistoryConfig::default(), 0);
            let mut r = Recording::new(Verifying::default(), h.clone(), "configmaps").scoped(&key);
            r.init();
            r.init_apply(cm("a"));
            r.init_apply(cm("b"));
            r.init_done(None);
            assert!(!deleted(&h, "b"));
            // The watch broke; the relist no longer has `b`.
            r.init();
            r.init_apply(cm("a"));
            r.init_done(None);
            assert_eq!(deleted(&h, "b"), marks, "{key}");
            assert!(!deleted(&h, "a"));
        }
    }

    /// The wrapped sink: what it was asked to verify and report.
    #[derive(Default)]
    struct Verifying {
        verified: Vec<u8>,
        ghosts: usize,
        unreadable: Option<String>,
    }

    impl Sink<u8> for Verifying {
        fn init(&mut self) {}
        fn init_apply(&mut self, _: u8) {}
        fn init_done(&mut self, _: Option<String>) {}
        fn apply(&mut self, _: u8) {}
        fn delete(&mut self, _: u8) {}
        fn set_state(&mut self, _: SyncState) {}
        fn unreadable(&mut self, line: Option<String>) {
            self.unreadable = line;
        }
        fn relisted(&self) -> Option<Relisted> {
            Some(Relisted::default())
        }
        fn verify(&mut self, listed: Vec<(u8, Option<u64>)>, _upto: u64) -> Option<Verified> {
            self.verified = listed.into_iter().map(|(o, _)| o).collect();
            Some(Verified::default())
        }
        fn remove_ghosts(&mut self, keys: &[ObjKey]) -> usize {
            self.ghosts = keys.len();
            keys.len()
        }
    }

    /// A recorded kind's store is verified and reports like any other: the recording hook
    /// passes periodic verification, ghosts, relist reports and unreadable lines through (it
    /// used to swallow them, so recorded kinds were never verified).
    #[test]
    fn recording_passes_verification_and_reports_through() {
        let h = History::new(HistoryConfig::default(), 0);
        let mut r = Recording::new(Verifying::default(), h.clone(), "configmaps");
        let mut c = cm("a");
        c.obj = 7;
        assert_eq!(r.verify(vec![(c, Some(1))], 1), Some(Verified::default()));
        assert_eq!(r.inner.verified, [7]);
        assert!(
            h.record(&ObjId {
                resource: "configmaps".into(),
                namespace: Some("shop".into()),
                name: "a".into(),
            })
            .is_some(),
            "the verifying list is recorded as a relist"
        );
        let key: ObjKey = (Some("shop".into()), "a".into());
        assert_eq!(r.remove_ghosts(&[key]), 1);
        assert!(r.relisted().is_some());
        r.unreadable(Some("1 object could not be read".into()));
        assert!(r.inner.unreadable.is_some());
    }
}

#[cfg(test)]
mod decode_tests {
    use serde::Deserialize;
    use serde_json::json;

    use super::Captured;
    use crate::row::Versioned;

    #[derive(Deserialize, Clone, Debug)]
    struct Named {
        metadata: Meta,
    }
    #[derive(Deserialize, Clone, Debug)]
    struct Meta {
        name: String,
    }

    impl Versioned for Named {
        fn version(&self) -> Option<&str> {
            None
        }
    }

    /// A kind read from the server's printed rows (secrets): its name from the row's object.
    #[derive(Deserialize, Clone, Debug)]
    struct Printed {
        object: Named,
    }

    impl Versioned for Printed {
        const TABLE_ROWS: bool = true;

        fn version(&self) -> Option<&str> {
            None
        }
    }

    /// The history of a kind read from printed rows keeps the row's object (its
    /// `PartialObjectMetadata`), never the cells, whether the row came in a list page or as a
    /// watch event's Table of one row.
    #[test]
    fn printed_rows_keep_only_their_object() {
        let object = r#"{"kind":"PartialObjectMetadata","metadata":{"name":"tls"}}"#;
        let row = format!(r#"{{"cells":["tls","Opaque",1,"5m"],"object":{object}}}"#);
        let c: Captured<Printed> = serde_json::from_str(&row).unwrap();
        assert_eq!(
            (c.obj.object.metadata.name.as_str(), c.json.get()),
            ("tls", object)
        );
        const { assert!(Captured::<Printed>::TABLE_ROWS && !Captured::<Named>::TABLE_ROWS) };
        #[derive(Deserialize)]
        struct OneRow {
            rows: Vec<Printed>,
        }
        let table = format!(r#"{{"kind":"Table","metadata":{{"resourceVersion":"9"}},"rows":[{row}]}}"#);
        let one = super::row_object(serde_json::from_str(&table).unwrap());
        assert_eq!(one.get(), object);
        assert_eq!(serde_json::from_str::<OneRow>(&table).unwrap().rows.len(), 1);
        // A whole object (a server that prints no tables) is kept whole.
        let whole = r#"{"metadata":{"name":"tls"},"type":"Opaque"}"#;
        assert_eq!(
            super::row_object(serde_json::from_str(whole).unwrap()).get(),
            whole
        );
    }

    /// A list page whose items failed as a whole is decoded again item by item from
    /// `Value`s (`informer::page`): the text is then the value's.
    #[test]
    fn decodes_from_text_and_from_a_value() {
        let text = r#"{"metadata":{"name":"a","labels":{"x":"1"}}}"#;
        let c: Captured<Named> = serde_json::from_str(text).unwrap();
        assert_eq!((c.obj.metadata.name.as_str(), c.json.get()), ("a", text));
        let c = Captured::<Named>::deserialize(json!({"metadata": {"name": "b"}})).unwrap();
        assert_eq!(c.obj.metadata.name, "b");
        assert_eq!(c.json.get(), r#"{"metadata":{"name":"b"}}"#);
        assert!(serde_json::from_str::<Captured<Named>>(r#"{"metadata":{"name":4}}"#).is_err());
    }
}
