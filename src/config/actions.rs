//! `[actions]`: how writes to the cluster are confirmed — the protected contexts, where the
//! user types the object's name (or the count) to confirm. Owns parsing and validating
//! that section; must not apply it (`app::configure` does).

use serde::{Deserialize, Deserializer};

/// `[actions]`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ActionsConfig {
    /// Regular expressions over kubeconfig context names (`"prod"` matches `prod-eu` and
    /// `my-prod`; `"^prod$"` only `prod`): writes in a matching context need the typed name.
    pub protected: Vec<ContextPattern>,
}

/// A regular expression over context names, checked when the file is read.
#[derive(Debug, Clone)]
pub struct ContextPattern(pub regex::Regex);

impl PartialEq for ContextPattern {
    fn eq(&self, other: &Self) -> bool {
        self.0.as_str() == other.0.as_str()
    }
}

impl<'de> Deserialize<'de> for ContextPattern {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        regex::Regex::new(&s)
            .map(ContextPattern)
            .map_err(|e| serde::de::Error::custom(format!("not a regular expression: {s:?} ({e})")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_parse_and_bad_ones_are_errors() {
        let c: ActionsConfig = toml::from_str("protected = [\"prod\", \"^live$\"]").unwrap();
        assert!(c.protected[0].0.is_match("eu-prod-1"));
        assert!(!c.protected[1].0.is_match("live-2"));
        assert!(toml::from_str::<ActionsConfig>("protected = [\"(\"]").is_err());
    }
}
