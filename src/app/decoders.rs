//! Wires each built-in kind to its slim decode type from `crate::table` (and any other kind
//! to the generic printer-column decoder), so the informer pool
//! (which must not know kinds' shapes) can start the right typed list-watch loop.

use futures::future::BoxFuture;
use futures::FutureExt;

use crate::kube::builtin::BuiltinKind;
use crate::kube::informer::{run, run_sink, Decoders, InformerCtx};
use crate::kube::kind::Kind;
use crate::kube::sink::RowSink;
use crate::kube::timeline::TimelineWriter;
use crate::table::custom::{CustomObj, CustomRows};
use crate::table::*;

/// The decoders of every built-in kind.
pub struct TableDecoders;

impl Decoders for TableDecoders {
    fn run(&self, kind: &Kind, ctx: InformerCtx) -> BoxFuture<'static, ()> {
        use BuiltinKind::*;
        let kind = match kind {
            Kind::Builtin(b) => *b,
            Kind::Api(r) => {
                // Any other kind: decoded generically, cells from its printer columns.
                let build = CustomRows::new(r);
                let (parts, writer, rows) = ctx.into_parts();
                return run_sink::<CustomObj, _>(parts, RowSink::with_builder(writer, rows, build)).boxed();
            }
        };
        match kind {
            Pod => run::<PodObj>(ctx).boxed(),
            Deployment => run::<DeploymentObj>(ctx).boxed(),
            ReplicaSet => run::<ReplicaSetObj>(ctx).boxed(),
            StatefulSet => run::<StatefulSetObj>(ctx).boxed(),
            DaemonSet => run::<DaemonSetObj>(ctx).boxed(),
            Job => run::<JobObj>(ctx).boxed(),
            CronJob => run::<CronJobObj>(ctx).boxed(),
            HorizontalPodAutoscaler => run::<HpaObj>(ctx).boxed(),
            Service => run::<ServiceObj>(ctx).boxed(),
            Ingress => run::<IngressObj>(ctx).boxed(),
            Endpoints => run::<EndpointsObj>(ctx).boxed(),
            EndpointSlice => run::<EndpointSliceObj>(ctx).boxed(),
            ConfigMap => run::<ConfigMapObj>(ctx).boxed(),
            Secret => run::<SecretObj>(ctx).boxed(),
            Node => run::<NodeObj>(ctx).boxed(),
            Namespace => run::<NamespaceObj>(ctx).boxed(),
            PersistentVolumeClaim => run::<PvcObj>(ctx).boxed(),
            PersistentVolume => run::<PvObj>(ctx).boxed(),
            Event => {
                // Events feed the timeline (merged by uid, kept past the server's TTL).
                let (parts, writer, rows) = ctx.into_parts();
                let sink = TimelineWriter::<EventObj>::new(writer, rows, parts.config.timeline);
                run_sink::<EventObj, _>(parts, sink).boxed()
            }
        }
    }
}
