//! Starting the context in use's session once its client is built: the informer pool (with
//! its revision history), the discovery task, port-forwards and metrics polls. Owns that
//! wiring; must not block on the network (everything it starts runs on the network runtime).

use std::collections::HashMap;
use std::sync::Arc;

use crate::kube::discovery_watch::{keep_current, DiscoveryConfig};
use crate::kube::history::History;
use crate::kube::pool::InformerPool;

use super::run::{Event, Session, Wiring, GRACE};

impl Wiring<'_> {
    /// Makes the new session's pool record into its context's history (kept across context
    /// switches, so switching back finds it; `[history]` bounds each one).
    pub(crate) fn record_history(&mut self, context: Option<String>) {
        let config = self.history_config;
        let Some(s) = self.session.as_mut() else { return };
        let history = self
            .histories
            .entry(context.unwrap_or_default())
            .or_insert_with(|| History::new(config, jiff::Timestamp::now().as_second()))
            .clone();
        s.pool = s.pool.clone().record_into(history);
    }

    /// Starts the informer pool and the discovery task of a new client.
    pub(crate) fn start_session(&mut self, client: kube::Client) {
        let tx = self.tx.clone();
        let generation = self.generation;
        let rediscover = Arc::new(tokio::sync::Notify::new());
        let publish = move |reg| {
            let _ = tx.send(Event::Discovered(generation, reg));
        };
        let task = keep_current(
            client.clone(),
            DiscoveryConfig::default(),
            rediscover.clone(),
            publish,
        );
        let discovery = self.net.spawn(task).abort_handle();
        let client_for_metrics = client.clone();
        let pool = self.new_pool(client);
        let tx = self.tx.clone();
        let forwards = crate::kube::portforward::PortForwards::new(pool.clone(), move || {
            let _ = tx.send(Event::Forwards);
        });
        let metrics = self.metrics_config.clone().map(|config| {
            crate::kube::metrics::MetricsPool::new_on(
                self.net.clone(),
                client_for_metrics,
                self.metrics_tx.clone(),
                config,
            )
        });
        self.session = Some(Session {
            metrics,
            pool,
            discovery,
            rediscover,
            feeds: HashMap::new(),
            forwards,
        });
    }
}

impl Wiring<'_> {
    /// An informer pool for a context's new client (the one in use, or a union member's).
    /// Each context finds out afresh whether its server streams lists and speaks protobuf:
    /// what an earlier context's server did is not carried over.
    pub(crate) fn new_pool(&self, client: kube::Client) -> InformerPool {
        let mut informer_config = self.informer_config.clone();
        if informer_config.streaming.is_some() {
            informer_config.streaming = Some(Default::default());
        }
        informer_config.protobuf = informer_config.protobuf.map(|_| Default::default());
        InformerPool::new_on(
            self.net.clone(),
            client,
            Arc::new(crate::table::TableDecoders),
            self.store_tx.clone(),
            informer_config,
            GRACE,
        )
    }
}
