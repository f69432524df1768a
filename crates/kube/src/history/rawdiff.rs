//! The reverse patch of [`super::patch::reverse`] computed over two revisions' JSON texts
//! instead of their decoded values: members whose raw text is equal are skipped with one
//! comparison and nothing is allocated for them; only the members that differ are read
//! further, one level at a time, and only the old values a patch must restore are decoded.
//! Both texts are indexed once ([`super::tape`]), so each is scanned once however deep the
//! changes go. Owns that walk; must not change what a patch means (its oracle is
//! `patch::reverse`).

use std::borrow::Cow;

use super::patch::{Op, Step};
use super::raw::value;
use super::tape::{Tape, Val};

/// The operations that turn `new` into `old` (both JSON texts), exactly those
/// `patch::reverse` gives for their decoded values, in its order; empty when they are equal.
/// A text the tape cannot index is compared whole.
pub fn reverse(new: &str, old: &str) -> Vec<Op> {
    match (Tape::parse(new), Tape::parse(old)) {
        (Some(n), Some(o)) => reverse_values(n.root(), o.root()),
        _ => {
            let old = value(old);
            if value(new) == old {
                Vec::new()
            } else {
                vec![Op::Set(Vec::new(), old)]
            }
        }
    }
}

/// [`reverse`] of two indexed values.
pub fn reverse_values(new: Val<'_, '_>, old: Val<'_, '_>) -> Vec<Op> {
    let mut ops = Vec::new();
    walk(new, old, &mut Vec::new(), &mut ops);
    ops
}

fn walk(new: Val<'_, '_>, old: Val<'_, '_>, path: &mut Vec<Step>, ops: &mut Vec<Op>) {
    if new.text() == old.text() {
        return;
    }
    if new.is_object() && old.is_object() {
        if walk_same_keys(new, old, path, ops) {
            return;
        }
        let (n, o) = (sorted(new), sorted(old));
        for (k, nv) in &n {
            let found = o.binary_search_by(|(ok, _)| (**ok).cmp(&**k));
            if let Ok(i) = found {
                if o[i].1.text() == nv.text() {
                    // Equal members cost one comparison: no path step is built for them.
                    continue;
                }
            }
            path.push(Step::Key(k.to_string()));
            match found {
                Ok(i) => walk(*nv, o[i].1, path, ops),
                Err(_) => ops.push(Op::Remove(path.clone())),
            }
            path.pop();
        }
        for (k, ov) in &o {
            if n.binary_search_by(|(nk, _)| (**nk).cmp(&**k)).is_err() {
                path.push(Step::Key(k.to_string()));
                ops.push(Op::Set(path.clone(), value(ov.text())));
                path.pop();
            }
        }
        return;
    }
    if new.is_array() && old.is_array() && new.len() == old.len() {
        for (i, (nv, ov)) in new.children().zip(old.children()).enumerate() {
            if nv.text() == ov.text() {
                continue;
            }
            path.push(Step::Index(i));
            walk(nv, ov, path, ops);
            path.pop();
        }
        return;
    }
    let old = value(old.text());
    if value(new.text()) != old {
        ops.push(Op::Set(path.clone(), old));
    }
}

/// The common case of [`walk`] over two objects, without sorting their members: both have
/// the same keys in the same order (one writer emitted both), none escaped, and no key that
/// differs in value is duplicated. Then no member is on one side only (nothing to add or
/// remove), and walking the differing members in key order gives `walk`'s ops. Returns `false`, having done
/// nothing, when the case does not hold.
fn walk_same_keys(new: Val<'_, '_>, old: Val<'_, '_>, path: &mut Vec<Step>, ops: &mut Vec<Op>) -> bool {
    if new.len() != old.len() {
        return false;
    }
    let mut differ = Vec::new();
    for (n, o) in new.children().zip(old.children()) {
        let (nk, o_k) = (n.key_text(), o.key_text());
        if nk.1 || o_k.1 || nk.0 != o_k.0 {
            return false;
        }
        if n.text() != o.text() {
            differ.push((nk.0, n, o));
        }
    }
    for (k, _, _) in &differ {
        if new.children().filter(|c| c.key_text().0 == *k).nth(1).is_some() {
            return false;
        }
    }
    differ.sort_by(|a, b| a.0.cmp(b.0));
    for (k, n, o) in differ {
        path.push(Step::Key(k.to_owned()));
        walk(n, o, path, ops);
        path.pop();
    }
    true
}

/// An object's members by key, as a decoded map holds them: sorted, the last of duplicate
/// keys kept.
fn sorted<'t, 'a>(obj: Val<'t, 'a>) -> Vec<(Cow<'a, str>, Val<'t, 'a>)> {
    let mut m: Vec<_> = obj.children().map(|c| (c.key(), c)).collect();
    m.reverse();
    m.sort_by(|a, b| a.0.cmp(&b.0));
    m.dedup_by(|later, first| later.0 == first.0);
    m
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};

    use super::super::patch;
    use super::*;

    /// The oracle: the same ops as the decoded walk, and they turn `new` back into `old`.
    fn check(new: &str, old: &str) {
        let (nv, ov): (Value, Value) = (
            serde_json::from_str(new).unwrap(),
            serde_json::from_str(old).unwrap(),
        );
        let ops = reverse(new, old);
        assert_eq!(ops, patch::reverse(&nv, &ov), "{new} → {old}");
        let mut back = nv.clone();
        patch::apply(&mut back, &ops);
        assert_eq!(back, ov, "{new} → {old}");
    }

    #[test]
    fn agrees_with_the_decoded_walk() {
        let base = json!({"metadata": {"name": "web", "labels": {"app": "web"}},
            "spec": {"replicas": 3, "template": {"spec": {"containers": [
                {"name": "web", "image": "web:1.4", "ports": [{"containerPort": 80}]},
                {"name": "side", "image": "side:1"}]}}}});
        let b = base.to_string();
        check(&b, &b);
        let mut changed = base.clone();
        changed["spec"]["replicas"] = json!(5);
        changed["metadata"]["labels"]["tier"] = json!("db");
        changed["spec"]["template"]["spec"]["containers"][0]["image"] = json!("web:1.5");
        check(&changed.to_string(), &b);
        check(&b, &changed.to_string());
        let mut longer = base.clone();
        longer["spec"]["template"]["spec"]["containers"][1]["ports"] = json!([]);
        longer["spec"]["template"]["spec"]["containers"]
            .as_array_mut()
            .unwrap()
            .push(json!({"name": "x"}));
        check(&longer.to_string(), &b);
        // Types that change, escapes and spacing that differ only in text, duplicate keys.
        check(r#"{"a":{"b":1}}"#, r#"{"a":[1]}"#);
        check(r#"{"a":"\u0041","n":1.5}"#, r#"{"a":"A","n":1.5}"#);
        check(r#"{ "a" : [1, 2] }"#, r#"{"a":[1,2]}"#);
        check(r#"{"a":1,"a":2}"#, r#"{"a":1}"#);
        check(r#"{"a":1,"a":2}"#, r#"{"a":3,"a":2}"#);
        check(r#"{"b":1,"a":{"x":1,"y":2}}"#, r#"{"b":2,"a":{"x":1,"y":3}}"#);
        check(r#"{"a":1,"b":2}"#, r#"{"b":2,"a":1}"#);
        check(r#"{"b\"k":1}"#, r#"{"b\"k":2,"c":null}"#);
        check("1", "[1]");
    }

    /// Random pairs of related documents: the oracle holds for each.
    #[test]
    fn agrees_with_the_decoded_walk_on_random_documents() {
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        fn doc(next: &mut dyn FnMut(u64) -> u64, depth: u32) -> Value {
            match if depth == 0 { next(4) } else { next(6) } {
                0 => json!(next(3)),
                1 => json!(["a", "b", "é\"", ""][next(4) as usize]),
                2 => Value::Null,
                3 => json!(next(2) == 0),
                4 => Value::Array((0..next(4)).map(|_| doc(next, depth - 1)).collect()),
                _ => Value::Object(
                    (0..next(5))
                        .map(|_| {
                            (
                                ["a", "b", "c", "d\u{1b}"][next(4) as usize].to_owned(),
                                doc(next, depth - 1),
                            )
                        })
                        .collect(),
                ),
            }
        }
        fn mutate(v: &Value, next: &mut dyn FnMut(u64) -> u64, depth: u32) -> Value {
            let d = depth.saturating_sub(1);
            match v {
                Value::Object(m) if next(5) != 0 => {
                    let mut out = serde_json::Map::new();
                    for (k, x) in m {
                        if next(8) != 0 {
                            out.insert(k.clone(), mutate(x, next, d));
                        }
                    }
                    if next(4) == 0 {
                        out.insert("e".to_owned(), doc(next, d));
                    }
                    Value::Object(out)
                }
                Value::Array(a) if next(5) != 0 => {
                    let mut out: Vec<Value> = a.iter().map(|x| mutate(x, next, d)).collect();
                    if next(4) == 0 {
                        out.push(json!(1));
                    }
                    Value::Array(out)
                }
                _ if next(3) == 0 => doc(next, depth.min(1)),
                other => other.clone(),
            }
        }
        for _ in 0..3000 {
            let a = doc(&mut next, 4);
            let b = mutate(&a, &mut next, 4);
            check(&a.to_string(), &b.to_string());
            check(&serde_json::to_string_pretty(&b).unwrap(), &a.to_string());
        }
    }
}
