//! [`Packed`]: the form in which the history keeps each object's newest body — its compact
//! JSON, LZ4-compressed (lz4_flex's block format, uncompressed length prepended). Owns
//! packing and unpacking; must not diff, count the budget or decide what is recorded.

/// One object's newest body as the history holds it. JSON of API objects repeats its keys
/// (conditions, container fields), so a body costs about a third to a half of its text; the
/// budget counts [`Packed::len`].
#[derive(Clone, PartialEq, Eq)]
pub struct Packed(Box<[u8]>);

impl Packed {
    /// Compresses `json` (compact JSON the history wrote).
    pub fn pack(json: &str) -> Packed {
        Packed(lz4_flex::block::compress_prepend_size(json.as_bytes()).into_boxed_slice())
    }

    /// The JSON text packed. Only [`Packed::pack`] makes these bytes, so decompression
    /// cannot fail short of a bug; then (or if the text were not UTF-8) the body reads as
    /// `{}`, as an unreadable body did before.
    pub fn unpack(&self) -> String {
        lz4_flex::block::decompress_size_prepended(&self.0)
            .ok()
            .and_then(|b| String::from_utf8(b).ok())
            .unwrap_or_else(|| "{}".to_owned())
    }

    /// Bytes held (what the budget counts).
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// True for no bytes at all (never made by [`Packed::pack`], which prepends a length).
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl std::fmt::Debug for Packed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Packed({} bytes)", self.0.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_shrinks_repetitive_json() {
        let cond = r#"{"type":"Ready","status":"True","lastHeartbeatTime":"2026-01-01T00:00:00Z","lastTransitionTime":"2026-01-01T00:00:00Z"}"#;
        let json = format!(r#"{{"status":{{"conditions":[{}]}}}}"#, [cond; 6].join(","));
        let p = Packed::pack(&json);
        assert_eq!(p.unpack(), json);
        assert!(p.len() * 3 < json.len(), "{} of {}", p.len(), json.len());
        assert_eq!(Packed::pack("").unpack(), "");
        assert_eq!(Packed(Box::from(&b"\x10\x00\x00\x00"[..])).unpack(), "{}");
    }
}
