//! The rules a role grants: a Role's `rules`, a ClusterRole's `rules` joined with those of
//! every ClusterRole its `aggregationRule.clusterRoleSelectors` select (what the
//! clusterrole-aggregation controller writes into `rules`; joined here too, so an answer is
//! right before the controller has caught up). Owns label-selector matching for that; must
//! not decide whether a rule allows anything.

use std::collections::{BTreeMap, HashMap};

use k8s_openapi::api::rbac::v1::{ClusterRole, PolicyRule};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector;

/// The effective rules of every ClusterRole, by `metadata.name`.
pub fn cluster_rules(roles: &[ClusterRole]) -> HashMap<String, Vec<PolicyRule>> {
    let own = |r: &ClusterRole| r.rules.clone().unwrap_or_default();
    roles
        .iter()
        .map(|r| {
            let name = r.metadata.name.clone().unwrap_or_default();
            let mut rules = own(r);
            let selectors = r
                .aggregation_rule
                .as_ref()
                .and_then(|a| a.cluster_role_selectors.as_ref());
            for sel in selectors.into_iter().flatten() {
                for other in roles.iter().filter(|o| o.metadata.name != r.metadata.name) {
                    if selects(sel, other.metadata.labels.as_ref()) {
                        for rule in own(other) {
                            if !rules.contains(&rule) {
                                rules.push(rule);
                            }
                        }
                    }
                }
            }
            (name, rules)
        })
        .collect()
}

/// Whether `sel` selects an object with `labels` (`matchLabels` and every
/// `matchExpressions` requirement: `In`, `NotIn`, `Exists`, `DoesNotExist`). An empty
/// selector selects everything, an unknown operator nothing — as `LabelSelectorAsSelector`.
pub fn selects(sel: &LabelSelector, labels: Option<&BTreeMap<String, String>>) -> bool {
    let empty = BTreeMap::new();
    let labels = labels.unwrap_or(&empty);
    let by_label = sel
        .match_labels
        .iter()
        .flatten()
        .all(|(k, v)| labels.get(k) == Some(v));
    let by_expr = sel.match_expressions.iter().flatten().all(|req| {
        let values = req.values.as_deref().unwrap_or_default();
        let have = labels.get(&req.key);
        match req.operator.as_str() {
            "In" => have.is_some_and(|v| values.contains(v)),
            "NotIn" => have.is_none_or(|v| !values.contains(v)),
            "Exists" => have.is_some(),
            "DoesNotExist" => have.is_none(),
            _ => false,
        }
    });
    by_label && by_expr
}

#[cfg(test)]
mod tests {
    use super::*;
    use k8s_openapi::api::rbac::v1::AggregationRule;
    use k8s_openapi::apimachinery::pkg::apis::meta::v1::{LabelSelectorRequirement, ObjectMeta};

    fn rule(verb: &str) -> PolicyRule {
        PolicyRule {
            verbs: vec![verb.into()],
            api_groups: Some(vec![String::new()]),
            resources: Some(vec!["pods".into()]),
            ..Default::default()
        }
    }

    fn role(
        name: &str,
        labels: &[(&str, &str)],
        rules: Vec<PolicyRule>,
        agg: Option<LabelSelector>,
    ) -> ClusterRole {
        ClusterRole {
            metadata: ObjectMeta {
                name: Some(name.into()),
                labels: Some(
                    labels
                        .iter()
                        .map(|(k, v)| (k.to_string(), v.to_string()))
                        .collect(),
                ),
                ..Default::default()
            },
            rules: Some(rules),
            aggregation_rule: agg.map(|s| AggregationRule {
                cluster_role_selectors: Some(vec![s]),
            }),
        }
    }

    #[test]
    fn an_aggregated_role_joins_the_rules_of_the_roles_it_selects() {
        let sel = LabelSelector {
            match_labels: Some([("agg".to_string(), "edit".to_string())].into()),
            ..Default::default()
        };
        let roles = [
            role("edit", &[], vec![], Some(sel)),
            role("pods-delete", &[("agg", "edit")], vec![rule("delete")], None),
            role("pods-get", &[("agg", "view")], vec![rule("get")], None),
        ];
        let rules = cluster_rules(&roles);
        assert_eq!(rules["edit"], vec![rule("delete")]);
        assert_eq!(rules["pods-get"], vec![rule("get")]);
    }

    #[test]
    fn expressions_follow_the_label_selector_operators() {
        let req = |op: &str, values: &[&str]| LabelSelector {
            match_expressions: Some(vec![LabelSelectorRequirement {
                key: "tier".into(),
                operator: op.into(),
                values: Some(values.iter().map(|v| v.to_string()).collect()),
            }]),
            ..Default::default()
        };
        let labels: BTreeMap<String, String> = [("tier".to_string(), "web".to_string())].into();
        assert!(selects(&req("In", &["web", "db"]), Some(&labels)));
        assert!(!selects(&req("NotIn", &["web"]), Some(&labels)));
        assert!(selects(&req("NotIn", &["web"]), None));
        assert!(selects(&req("Exists", &[]), Some(&labels)));
        assert!(!selects(&req("DoesNotExist", &[]), Some(&labels)));
        assert!(!selects(&req("Bogus", &[]), Some(&labels)));
        assert!(selects(&LabelSelector::default(), None));
    }
}
