//! Kubernetes' protobuf encoding as the informer reads it (`ktui::kube::protobuf`): list
//! bodies decoded into the slim row types of a few built-in kinds, watch frames and their
//! objects, and error `Status` bodies. The server and any proxy in between are untrusted.
//!
//! Input: byte 0 picks what the rest is read as — `b % 6`: a list of pods, nodes, events or
//! deployments, a watch frame (and its object as a pod), a `Status` body.
//!
//! Properties: nothing panics (no overflow, no slice out of range, no unbounded allocation);
//! decoding is deterministic; a decoded list never holds more items (decoded or skipped)
//! than its bytes could carry. (What is drawn of names and messages is cleaned where the
//! informer turns them into its header line: `informer::page`, `failure::one_line`.)
#![no_main]

use ktui::kube::protobuf;
use ktui::table::{DeploymentObj, EventObj, NodeObj, PodObj};
use libfuzzer_sys::fuzz_target;
use serde::de::DeserializeOwned;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    match pick % 6 {
        0 => list::<PodObj>(rest, "pod"),
        1 => list::<NodeObj>(rest, "node"),
        2 => list::<EventObj>(rest, "event"),
        3 => list::<DeploymentObj>(rest, "deployment"),
        4 => frame(rest),
        _ => {
            assert_eq!(protobuf::status(rest), protobuf::status(rest), "status is deterministic");
        }
    }
});

fn list<T: DeserializeOwned>(body: &[u8], kind: &str) {
    let first = protobuf::list::<T>(body, kind);
    let again = protobuf::list::<T>(body, kind);
    assert_eq!(first.is_ok(), again.is_ok(), "list decoding is deterministic");
    if let Ok(list) = first {
        // Each item takes at least a tag and a length byte.
        assert!(list.items.len() + list.skipped.len() <= body.len() / 2 + 1);
        assert_eq!(again.map(|l| l.skipped), Ok(list.skipped), "the same items skipped");
    }
}

fn frame(bytes: &[u8]) {
    let Ok(f) = protobuf::watch_frame(bytes) else {
        return;
    };
    assert!(protobuf::watch_frame(bytes).is_ok(), "frames decode deterministically");
    let pod = protobuf::object::<PodObj>(&f.object);
    assert_eq!(pod.is_ok(), protobuf::object::<PodObj>(&f.object).is_ok());
    assert_eq!(
        protobuf::object_name(&f.object, "pod"),
        protobuf::object_name(&f.object, "pod"),
        "names are deterministic"
    );
}
