//! The field tables of the Kubernetes messages ktui decodes (`schema.txt`, generated from
//! Kubernetes' `generated.proto` files by `crates/kube/protobuf/gen_schema.py`), parsed once.
//! A proto field's name is its JSON name, so a table is all the decoder needs to present a
//! message as the JSON object the slim serde types expect. Owns the tables; must not decode.

use std::collections::HashMap;
use std::sync::LazyLock;

/// The generated tables.
const SCHEMA: &str = include_str!("schema.txt");

/// A scalar field type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scalar {
    /// `string` (UTF-8).
    String,
    /// `bytes` (JSON shows them base64-encoded).
    Bytes,
    /// `int32`, `int64` (two's complement varints).
    Int,
    /// `uint32`, `uint64`.
    Uint,
    /// `sint32`, `sint64` (zigzag).
    Sint,
    /// `bool`.
    Bool,
    /// `double`.
    Double,
    /// `float`.
    Float,
    /// `fixed32`, `fixed64`.
    Fixed,
    /// `sfixed32`, `sfixed64`.
    Sfixed,
}

/// A field's type: a scalar or a message (an index into [`Schema::messages`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ty {
    /// A scalar.
    Scalar(Scalar),
    /// A message.
    Message(usize),
}

/// How often a field occurs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Label {
    /// At most once.
    Optional,
    /// Any number of times (a JSON array).
    Repeated,
    /// A `map<K, V>`: repeated entry messages `{1: key, 2: value}` (a JSON object).
    Map(Ty),
    /// An embedded Go struct that JSON inlines (`json:",inline"`): its fields are the
    /// parent's in JSON (`Probe.handler`'s `httpGet` is `Probe.httpGet`).
    Inline,
}

/// One field of a message.
#[derive(Debug, Clone)]
pub(crate) struct Field {
    /// Its number on the wire.
    pub(crate) number: u32,
    /// Its name, which is its JSON name.
    pub(crate) name: &'static str,
    /// How often it occurs (for a map: the value type; `ty` is the key type).
    pub(crate) label: Label,
    /// Its type.
    pub(crate) ty: Ty,
}

/// Messages the decoder shows in their JSON form rather than as objects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Special {
    /// `meta/v1.Time`: RFC 3339 seconds, `null` when zero.
    Time,
    /// `meta/v1.MicroTime`: RFC 3339 with microseconds, `null` when zero.
    MicroTime,
    /// `meta/v1.Duration`: Go's duration text (`1h0m0s`).
    Duration,
    /// `util/intstr.IntOrString`: a number or a string.
    IntOrString,
    /// `api/resource.Quantity`: its string.
    Quantity,
    /// `runtime.RawExtension`, `meta/v1.FieldsV1`: JSON text kept as bytes.
    RawJson,
}

/// One message.
#[derive(Debug, Clone)]
pub(crate) struct Message {
    /// Its fields, by number.
    pub(crate) fields: Vec<Field>,
    /// Set when the decoder shows it in a JSON form of its own.
    pub(crate) special: Option<Special>,
}

impl Message {
    /// The field numbered `number`, if the table knows it (newer servers may send more).
    pub(crate) fn field(&self, number: u32) -> Option<&Field> {
        self.fields
            .binary_search_by_key(&number, |f| f.number)
            .ok()
            .and_then(|i| self.fields.get(i))
    }
}

/// All tables.
#[derive(Debug)]
pub(crate) struct Schema {
    pub(crate) messages: Vec<Message>,
    by_name: HashMap<&'static str, usize>,
}

impl Schema {
    /// The message named `name` (`api.core.v1.PodList`).
    pub(crate) fn find(&self, name: &str) -> Option<usize> {
        self.by_name.get(name).copied()
    }

    /// The message at `i` (an index from this schema).
    pub(crate) fn message(&self, i: usize) -> &Message {
        &self.messages[i.min(self.messages.len().saturating_sub(1))]
    }
}

/// The schema, parsed at first use.
pub(crate) fn schema() -> &'static Schema {
    static S: LazyLock<Schema> = LazyLock::new(|| parse(SCHEMA));
    &S
}

fn special(name: &str) -> Option<Special> {
    Some(match name {
        "apimachinery.pkg.apis.meta.v1.Time" => Special::Time,
        "apimachinery.pkg.apis.meta.v1.MicroTime" => Special::MicroTime,
        "apimachinery.pkg.apis.meta.v1.Duration" => Special::Duration,
        "apimachinery.pkg.util.intstr.IntOrString" => Special::IntOrString,
        "apimachinery.pkg.api.resource.Quantity" => Special::Quantity,
        "apimachinery.pkg.runtime.RawExtension" | "apimachinery.pkg.apis.meta.v1.FieldsV1" => {
            Special::RawJson
        }
        _ => return None,
    })
}

fn scalar(t: &str) -> Option<Scalar> {
    Some(match t {
        "string" => Scalar::String,
        "bytes" => Scalar::Bytes,
        "int32" | "int64" => Scalar::Int,
        "uint32" | "uint64" => Scalar::Uint,
        "sint32" | "sint64" => Scalar::Sint,
        "bool" => Scalar::Bool,
        "double" => Scalar::Double,
        "float" => Scalar::Float,
        "fixed32" | "fixed64" => Scalar::Fixed,
        "sfixed32" | "sfixed64" => Scalar::Sfixed,
        _ => return None,
    })
}

/// Parses the generated text. A line it cannot read is skipped (the generator's own test
/// checks that none is).
fn parse(text: &'static str) -> Schema {
    let mut names: Vec<&'static str> = Vec::new();
    for line in text.lines() {
        if let Some(name) = line.strip_prefix("M ") {
            names.push(name.trim());
        }
    }
    let by_name: HashMap<&'static str, usize> = names.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    let ty = |t: &str| {
        scalar(t)
            .map(Ty::Scalar)
            .or_else(|| by_name.get(t).map(|&i| Ty::Message(i)))
    };
    let mut messages: Vec<Message> = Vec::with_capacity(names.len());
    for line in text.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        if let Some(name) = line.strip_prefix("M ") {
            let name = name.trim();
            messages.push(Message {
                fields: Vec::new(),
                special: special(name),
            });
            continue;
        }
        let mut parts = line.split(' ');
        let (Some(number), Some(name), Some(label), Some(t)) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        let Ok(number) = number.parse() else { continue };
        let field = match label {
            "m" => {
                let Some((k, v)) = t.split_once(',') else { continue };
                let (Some(k), Some(v)) = (ty(k), ty(v)) else {
                    continue;
                };
                Field {
                    number,
                    name,
                    label: Label::Map(v),
                    ty: k,
                }
            }
            _ => {
                let Some(t) = ty(t) else { continue };
                Field {
                    number,
                    name,
                    label: match label {
                        "r" => Label::Repeated,
                        "i" => Label::Inline,
                        _ => Label::Optional,
                    },
                    ty: t,
                }
            }
        };
        if let Some(m) = messages.last_mut() {
            m.fields.push(field);
        }
    }
    for m in &mut messages {
        m.fields.sort_by_key(|f| f.number);
    }
    Schema { messages, by_name }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_of_the_generated_table_is_read() {
        let s = schema();
        let fields: usize = s.messages.iter().map(|m| m.fields.len()).sum();
        let lines = SCHEMA
            .lines()
            .filter(|l| !l.starts_with('#') && !l.starts_with("M ") && !l.trim().is_empty())
            .count();
        assert_eq!(fields, lines);
        let pod = s.message(s.find("api.core.v1.Pod").unwrap());
        assert_eq!(pod.field(2).unwrap().name, "spec");
        let meta = s.message(s.find("apimachinery.pkg.apis.meta.v1.ObjectMeta").unwrap());
        let labels = meta.fields.iter().find(|f| f.name == "labels").unwrap();
        assert_eq!(labels.label, Label::Map(Ty::Scalar(Scalar::String)));
        let probe = s.message(s.find("api.core.v1.Probe").unwrap());
        assert_eq!(probe.field(1).unwrap().label, Label::Inline);
        let time = s.find("apimachinery.pkg.apis.meta.v1.Time").unwrap();
        assert_eq!(s.message(time).special, Some(Special::Time));
    }
}
