//! The informer hook of history: [`Captured`] decodes a list/watch item once into a JSON
//! value, builds the informer's slim type from that value, and hands the value to the
//! history; [`Recording`] is the sink wrapper that does so around any other sink. Used only
//! for kinds that are recorded (see `super::recorded_by_lists`), so the pod informer pays
//! nothing. Owns that hook; must not decide revisions (that is `super::record`).

use std::sync::Arc;

use serde::de::{DeserializeOwned, Error as _};
use serde::{Deserialize, Deserializer};
use serde_json::Value;
use tokio::time::Instant;

use super::record::History;
use crate::kube::row::Versioned;
use crate::kube::sink::Sink;
use crate::kube::sync::SyncState;

/// One list/watch item decoded as `T` and kept whole as JSON until the sink has recorded it.
#[derive(Debug, Clone)]
pub struct Captured<T> {
    /// The slim object the wrapped sink gets.
    pub obj: T,
    /// The whole object as the server sent it.
    pub json: Value,
}

impl<'de, T: DeserializeOwned> Deserialize<'de> for Captured<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let json = Value::deserialize(d)?;
        let obj = T::deserialize(&json).map_err(D::Error::custom)?;
        Ok(Captured { obj, json })
    }
}

impl<T: Versioned> Versioned for Captured<T> {
    fn version(&self) -> Option<&str> {
        self.obj.version()
    }
}

/// A sink that records every object into a [`History`] and passes the slim object on to
/// `inner`.
pub struct Recording<S> {
    inner: S,
    history: Arc<History>,
    /// `Kind::full_name` of what the informer lists.
    resource: Box<str>,
    listing: bool,
}

impl<S> Recording<S> {
    /// Wraps `inner`, recording objects of `resource` (`plural.group`) into `history`.
    pub fn new(inner: S, history: Arc<History>, resource: &str) -> Self {
        Recording {
            inner,
            history,
            resource: resource.into(),
            listing: false,
        }
    }
}

fn now() -> i64 {
    jiff::Timestamp::now().as_second()
}

impl<T: Send, S: Sink<T>> Sink<Captured<T>> for Recording<S> {
    fn init(&mut self) {
        self.listing = true;
        self.inner.init();
    }
    fn init_apply(&mut self, c: Captured<T>) {
        self.history.observe(&self.resource, c.json, true, now());
        self.inner.init_apply(c.obj);
    }
    fn init_done(&mut self, rv: Option<String>) {
        self.listing = false;
        self.inner.init_done(rv);
    }
    fn apply(&mut self, c: Captured<T>) {
        self.history.observe(&self.resource, c.json, self.listing, now());
        self.inner.apply(c.obj);
    }
    fn delete(&mut self, c: Captured<T>) {
        self.history.deleted(&self.resource, &c.json, now());
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
    fn publish(&mut self) {
        self.inner.publish();
    }
}
