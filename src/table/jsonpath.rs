//! Placeholder until the JSONPath subset lands (being written separately).

use serde_json::Value;

/// A parsed path.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct JsonPath(Vec<String>);

/// A parse error.
#[derive(Debug)]
pub struct JsonPathError(String);

impl std::fmt::Display for JsonPathError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for JsonPathError {}

/// Parses.
pub fn parse(path: &str) -> Result<JsonPath, JsonPathError> {
    let p = path
        .trim()
        .trim_start_matches('{')
        .trim_end_matches('}')
        .trim_start_matches('$');
    Ok(JsonPath(
        p.split('.')
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect(),
    ))
}

impl JsonPath {
    /// First result.
    pub fn first<'a>(&self, v: &'a Value) -> Option<&'a Value> {
        self.0.iter().try_fold(v, |v, k| v.get(k))
    }
}
