//! History's text paths (`ktui::kube::history::{tape, rawdiff, raw}`): the one-pass index of
//! an object's JSON text, the reverse patch computed text against text, and the normalized
//! body a revision stores.
//!
//! Input: two JSON texts separated by a NUL byte (the newer revision, then the older), read
//! as UTF-8 (lossily).
//!
//! Properties: the tape indexes every text `serde_json` accepts, and its root spans it; the
//! text diff gives exactly the operations of the decoded diff (`patch::reverse`), and they
//! turn the newer value back into the older; for objects, the normalized body is valid JSON,
//! equal to the decoded object minus what a revision leaves out (for a Secret: all but its
//! metadata), and diffing it against itself gives nothing. Texts that are not JSON must not
//! panic anywhere.
#![no_main]

use ktui::kube::history::patch;
use ktui::kube::history::raw::Object;
use ktui::kube::history::rawdiff;
use ktui::kube::history::tape::Tape;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (new, old) = text.split_once('\0').unwrap_or((&text, "{}"));
    let parsed = (serde_json::from_str::<Value>(new), serde_json::from_str::<Value>(old));
    let tapes = (Tape::parse(new), Tape::parse(old));
    let ops = rawdiff::reverse(new, old);
    let (Ok(nv), Ok(ov)) = parsed else { return };
    for (t, s) in [(&tapes.0, new), (&tapes.1, old)] {
        let t = t.as_ref().unwrap_or_else(|| panic!("the tape refused JSON {s:?}"));
        assert_eq!(t.root().text(), s.trim_matches([' ', '\t', '\n', '\r']));
    }
    assert_eq!(ops, patch::reverse(&nv, &ov), "{new:?} -> {old:?}");
    let mut back = nv.clone();
    patch::apply(&mut back, &ops);
    assert_eq!(back, ov, "{new:?} -> {old:?}");
    let Ok(raw) = serde_json::from_str::<Box<serde_json::value::RawValue>>(new) else { return };
    if let Some(o) = Object::read(raw.get()) {
        let body = o.normalized("configmaps");
        let bv: Value = serde_json::from_str(&body).unwrap_or_else(|e| panic!("{body:?}: {e}"));
        let mut want = nv.clone();
        if let Some(m) = want.as_object_mut() {
            m.remove("apiVersion");
            m.remove("kind");
            if let Some(meta) = m.get_mut("metadata").and_then(Value::as_object_mut) {
                meta.remove("resourceVersion");
                meta.remove("managedFields");
                if let Some(a) = meta.get_mut("annotations").and_then(Value::as_object_mut) {
                    a.remove("kubectl.kubernetes.io/last-applied-configuration");
                    if a.is_empty() {
                        meta.remove("annotations");
                    }
                }
            }
        }
        assert_eq!(bv, want, "{new:?}");
        assert!(rawdiff::reverse(&body, &body).is_empty());
        // A Secret's body is its (normalized) metadata alone: never `data`, `stringData`,
        // `type` or anything else.
        let secret = o.normalized("secrets");
        let sv: Value = serde_json::from_str(&secret).unwrap_or_else(|e| panic!("{secret:?}: {e}"));
        let mut want_secret = serde_json::Map::new();
        if let Some(meta) = want.get("metadata").filter(|m| m.is_object()) {
            want_secret.insert("metadata".into(), meta.clone());
        }
        assert_eq!(sv, Value::Object(want_secret), "{new:?}");
    }
});
