//! `:can` command lines: `can <verb> <resource>[/<subresource>] [-n NS | -A]` (who may) and
//! `can user|group <name>`, `can sa [<ns>/]<name> [-n NS]` (what one subject may). Owns that
//! syntax and opening the view; must not fetch.

use crate::kube::rbac::{Ask, Subject, SubjectKind};

use crate::app::state::{Screen, UiState};

use super::model::{CanMode, CanState};

/// Runs `line` when it is a `:can` command (`can`, `who-can`, `whocan`): opens the view or
/// says in the footer what is wrong. `false` when `line` is another command.
pub fn command(state: &mut UiState, line: &str) -> bool {
    let mut words = line.split_whitespace();
    if !matches!(words.next(), Some("can" | "who-can" | "whocan")) {
        return false;
    }
    let words: Vec<&str> = words.collect();
    match parse(state, &words) {
        Ok(mode) => crate::app::nav::open(state, Screen::Can(Box::new(CanState::new(mode)))),
        Err(e) => state.screens.footer.message = Some(e),
    }
    true
}

/// The usage line, for errors.
const USAGE: &str = "usage: :can <verb> <resource>[/<sub>] [-n NS|-A]  or  :can user|group|sa <name> [-n NS]";

/// `-n NS` / `--namespace NS` / `-n=NS` / `-A` / `--all-namespaces` out of `words`: the
/// other words and `Some(Some(ns))`, `Some(None)` for all, `None` when not said.
type Scope = Option<Option<String>>;
fn split_scope(words: &[&str]) -> Result<(Vec<String>, Scope), String> {
    let mut rest = Vec::new();
    let mut scope = None;
    let mut it = words.iter();
    while let Some(w) = it.next() {
        match *w {
            "-A" | "--all-namespaces" => scope = Some(None),
            "-n" | "--namespace" => {
                let ns = it
                    .next()
                    .ok_or_else(|| format!("{w} needs a namespace; {USAGE}"))?;
                scope = Some(Some((*ns).to_owned()));
            }
            w if w.starts_with("-n=") || w.starts_with("--namespace=") => {
                let ns = w.split_once('=').map(|(_, n)| n).unwrap_or_default();
                scope = Some(Some(ns.to_owned()));
            }
            w if w.starts_with('-') => return Err(format!("unknown flag {w}; {USAGE}")),
            w => rest.push(w.to_owned()),
        }
    }
    Ok((rest, scope))
}

fn parse(state: &UiState, words: &[&str]) -> Result<CanMode, String> {
    let (rest, scope) = split_scope(words)?;
    let [first, second] = rest.as_slice() else {
        return Err(USAGE.to_owned());
    };
    let subject = |kind, name: &str, namespace: String| Subject {
        kind,
        name: name.to_owned(),
        namespace,
    };
    let asked_ns = scope.clone().flatten();
    match first.as_str() {
        "user" | "users" => Ok(CanMode::MayDo {
            subject: subject(SubjectKind::User, second, String::new()),
            namespace: asked_ns,
        }),
        "group" | "groups" => Ok(CanMode::MayDo {
            subject: subject(SubjectKind::Group, second, String::new()),
            namespace: asked_ns,
        }),
        "sa" | "serviceaccount" | "serviceaccounts" => {
            let (ns, name) = match second.split_once('/') {
                Some((ns, name)) => (ns.to_owned(), name),
                None => (
                    asked_ns
                        .clone()
                        .or_else(|| state.conn.namespace.clone())
                        .ok_or_else(|| {
                            format!("which namespace is ServiceAccount {second} in? :can sa <ns>/<name>")
                        })?,
                    second.as_str(),
                ),
            };
            Ok(CanMode::MayDo {
                subject: subject(SubjectKind::ServiceAccount, name, ns),
                namespace: asked_ns,
            })
        }
        verb => {
            let (resource, sub) = second.split_once('/').unwrap_or((second.as_str(), ""));
            let kind = state
                .conn
                .registry
                .resolve(resource)
                .map_err(|_| format!("{resource}: unknown resource (see :api-resources)"))?;
            let namespace = if !kind.namespaced() {
                if matches!(scope, Some(Some(_))) {
                    return Err(format!("{} is cluster-scoped: no -n", kind.plural()));
                }
                None
            } else {
                match scope {
                    Some(s) => s,
                    None => state.conn.namespace.clone(),
                }
            };
            Ok(CanMode::WhoCan(Ask {
                verb: verb.to_ascii_lowercase(),
                group: kind.group().to_owned(),
                resource: kind.plural().to_owned(),
                subresource: sub.to_owned(),
                namespace,
            }))
        }
    }
}
