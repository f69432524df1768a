//! A plugin's variables — `$NAME`, `$NAMESPACE`, `$CONTEXT`, `$CLUSTER`, `$USER`,
//! `$KUBECONFIG`, `$FILTER`, `$POD`, `$CONTAINER`, `$RESOURCE_NAME`, `$RESOURCE_GROUP`,
//! `$RESOURCE_VERSION`, `$COL-<HEADER>` — taken from the selected row, and their expansion in
//! one argument. Expansion is textual and per argument: a value never splits into several
//! argv items and never passes through a shell unless the plugin runs one itself. Owns the
//! variables; must not run anything.

use crate::kube::row::UnixSecs;

use crate::app::state::{Screen, UiState};

/// The variables of one selection: `(NAME, value)` pairs, `COL-` ones with the header as the
/// list shows it (`COL-STATUS`, `COL-PORT(S)`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Vars(pub Vec<(String, String)>);

impl Vars {
    /// The value of variable `name` (`COL-` headers match case-insensitively, with `_` or
    /// `-` standing for a space).
    pub fn get(&self, name: &str) -> Option<&str> {
        if let Some(col) = name.strip_prefix("COL-") {
            let want = norm(col);
            return self
                .0
                .iter()
                .find(|(k, _)| k.strip_prefix("COL-").is_some_and(|h| norm(h) == want))
                .map(|(_, v)| v.as_str());
        }
        self.0.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }

    /// The environment a plugin gets: every variable but the `COL-` ones (not valid names),
    /// `USER` and `GROUPS` (which would replace the login's), and empty ones.
    pub fn env(&self) -> Vec<(String, String)> {
        self.0
            .iter()
            .filter(|(k, v)| !k.starts_with("COL-") && k != "USER" && k != "GROUPS" && !v.is_empty())
            .cloned()
            .collect()
    }

    fn set(&mut self, k: &str, v: impl Into<String>) {
        self.0.push((k.to_owned(), v.into()));
    }
}

fn norm(header: &str) -> String {
    header.to_ascii_uppercase().replace(['_', '-'], " ")
}

/// The context the selected row belongs to: inside a union its own cluster's, else the one
/// in use (empty before the kubeconfig is read).
pub fn row_context(state: &UiState) -> String {
    let origin = state
        .top_list()
        .and_then(|l| l.cache.selected_row(l.selected))
        .map_or(0, |r| r.origin);
    crate::app::fleet::open::context_of_row(state, origin)
        .or_else(|| state.conn.context.clone())
        .unwrap_or_default()
}

/// The variables of the selected row of the view on top (a list row, or a container of the
/// containers view); `None` when nothing is selected. `now` formats ages in `COL-AGE`.
pub fn of_selection(state: &UiState, now: UnixSecs) -> Option<Vars> {
    let mut v = Vars::default();
    let context = row_context(state);
    let details = state
        .conn
        .contexts
        .iter()
        .position(|c| *c == context)
        .and_then(|i| state.conn.context_details.get(i));
    v.set("CONTEXT", context.clone());
    v.set("CLUSTER", details.map(|d| d[0].clone()).unwrap_or_default());
    v.set("USER", details.map(|d| d[1].clone()).unwrap_or_default());
    v.set("GROUPS", "");
    v.set(
        "KUBECONFIG",
        state.settings.plugins.kubeconfig.clone().unwrap_or_default(),
    );
    match state.top() {
        Screen::List(l) => {
            let row = l.cache.selected_row(l.selected)?;
            let kind = l.kind();
            let ns = row
                .namespace
                .as_deref()
                .map(str::to_owned)
                .or_else(|| l.key.namespace.as_deref().map(str::to_owned))
                .unwrap_or_default();
            v.set("NAMESPACE", ns.clone());
            v.set("NAME", &*row.name);
            v.set("FILTER", l.filter.clone());
            v.set("RESOURCE_NAME", kind.plural());
            v.set("RESOURCE_GROUP", kind.group());
            v.set("RESOURCE_VERSION", kind.version());
            v.set("COL-NAMESPACE", ns);
            v.set("COL-NAME", &*row.name);
            let spec = crate::table::spec(kind);
            for (col, cell) in spec.columns.iter().zip(row.cells.iter()) {
                let text = crate::table::format::format_cell(cell, now);
                v.set(&format!("COL-{}", col.header), text.into_owned());
            }
        }
        Screen::Containers(c) => {
            let pod = c.pod().0?;
            let container = pod.containers.get(c.selected)?;
            v.set("NAMESPACE", c.key.namespace.as_deref().unwrap_or_default());
            v.set("POD", c.name.clone());
            v.set("NAME", container.name.to_string());
            v.set("CONTAINER", container.name.to_string());
            v.set("RESOURCE_NAME", "containers");
            v.set("RESOURCE_GROUP", "");
            v.set("RESOURCE_VERSION", "v1");
        }
        _ => return None,
    }
    Some(v)
}

/// `arg` with each `$VAR`, `${VAR}` and `$COL-HEADER` (`${COL-PORT(S)}` for a header with
/// other characters) replaced by its value; `$$` is one `$`. A name that is not a variable
/// stays as written (a shell the plugin runs may expand it).
pub fn expand(arg: &str, vars: &Vars) -> String {
    expand_with(arg, vars, |v| v.into())
}

/// [`expand`] for a shell's script (the argument after `sh -c`): a value the shell would
/// read as more than one plain word (`a b`, `x; rm -rf ~`, `$(id)`) goes in single-quoted,
/// so text from the cluster stays data; plain values (names, namespaces, `Running`) go in
/// as they are, as they do in k9s.
pub fn expand_for_shell(arg: &str, vars: &Vars) -> String {
    expand_with(arg, vars, shell_words::quote)
}

fn expand_with<'v>(arg: &str, vars: &'v Vars, put: impl Fn(&'v str) -> std::borrow::Cow<'v, str>) -> String {
    let mut out = String::with_capacity(arg.len());
    let mut rest = arg;
    while let Some(i) = rest.find('$') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        if let Some(r) = after.strip_prefix('$') {
            out.push('$');
            rest = r;
            continue;
        }
        let (name, len) = if let Some(inner) = after.strip_prefix('{') {
            match inner.find('}') {
                Some(end) => (&inner[..end], end + 2),
                None => ("", 0),
            }
        } else {
            let word = |s: &str, col: bool| {
                s.find(|c: char| {
                    !(c.is_ascii_alphanumeric() || c == '_' || (col && matches!(c, '-' | '%' | '/')))
                })
                .unwrap_or(s.len())
            };
            let n = word(after, false);
            if &after[..n] == "COL" && after[n..].starts_with('-') {
                let m = word(&after[n + 1..], true);
                (&after[..n + 1 + m], n + 1 + m)
            } else {
                (&after[..n], n)
            }
        };
        match vars.get(name).filter(|_| !name.is_empty()) {
            Some(value) => {
                out.push_str(&put(value));
                rest = &after[len..];
            }
            None => {
                out.push('$');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars() -> Vars {
        Vars(
            [
                ("NAME", "web-1"),
                ("NAMESPACE", "shop"),
                ("CONTEXT", "prod"),
                ("COL-STATUS", "Running"),
                ("COL-PORT(S)", "80/TCP"),
                ("COL-NOMINATED NODE", "<none>"),
                ("USER", "admin"),
            ]
            .map(|(k, v)| (k.to_owned(), v.to_owned()))
            .to_vec(),
        )
    }

    #[test]
    fn variables_expand_in_place_and_unknown_ones_stay() {
        let v = vars();
        assert_eq!(expand("$NAMESPACE/$NAME", &v), "shop/web-1");
        assert_eq!(expand("${NAME}x $CONTEXT.", &v), "web-1x prod.");
        assert_eq!(expand("$COL-STATUS", &v), "Running");
        assert_eq!(expand("$COL-status!", &v), "Running!");
        assert_eq!(expand("${COL-PORT(S)} $COL-NOMINATED_NODE", &v), "80/TCP <none>");
        assert_eq!(expand("$HOME $ $$NAME ${NAME", &v), "$HOME $ $NAME ${NAME");
        assert_eq!(expand("$COL-NOPE", &v), "$COL-NOPE");
        assert_eq!(expand("a $NAME; rm -rf /", &v), "a web-1; rm -rf /");
    }

    #[test]
    fn a_shell_script_gets_cluster_text_quoted_and_plain_words_as_they_are() {
        let mut v = vars();
        v.0.push(("COL-MESSAGE".into(), "x; touch /tmp/pwned $(id)".into()));
        assert_eq!(
            expand_for_shell("kubectl logs $NAME -n $NAMESPACE; echo $COL-MESSAGE", &v),
            "kubectl logs web-1 -n shop; echo 'x; touch /tmp/pwned $(id)'"
        );
        assert_eq!(expand_for_shell("echo ${COL-PORT(S)}", &v), "echo 80/TCP");
    }

    #[test]
    fn the_environment_leaves_the_login_alone() {
        let env = vars().env();
        assert!(env.contains(&("NAME".into(), "web-1".into())));
        assert!(env.iter().all(|(k, _)| k != "USER" && !k.starts_with("COL-")));
    }
}
