//! `continue` tokens of paged lists: opaque base64 of the list's revision and the last key
//! served, like the real API server's. Owns encoding and decoding; must not decide expiry
//! (the HTTP layer compares the revision with the store's log).

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;

/// A decoded continue token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Continue {
    /// Revision of the list's first page.
    pub revision: u64,
    /// Store key of the last object served; the next page starts after it.
    pub after: String,
}

impl Continue {
    /// The opaque token string.
    pub fn encode(&self) -> String {
        let json = serde_json::json!({"v": "meta.k8s.io/v1", "rv": self.revision, "start": self.after});
        URL_SAFE_NO_PAD.encode(json.to_string())
    }

    /// Parses a token; `None` when it is not one of ours (a 400 answer).
    pub fn decode(token: &str) -> Option<Continue> {
        let raw = URL_SAFE_NO_PAD.decode(token.trim_end_matches('=')).ok()?;
        let v: serde_json::Value = serde_json::from_slice(&raw).ok()?;
        Some(Continue {
            revision: v["rv"].as_u64()?,
            after: v["start"].as_str()?.to_owned(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_rejects_garbage() {
        let c = Continue {
            revision: 42,
            after: "ns/pod-1".into(),
        };
        let t = c.encode();
        assert!(
            t.chars()
                .all(|ch| ch.is_ascii_alphanumeric() || ch == '-' || ch == '_'),
            "{t}"
        );
        assert_eq!(Continue::decode(&t), Some(c));
        assert_eq!(Continue::decode("not a token"), None);
        assert_eq!(Continue::decode(&URL_SAFE_NO_PAD.encode("{\"rv\":\"x\"}")), None);
    }
}
