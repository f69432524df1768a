//! API semantics of the demo server through a real `kube::Client` (what ktui's informer relies
//! on): paging and continue expiry, watch replay, 410 and timeouts, bookmarks, selectors,
//! Status errors.

use std::time::Duration;

use super::{probe_pod, quiet};
use futures::{StreamExt, TryStreamExt};
use k8s_openapi::api::core::v1::{Event, Pod};
use ktui::sim::cli::{start_in_process, DemoHandle};
use ktui::sim::kinds::id;
use ktui::sim::DemoOptions;
use kube::api::{Api, ListParams, WatchEvent, WatchParams};

async fn client(demo: &DemoHandle) -> kube::Client {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let kc = kube::config::Kubeconfig::read_from(&demo.kubeconfig).unwrap();
    let config = kube::Config::from_custom_kubeconfig(kc, &kube::config::KubeConfigOptions::default())
        .await
        .unwrap();
    kube::Client::try_from(config).unwrap()
}

fn names(pods: &[Pod]) -> Vec<String> {
    pods.iter()
        .map(|p| {
            format!(
                "{}/{}",
                p.metadata.namespace.as_deref().unwrap_or(""),
                p.metadata.name.as_deref().unwrap_or("")
            )
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn paged_lists_are_complete_and_expired_tokens_get_410() {
    let demo = start_in_process(DemoOptions { pods: 60, ..quiet() })
        .await
        .unwrap();
    let pods: Api<Pod> = Api::all(client(&demo).await);
    let whole = pods.list(&ListParams::default()).await.unwrap();
    let mut paged = Vec::new();
    let mut lp = ListParams::default().limit(7);
    let mut rvs = Vec::new();
    loop {
        let page = pods.list(&lp).await.unwrap();
        rvs.push(page.metadata.resource_version.clone().unwrap());
        paged.extend(page.items);
        match page.metadata.continue_ {
            Some(c) if !c.is_empty() => lp = lp.continue_token(&c),
            _ => break,
        }
    }
    assert_eq!(names(&paged), names(&whole.items));
    assert!(
        paged.len() >= 60 && rvs.iter().all(|rv| *rv == rvs[0]),
        "one revision for all pages: {rvs:?}"
    );

    let first = pods.list(&ListParams::default().limit(5)).await.unwrap();
    let token = first.metadata.continue_.clone().unwrap();
    demo.server
        .store
        .create(id::POD, probe_pod("after-first-page"))
        .unwrap();
    demo.server.store.compact(id::POD);
    let err = pods
        .list(&ListParams::default().limit(5).continue_token(&token))
        .await
        .unwrap_err();
    match err {
        kube::Error::Api(s) => assert_eq!((s.code, s.reason.as_str()), (410, "Expired"), "{s:?}"),
        other => panic!("want 410, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watches_resume_replay_and_410_when_too_old() {
    let demo = start_in_process(quiet()).await.unwrap();
    let pods: Api<Pod> = Api::namespaced(client(&demo).await, "shop");
    let list = pods.list(&ListParams::default()).await.unwrap();
    let rv = list.metadata.resource_version.unwrap();
    let store = demo.server.store.clone();
    store.create(id::POD, probe_pod("p1")).unwrap();
    store
        .modify(id::POD, "shop", "p1", |v| v["status"]["phase"] = "Running".into())
        .unwrap();
    store.delete(id::POD, "shop", "p1").unwrap();
    // Replay from the list's revision: exactly the three changes, in order.
    let wp = WatchParams::default().timeout(2);
    let events: Vec<_> = pods
        .watch(&wp, &rv)
        .await
        .unwrap()
        .take(3)
        .try_collect()
        .await
        .unwrap();
    let kinds: Vec<&str> = events
        .iter()
        .map(|e| match e {
            WatchEvent::Added(_) => "ADDED",
            WatchEvent::Modified(_) => "MODIFIED",
            WatchEvent::Deleted(_) => "DELETED",
            _ => "other",
        })
        .collect();
    assert_eq!(kinds, ["ADDED", "MODIFIED", "DELETED"]);
    // timeoutSeconds ends the stream cleanly.
    let started = std::time::Instant::now();
    let rest: Vec<_> = pods
        .watch(&WatchParams::default().timeout(1), &store.revision().to_string())
        .await
        .unwrap()
        .collect()
        .await;
    let ended = started.elapsed();
    eprintln!("timing: a watch with timeoutSeconds=1 ended after {ended:.2?}");
    assert!(rest.is_empty() && ended < Duration::from_secs(30), "{rest:?}");
    // After a compaction the old revision is gone: an ERROR event with 410.
    store.compact(id::POD);
    let first = pods
        .watch(&wp, &rv)
        .await
        .unwrap()
        .boxed()
        .next()
        .await
        .unwrap()
        .unwrap();
    match first {
        WatchEvent::Error(s) => assert_eq!((s.code, s.reason.as_str()), (410, "Expired")),
        other => panic!("want a 410 ERROR event, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bookmarks_come_periodically_when_asked() {
    let demo = start_in_process(DemoOptions {
        bookmark_every: Duration::from_millis(200),
        ..quiet()
    })
    .await
    .unwrap();
    let pods: Api<Pod> = Api::all(client(&demo).await);
    let rv = pods
        .list(&ListParams::default().limit(1))
        .await
        .unwrap()
        .metadata
        .resource_version
        .unwrap();
    let with: Vec<_> = pods
        .watch(
            &WatchParams {
                bookmarks: true,
                ..WatchParams::default().timeout(1)
            },
            &rv,
        )
        .await
        .unwrap()
        .try_collect()
        .await
        .unwrap();
    let marks: Vec<String> = with
        .iter()
        .filter_map(|e| match e {
            WatchEvent::Bookmark(b) => Some(b.metadata.resource_version.clone()),
            _ => None,
        })
        .collect();
    assert!(marks.len() >= 3, "{with:?}");
    assert!(marks
        .iter()
        .all(|m| m.parse::<u64>().unwrap() >= rv.parse::<u64>().unwrap()));
    let without: Vec<_> = pods
        .watch(
            &WatchParams {
                bookmarks: false,
                ..WatchParams::default().timeout(1)
            },
            &rv,
        )
        .await
        .unwrap()
        .try_collect()
        .await
        .unwrap();
    assert!(without.is_empty(), "{without:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn selectors_filter_lists_and_watches() {
    let demo = start_in_process(quiet()).await.unwrap();
    let c = client(&demo).await;
    let pods: Api<Pod> = Api::all(c.clone());
    let on_w1 = pods
        .list(&ListParams::default().fields("spec.nodeName=worker-1"))
        .await
        .unwrap();
    assert!(!on_w1.items.is_empty());
    assert!(on_w1
        .items
        .iter()
        .all(|p| p.spec.as_ref().unwrap().node_name.as_deref() == Some("worker-1")));
    let not_sys = pods
        .list(
            &ListParams::default()
                .fields("metadata.namespace!=kube-system")
                .labels("app in (frontend,cart)"),
        )
        .await
        .unwrap();
    assert_eq!(not_sys.items.len(), 5, "{:?}", names(&not_sys.items));
    let bad = pods
        .list(&ListParams::default().fields("spec.bogus=x"))
        .await
        .unwrap_err();
    assert!(matches!(bad, kube::Error::Api(ref s) if s.code == 400), "{bad:?}");
    let events: Api<Event> = Api::all(c);
    let about = events
        .list(&ListParams::default().fields("involvedObject.kind=Node,involvedObject.name=worker-4"))
        .await
        .unwrap();
    assert_eq!(about.items.len(), 1);
    assert_eq!(about.items[0].reason.as_deref(), Some("NodeNotReady"));
    // A watch with a selector sees an object leaving it as DELETED.
    let rv = pods
        .list(&ListParams::default().limit(1))
        .await
        .unwrap()
        .metadata
        .resource_version
        .unwrap();
    let store = demo.server.store.clone();
    store.create(id::POD, probe_pod("mover")).unwrap();
    store
        .modify(id::POD, "shop", "mover", |v| {
            v["spec"]["nodeName"] = "worker-2".into()
        })
        .unwrap();
    let wp = WatchParams::default().fields("spec.nodeName=worker-1").timeout(1);
    let seen: Vec<_> = pods
        .watch(&wp, &rv)
        .await
        .unwrap()
        .take(2)
        .try_collect()
        .await
        .unwrap();
    assert!(
        matches!(seen[0], WatchEvent::Added(_)) && matches!(seen[1], WatchEvent::Deleted(_)),
        "{seen:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn errors_are_status_objects_and_unknown_paths_404() {
    let demo = start_in_process(quiet()).await.unwrap();
    let c = client(&demo).await;
    let pods: Api<Pod> = Api::namespaced(c.clone(), "shop");
    match pods.get("nope").await.unwrap_err() {
        kube::Error::Api(s) => assert_eq!(
            (s.code, s.reason.as_str(), s.message.as_str()),
            (404, "NotFound", "pods \"nope\" not found")
        ),
        other => panic!("{other:?}"),
    }
    let req = http::Request::get("/apis/nope.example/v1/things")
        .body(Vec::new())
        .unwrap();
    let err = c.request_text(req).await.unwrap_err();
    assert!(matches!(err, kube::Error::Api(ref s) if s.code == 404), "{err:?}");
    let v = c.apiserver_version().await.unwrap();
    assert_eq!(v.git_version, "v1.37.2");
}

fn raw_get(addr: std::net::SocketAddr, path: &str) -> String {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    write!(s, "GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_fault_does_what_it_says() {
    use ktui::sim::faults::FaultSpec;
    let demo = start_in_process(DemoOptions {
        bookmark_every: Duration::from_millis(100),
        ..quiet()
    })
    .await
    .unwrap();
    let faults = demo.server.faults.clone();
    let pods: Api<Pod> = Api::all(client(&demo).await);
    let rv = pods
        .list(&ListParams::default().limit(1))
        .await
        .unwrap()
        .metadata
        .resource_version
        .unwrap();
    let watch_all = |timeout: u32| WatchParams {
        bookmarks: true,
        ..WatchParams::default().timeout(timeout)
    };

    faults.set("error-rate=1:429".parse().unwrap());
    let addr = demo.addr();
    let raw = tokio::task::spawn_blocking(move || raw_get(addr, "/api/v1/pods"))
        .await
        .unwrap()
        .to_ascii_lowercase();
    assert!(
        raw.starts_with("http/1.1 429")
            && raw.contains("retry-after: 1")
            && raw.contains("\"reason\":\"toomanyrequests\""),
        "{raw}"
    );
    assert!(
        raw_get(addr, "/version").starts_with("HTTP/1.1 200"),
        "discovery is spared"
    );

    faults.set("gone=1".parse().unwrap());
    let first = pods
        .watch(&watch_all(5), &rv)
        .await
        .unwrap()
        .boxed()
        .next()
        .await
        .unwrap()
        .unwrap();
    assert!(
        matches!(first, WatchEvent::Error(ref s) if s.code == 410),
        "{first:?}"
    );

    faults.set("no-bookmarks".parse().unwrap());
    let quiet_stream: Vec<_> = pods
        .watch(&watch_all(1), &rv)
        .await
        .unwrap()
        .try_collect()
        .await
        .unwrap();
    assert!(quiet_stream.is_empty(), "{quiet_stream:?}");

    faults.set("drop-watch=200ms".parse().unwrap());
    let started = std::time::Instant::now();
    // The watch asks for 300 s: ending within 30 s can only be the cut.
    let items: Vec<_> = pods.watch(&watch_all(300), &rv).await.unwrap().collect().await;
    let cut = started.elapsed();
    eprintln!("timing: drop-watch=200ms cut the watch after {cut:.2?}");
    assert!(cut < Duration::from_secs(30), "the watch was cut");
    assert!(items.len() <= 3, "{items:?}");
    // kube hides the cut (it reads an unexpected EOF as the end); on the wire the chunked
    // body stops without its final 0-length chunk.
    let path = format!("/api/v1/pods?watch=true&resourceVersion={rv}&timeoutSeconds=30");
    let raw = tokio::task::spawn_blocking(move || raw_get(addr, &path))
        .await
        .unwrap();
    assert!(
        raw.starts_with("HTTP/1.1 200") && !raw.ends_with("0\r\n\r\n"),
        "{raw}"
    );

    faults.set("delay=300ms".parse().unwrap());
    let started = std::time::Instant::now();
    pods.list(&ListParams::default().limit(1)).await.unwrap();
    assert!(started.elapsed() >= Duration::from_millis(300));
    faults.set(FaultSpec::default());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn streaming_lists_end_with_the_initial_events_bookmark() {
    let demo = start_in_process(quiet()).await.unwrap();
    let pods: Api<Pod> = Api::namespaced(client(&demo).await, "shop");
    let want = pods.list(&ListParams::default()).await.unwrap().items.len();
    let wp = WatchParams {
        timeout: Some(2),
        ..WatchParams::streaming_lists()
    };
    let events: Vec<_> = pods.watch(&wp, "").await.unwrap().try_collect().await.unwrap();
    let added = events
        .iter()
        .take_while(|e| matches!(e, WatchEvent::Added(_)))
        .count();
    assert_eq!(added, want);
    match &events[added] {
        WatchEvent::Bookmark(b) => {
            assert_eq!(
                b.metadata
                    .annotations
                    .get("k8s.io/initial-events-end")
                    .map(String::as_str),
                Some("true")
            )
        }
        other => panic!("want the initial-events-end bookmark, got {other:?}"),
    }
}

/// A dropped connection does not wait for the watch's replay to finish: a watch still
/// sending its backlog (here the initial ADDED events of 3,000 pods to a client that reads
/// nothing yet) is cut by `drop-watch` like a live one. Before, the injector's drops were
/// only looked at after the replay, so a client behind on a big replay was never cut (and
/// the convergence suite's page retries, whose watches start further back, saw few drops).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_watch_replaying_its_backlog_is_cut_by_a_drop() {
    let demo = start_in_process(DemoOptions {
        pods: 3000,
        ..quiet()
    })
    .await
    .unwrap();
    let pods = demo.server.store.len(id::POD);
    demo.server.faults.set("drop-watch=100ms".parse().unwrap());
    let addr = demo.addr();
    let raw = tokio::task::spawn_blocking(move || {
        use std::io::{Read, Write};
        let mut s = std::net::TcpStream::connect(addr).unwrap();
        write!(
            s,
            "GET /api/v1/pods?watch=true&timeoutSeconds=3 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        // Read nothing while drops happen: the server is stuck sending the replay.
        std::thread::sleep(Duration::from_millis(1500));
        let mut out = Vec::new();
        let _ = s.read_to_end(&mut out);
        String::from_utf8_lossy(&out).into_owned()
    })
    .await
    .unwrap();
    let added = raw.matches("\"type\":\"ADDED\"").count();
    assert!(raw.starts_with("HTTP/1.1 200"), "{}", &raw[..raw.len().min(300)]);
    assert!(
        added < pods && !raw.ends_with("0\r\n\r\n"),
        "cut mid-replay: {added} of {pods} ADDED sent, clean end {}",
        raw.ends_with("0\r\n\r\n")
    );
}
