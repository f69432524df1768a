//! The app layer's rules (design.md, "The house, next") as tests, beside the layer table's
//! rows in `architecture.rs` (which keep `src/app` from the UI, the runtime, the CLI and the
//! terminal crates): `src/ui` reads only the app's state
//! (models, `state`, `feed`, `scroll`), never its transitions; and no import cycle spans two
//! feature folders of `src/app` (`src/app/<feature>/`), each of whose `model.rs` is a leaf
//! (no `UiState`, no other feature's transitions). Reads the source as text, as
//! `architecture.rs` does (comments and literals skipped); inline `#[cfg(test)] mod tests`
//! blocks and `tests.rs`/`tests/` files are left out: tests may drive the dispatcher.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use super::architecture::rust_files;
use super::architecture::scan::code_only;

/// App modules `src/ui` may read: the state and its models, never a transition. Pure readers
/// of the state that are not models are listed by name.
/// (`usage::compute`, `usage::containers`: the usage figures of a row or a container, pure
/// functions the drawing and the usage sort share.)
const UI_MAY_READ: &[&str] = &[
    "state",
    "feed",
    "scroll",
    "effect",
    "help::HelpContent",
    "usage::compute",
    "usage::containers",
];

#[test]
fn ui_reads_app_state_and_models_only() {
    let app = AppGraph::read();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = vec![src.join("ui.rs")];
    rust_files(&src.join("ui"), &mut files);
    let mut found = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for path in paths_in(&strip_tests(&code_only(&text))) {
            if path.first().map(String::as_str) != Some("crate")
                || path.get(1).map(String::as_str) != Some("app")
            {
                continue;
            }
            let Some(module) = app.resolve(&path) else {
                continue;
            };
            let item = path[..(module.len() + 1).min(path.len())].join("::");
            let named = |allowed: &&str| {
                let allowed = format!("crate::app::{allowed}");
                module.join("::") == allowed || item == allowed
            };
            if module.last().map(String::as_str) == Some("model") || UI_MAY_READ.iter().any(named) {
                continue;
            }
            found.push(format!("{}: {}", file.display(), path.join("::")));
        }
    }
    assert!(
        found.is_empty(),
        "src/ui must only read the app's state and models:\n{}",
        found.join("\n")
    );
}

#[test]
fn no_import_cycle_spans_two_app_features_and_models_are_leaves() {
    let app = AppGraph::read();
    let mut problems = Vec::new();
    for scc in app.cycles() {
        let features: BTreeSet<&str> = scc.iter().filter_map(|m| app.feature(m)).collect();
        if features.len() > 1 {
            let names: Vec<String> = scc.iter().map(|m| m[2..].join("::")).collect();
            problems.push(format!("cycle across {features:?}: {}", names.join(", ")));
        }
    }
    for (module, deps) in &app.edges {
        if module.last().map(String::as_str) != Some("model") {
            continue;
        }
        for dep in deps {
            let state = dep.len() == 3 && dep[2] == "state";
            let foreign = app.feature(dep).is_some_and(|f| Some(f) != app.feature(module))
                && dep.last().map(String::as_str) != Some("model");
            if state || foreign {
                problems.push(format!(
                    "{} is not a leaf: it imports {}",
                    module.join("::"),
                    dep.join("::")
                ));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "src/app's feature folders must not import each other in a cycle:\n{}",
        problems.join("\n")
    );
}

/// The scanner: `use` trees, `super::`/`self::` paths and inline paths resolve to modules.
#[test]
fn the_graph_reader_resolves_use_trees_and_relative_paths() {
    let src =
        "use crate::app::{a::b::{C, d}, e};\nuse super::x::Y;\nfn f() { self::z::w(); crate::app::q::r(); }";
    let got: Vec<String> = paths_in(&code_only(src)).iter().map(|p| p.join("::")).collect();
    for want in [
        "crate::app::a::b::C",
        "crate::app::a::b::d",
        "crate::app::e",
        "super::x::Y",
        "self::z::w",
        "crate::app::q::r",
    ] {
        assert!(got.contains(&want.to_owned()), "{want} not in {got:?}");
    }
    let g = AppGraph {
        edges: BTreeMap::from([
            (m("list"), BTreeSet::from([m("logs::update")])),
            (m("logs::update"), BTreeSet::from([m("list")])),
            (m("logs::model"), BTreeSet::new()),
        ]),
        folders: BTreeSet::from(["list".to_owned(), "logs".to_owned()]),
    };
    assert_eq!(g.cycles().len(), 1);
    assert_eq!(g.resolve(&m("logs::model::LogsState")), Some(m("logs::model")));
}

fn m(path: &str) -> Vec<String> {
    format!("crate::app::{path}")
        .split("::")
        .map(str::to_owned)
        .collect()
}

/// Module → the app modules it imports (tests left out), and the feature folders.
struct AppGraph {
    edges: BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
    folders: BTreeSet<String>,
}

impl AppGraph {
    fn read() -> AppGraph {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files: Vec<PathBuf> = vec![src.join("app.rs")];
        rust_files(&src.join("app"), &mut files);
        let folders = std::fs::read_dir(src.join("app"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.is_dir() && p.with_extension("rs").is_file())
            .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
            // The dispatcher's own folder holds only its tests; `state` its parts.
            .filter(|n| n != "update" && n != "state")
            .collect();
        let mut texts = BTreeMap::new();
        for file in files {
            let rel = file.strip_prefix(&src).unwrap().with_extension("");
            let parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
            if parts.iter().any(|p| p == "tests" || p.ends_with("_tests")) {
                continue;
            }
            let mut module = vec!["crate".to_owned()];
            module.extend(parts);
            texts.insert(module, std::fs::read_to_string(&file).unwrap());
        }
        let mut g = AppGraph {
            edges: texts.keys().map(|k| (k.clone(), BTreeSet::new())).collect(),
            folders,
        };
        for (module, text) in &texts {
            for path in paths_in(&strip_tests(&code_only(text))) {
                let absolute = match path[0].as_str() {
                    "crate" => path.clone(),
                    "self" => module.iter().chain(&path[1..]).cloned().collect(),
                    "super" => {
                        let ups = path.iter().take_while(|p| *p == "super").count();
                        let base = &module[..module.len().saturating_sub(ups)];
                        base.iter().chain(&path[ups..]).cloned().collect()
                    }
                    _ => continue,
                };
                if let Some(dep) = g.resolve(&absolute).filter(|d| d != module) {
                    g.edges.get_mut(module).unwrap().insert(dep);
                }
            }
        }
        g
    }

    /// The longest module of the graph that `path` starts with.
    fn resolve(&self, path: &[String]) -> Option<Vec<String>> {
        (3..=path.len())
            .rev()
            .map(|n| path[..n].to_vec())
            .find(|p| self.edges.contains_key(p))
    }

    /// The feature folder of `module` (`None` for the shared top level).
    fn feature<'a>(&self, module: &'a [String]) -> Option<&'a str> {
        module
            .get(2)
            .map(String::as_str)
            .filter(|f| self.folders.contains(*f))
    }

    /// Strongly connected components of more than one module (Tarjan).
    fn cycles(&self) -> Vec<Vec<Vec<String>>> {
        struct T<'g> {
            g: &'g AppGraph,
            index: BTreeMap<&'g Vec<String>, (usize, usize)>,
            stack: Vec<&'g Vec<String>>,
            on: BTreeSet<&'g Vec<String>>,
            out: Vec<Vec<Vec<String>>>,
        }
        fn visit<'g>(t: &mut T<'g>, v: &'g Vec<String>) {
            let i = t.index.len();
            t.index.insert(v, (i, i));
            t.stack.push(v);
            t.on.insert(v);
            for w in &t.g.edges[v] {
                if !t.index.contains_key(w) {
                    visit(t, w);
                    let low = t.index[w].1.min(t.index[v].1);
                    t.index.get_mut(v).unwrap().1 = low;
                } else if t.on.contains(w) {
                    let low = t.index[w].0.min(t.index[v].1);
                    t.index.get_mut(v).unwrap().1 = low;
                }
            }
            if t.index[v].0 == t.index[v].1 {
                let mut scc = Vec::new();
                while let Some(w) = t.stack.pop() {
                    t.on.remove(w);
                    scc.push(w.clone());
                    if w == v {
                        break;
                    }
                }
                if scc.len() > 1 {
                    t.out.push(scc);
                }
            }
        }
        let mut t = T {
            g: self,
            index: BTreeMap::new(),
            stack: Vec::new(),
            on: BTreeSet::new(),
            out: Vec::new(),
        };
        for v in self.edges.keys() {
            if !t.index.contains_key(v) {
                visit(&mut t, v);
            }
        }
        t.out
    }
}

/// `src` without its inline `#[cfg(test)] mod tests { … }` block (the last item by custom).
fn strip_tests(src: &str) -> String {
    match src.find("#[cfg(test)]\nmod tests {") {
        Some(at) => src[..at].to_owned(),
        None => src.to_owned(),
    }
}

fn is_ident(c: char) -> bool {
    c == '_' || c.is_alphanumeric()
}

/// Every path of `code` that starts at `crate`, `super` or `self`: each leaf of a `use` tree
/// (`use a::{b, c::d}` gives `a::b` and `a::c::d`) and each inline path (`crate::x::f()`).
fn paths_in(code: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("use ") {
        let before_ok = !rest[..at].chars().next_back().is_some_and(is_ident);
        let after = &rest[at + 4..];
        let end = after.find(';').unwrap_or(after.len());
        if before_ok {
            // `X as Y` keeps X (marked `@`), then whitespace goes.
            let spaced = after[..end].split_whitespace().collect::<Vec<_>>().join(" ");
            let tree: String = spaced
                .replace(" as ", "@")
                .chars()
                .filter(|c| !c.is_whitespace())
                .collect();
            expand(&[], &tree, &mut out);
        }
        rest = &after[end.min(after.len())..];
    }
    let chars: Vec<(usize, char)> = code.char_indices().collect();
    for (i, &(at, _)) in chars.iter().enumerate() {
        let starts = ["crate::", "super::", "self::"]
            .iter()
            .any(|s| code[at..].starts_with(s));
        let prev = i.checked_sub(1).map(|j| chars[j].1);
        if !starts || prev.is_some_and(|c| is_ident(c) || c == ':') {
            continue;
        }
        let mut path = Vec::new();
        for seg in code[at..].split("::") {
            let ident: String = seg.chars().take_while(|c| is_ident(*c)).collect();
            let whole = ident.len() == seg.len();
            if !ident.is_empty() {
                path.push(ident);
            }
            // A segment that ends early (`f(`, `{`, `;`) ends the path.
            if !whole || path.is_empty() {
                break;
            }
        }
        out.push(path);
    }
    out
}

/// The leaves of one `use` tree (whitespace removed, `as` marked `@`), each prefixed by
/// `prefix`.
fn expand(prefix: &[String], tree: &str, out: &mut Vec<Vec<String>>) {
    let mut depth = 0;
    let mut start = 0;
    let mut items = Vec::new();
    for (i, c) in tree.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&tree[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    items.push(&tree[start..]);
    for item in items.into_iter().filter(|i| !i.is_empty()) {
        match item.find('{') {
            Some(open) => {
                let mut p = prefix.to_vec();
                p.extend(
                    item[..open]
                        .split("::")
                        .filter(|s| !s.is_empty())
                        .map(str::to_owned),
                );
                let inner = item[open + 1..].strip_suffix('}').unwrap_or(&item[open + 1..]);
                expand(&p, inner, out);
            }
            None => {
                let item = item.split('@').next().unwrap_or(item);
                let mut p = prefix.to_vec();
                p.extend(
                    item.split("::")
                        .filter(|s| !s.is_empty() && *s != "*")
                        .map(str::to_owned),
                );
                if p.first()
                    .is_some_and(|s| s == "crate" || s == "super" || s == "self")
                {
                    out.push(p);
                }
            }
        }
    }
}
