//! What `:pulse` counts from rows: per kind the totals by health class ([`Counts`]), pods'
//! restarts rising while watched ([`RestartWatch`]) and events per minute ([`EventRate`]).
//! Reads only what row builders already computed (`Row::health`, the RESTARTS cell, a
//! node's pressure conditions, `EventInfo`); must not parse cell text, draw or touch the
//! network.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use crate::kube::capacity::Capacity;
use crate::kube::row::{Cell, Health, Row, UnixSecs};
use crate::kube::rows::Rows;

use crate::app::pulse::model::Tile;

/// Names kept per tile for the filter `enter` opens the list with.
pub const FILTER_MAX: usize = 40;

/// Pods kept in the top restarting list.
pub const TOP_RESTARTS: usize = 10;

/// Minutes of event rate kept (a day); older minutes are dropped.
pub const RATE_MINUTES: i64 = 24 * 60;

/// One tile's counts over the rows of its kind in the view's namespace.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Counts {
    /// Objects, as `kubectl get <kind>` lists them (events the server expired excluded).
    pub total: usize,
    /// [`Health::Ok`] rows: pods Running with every container ready, workloads with every
    /// replica ready and available, running jobs, nodes Ready; events of type Normal.
    pub ok: usize,
    /// [`Health::Warn`] rows: pods pending, creating, terminating or not ready; workloads
    /// not fully ready; suspended jobs and cronjobs; cordoned nodes.
    pub warn: usize,
    /// [`Health::Error`] rows: pods failing (CrashLoopBackOff, Error, ImagePullBackOff…);
    /// failed jobs; nodes NotReady or Unknown; Warning events.
    pub error: usize,
    /// [`Health::Done`] rows: completed pods and jobs.
    pub done: usize,
    /// Nodes with MemoryPressure, DiskPressure, PIDPressure `True` (nodes only).
    pub pressure: [usize; 3],
    /// Up to [`FILTER_MAX`] rows that are not Ok nor Done, as the list's filter names them
    /// (`namespace/name` in all-namespaces mode, else `name`), for `enter`.
    pub abnormal: Vec<String>,
}

impl Counts {
    /// Counts `rows` of `tile`'s kind, only those in `ns` when set (an all-namespaces
    /// informer serving a namespace). `all_ns`: names in `abnormal` carry their namespace.
    pub fn of(tile: Tile, rows: &Rows, ns: Option<&str>, all_ns: bool) -> Counts {
        let mut c = Counts::default();
        for row in rows.iter().filter(|r| in_ns(r, ns)) {
            if tile == Tile::Events {
                // The timeline keeps events the server no longer holds: not listed by kubectl.
                let Some(ev) = row.event.as_deref().filter(|e| !e.expired) else {
                    continue;
                };
                c.total += 1;
                if ev.warning {
                    c.error += 1;
                } else {
                    c.ok += 1;
                }
                continue;
            }
            c.total += 1;
            match row.health {
                Health::Ok => c.ok += 1,
                Health::Warn => c.warn += 1,
                Health::Error => c.error += 1,
                Health::Done => c.done += 1,
            }
            if matches!(row.health, Health::Warn | Health::Error) && c.abnormal.len() < FILTER_MAX {
                c.abnormal.push(match (&row.namespace, all_ns) {
                    (Some(n), true) => format!("{n}/{}", row.name),
                    _ => row.name.to_string(),
                });
            }
            if let Some(Capacity::Node { pressure, .. }) = row.capacity.as_deref() {
                c.pressure[0] += usize::from(pressure.memory);
                c.pressure[1] += usize::from(pressure.disk);
                c.pressure[2] += usize::from(pressure.pid);
            }
        }
        c
    }

    /// Rows that are neither Ok nor Done.
    pub fn abnormal_count(&self) -> usize {
        self.warn + self.error
    }
}

fn in_ns(row: &Row, ns: Option<&str>) -> bool {
    ns.is_none_or(|ns| row.namespace.as_deref() == Some(ns))
}

/// A pod's RESTARTS (the sum over its containers, as kubectl prints it) and the time of
/// its last restart, from the row's [`Cell::Restarts`]; `None` for rows without one.
pub fn restarts_of(row: &Row) -> Option<(i64, Option<UnixSecs>)> {
    row.cells.iter().find_map(|c| match c {
        Cell::Restarts { count, last } => Some((*count, *last)),
        _ => None,
    })
}

/// One pod of the top restarting list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Restarting {
    /// `metadata.namespace`.
    pub namespace: Option<Arc<str>>,
    /// `metadata.name`.
    pub name: Arc<str>,
    /// RESTARTS now.
    pub count: i64,
    /// Restarts since the view first saw the pod (0: not rising).
    pub rise: i64,
    /// The last restart (`lastState.terminated.finishedAt`), if known.
    pub last: Option<UnixSecs>,
}

/// Pods' restart counts as first seen by the view (per `metadata.uid`), so a count that
/// goes up while `:pulse` is open shows as rising.
#[derive(Debug, Default)]
pub struct RestartWatch {
    /// RESTARTS of each pod when first seen; pods gone are forgotten.
    first: HashMap<Box<str>, i64>,
    /// Pods whose RESTARTS rose since first seen.
    pub rising: usize,
    /// Up to [`TOP_RESTARTS`] pods with restarts: rising first (most risen first), then by
    /// RESTARTS, most first; ties by namespace and name.
    pub top: Vec<Restarting>,
}

impl RestartWatch {
    /// Takes the pods of a new snapshot (those in `ns` when set).
    pub fn update(&mut self, rows: &Rows, ns: Option<&str>) {
        let mut first = HashMap::with_capacity(self.first.len());
        let mut all = Vec::new();
        for row in rows.iter().filter(|r| in_ns(r, ns)) {
            let Some((count, last)) = restarts_of(row) else {
                continue;
            };
            let key: Box<str> = match row.uid.is_empty() {
                true => format!("{}/{}", row.namespace.as_deref().unwrap_or(""), row.name).into(),
                false => row.uid.clone(),
            };
            let base = *self.first.get(&key).unwrap_or(&count);
            first.insert(key, base);
            if count > 0 {
                all.push(Restarting {
                    namespace: row.namespace.clone(),
                    name: row.name.clone(),
                    count,
                    rise: (count - base).max(0),
                    last,
                });
            }
        }
        self.first = first;
        self.rising = all.iter().filter(|p| p.rise > 0).count();
        all.sort_by(|a, b| {
            (b.rise, b.count)
                .cmp(&(a.rise, a.count))
                .then_with(|| (&a.namespace, &a.name).cmp(&(&b.namespace, &b.name)))
        });
        all.truncate(TOP_RESTARTS);
        self.top = all;
    }
}

/// Events per minute by type, keyed by the minute (unix seconds / 60) of each event's LAST
/// SEEN. When the view first sees the events, each counts once at its LAST SEEN (earlier
/// occurrences of a repeated event have no time of their own); from then on every
/// occurrence counts: a new event its `count`, a repeated one the rise of its count.
#[derive(Debug, Default)]
pub struct EventRate {
    /// `count` of each event (by `metadata.uid`) when last seen.
    seen: HashMap<Box<str>, i64>,
    /// `(normal, warning)` occurrences per minute.
    minutes: BTreeMap<i64, (u32, u32)>,
    /// The first snapshot was taken.
    seeded: bool,
}

impl EventRate {
    /// Takes the events of a new snapshot (those in `ns` when set).
    pub fn update(&mut self, rows: &Rows, ns: Option<&str>) {
        let mut seen = HashMap::with_capacity(self.seen.len());
        for row in rows.iter().filter(|r| in_ns(r, ns)) {
            let Some(ev) = row.event.as_deref() else { continue };
            let key: Box<str> = match row.uid.is_empty() {
                true => format!("{}/{}", row.namespace.as_deref().unwrap_or(""), row.name).into(),
                false => row.uid.clone(),
            };
            let count = ev.count.max(1);
            let added = match self.seen.get(&key) {
                None if !self.seeded => 1,
                None => count,
                Some(&before) => (count - before).max(0),
            };
            seen.insert(key, count);
            let Some(t) = ev.last_seen.filter(|_| added > 0) else {
                continue;
            };
            let slot = self.minutes.entry(t.div_euclid(60)).or_default();
            let added = u32::try_from(added).unwrap_or(u32::MAX);
            match ev.warning {
                true => slot.1 = slot.1.saturating_add(added),
                false => slot.0 = slot.0.saturating_add(added),
            }
        }
        self.seen = seen;
        self.seeded = true;
        if let Some(&newest) = self.minutes.keys().next_back() {
            self.minutes = self.minutes.split_off(&(newest - RATE_MINUTES + 1));
        }
    }

    /// `(normal, warning)` per minute for the `n` minutes up to the one holding `now`,
    /// oldest first.
    pub fn series(&self, now: UnixSecs, n: usize) -> Vec<(u32, u32)> {
        let end = now.div_euclid(60);
        let n = i64::try_from(n).unwrap_or(0);
        (end - n + 1..=end)
            .map(|m| self.minutes.get(&m).copied().unwrap_or_default())
            .collect()
    }
}

#[cfg(test)]
mod tests;
