//! A serde `Deserializer` over protobuf-encoded Kubernetes messages, driven by the schema's
//! field tables: a message reads as a map of its JSON field names, repeated fields as arrays,
//! `map<K, V>` fields as objects, and `Time`, `MicroTime`, `Duration`, `IntOrString`,
//! `Quantity` and raw JSON in the form the JSON encoding gives them — so the slim serde types
//! decode from protobuf exactly as from JSON. Strings are borrowed from the body, not copied.
//! Owns that mapping; must not know any kind.
//!
//! Two differences from JSON are smoothed over: Go's protobuf encoder writes non-pointer
//! fields even when empty (`namespace: ""` on a cluster-scoped object), which JSON omits
//! (`omitempty`), so an empty string read as an `Option` is `None`; and a zero `Time` is
//! an empty message where JSON writes `null`. Repeated fields are read as one run of
//! consecutive fields, as Go writes them; a field repeated apart from its run is a duplicate.

use serde::de::value::BorrowedStrDeserializer;
use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::forward_to_deserialize_any;

use super::schema::{schema, Field, Label, Message, Scalar, Special, Ty};
use super::text;
use super::wire::{bytes, Reader, Wire};
use super::Error;

/// One message's bytes, read as the message at `msg` of the schema.
pub(crate) struct MessageDe<'de> {
    pub(crate) msg: usize,
    pub(crate) bytes: &'de [u8],
}

impl MessageDe<'_> {
    fn message(&self) -> &'static Message {
        schema().message(self.msg)
    }

    /// True for a zero `Time`/`MicroTime` (JSON `null`).
    fn is_null(&self) -> bool {
        matches!(self.message().special, Some(Special::Time | Special::MicroTime))
            && time_of(self.bytes).is_ok_and(|t| t == (0, 0))
    }
}

impl<'de> Deserializer<'de> for MessageDe<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        let msg = self.message();
        match msg.special {
            Some(special) => special_value(special, self.bytes, v),
            None => v.visit_map(Fields::new(msg, self.bytes)),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        if self.is_null() {
            v.visit_none()
        } else {
            v.visit_some(self)
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        v.visit_unit()
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier
    }
}

/// `seconds` and `nanos` of a `Time`/`MicroTime` message.
fn time_of(b: &[u8]) -> Result<(i64, i64), Error> {
    let (mut secs, mut nanos) = (0i64, 0i64);
    let mut r = Reader::new(b);
    while let Some((n, w)) = r.field()? {
        match (n, w) {
            (1, Wire::Varint(v)) => secs = v as i64,
            (2, Wire::Varint(v)) => nanos = i64::from(v as i32),
            _ => {}
        }
    }
    Ok((secs, nanos))
}

/// A special message in its JSON form.
fn special_value<'de, V: Visitor<'de>>(special: Special, b: &'de [u8], v: V) -> Result<V::Value, Error> {
    match special {
        Special::Time | Special::MicroTime => {
            let (secs, nanos) = time_of(b)?;
            if (secs, nanos) == (0, 0) {
                return v.visit_unit();
            }
            let micros = (special == Special::MicroTime).then_some(nanos / 1000);
            v.visit_str(&text::rfc3339(secs, micros))
        }
        Special::Duration => {
            let mut ns = 0i64;
            let mut r = Reader::new(b);
            while let Some((n, w)) = r.field()? {
                if let (1, Wire::Varint(x)) = (n, w) {
                    ns = x as i64;
                }
            }
            v.visit_str(&text::go_duration(ns))
        }
        Special::IntOrString => {
            let (mut kind, mut int, mut string) = (0u64, 0i64, "");
            let mut r = Reader::new(b);
            while let Some((n, w)) = r.field()? {
                match (n, w) {
                    (1, Wire::Varint(x)) => kind = x,
                    (2, Wire::Varint(x)) => int = i64::from(x as i32),
                    (3, Wire::Bytes(s)) => string = utf8(s)?,
                    _ => {}
                }
            }
            if kind == 1 {
                v.visit_borrowed_str(string)
            } else {
                v.visit_i64(int)
            }
        }
        Special::Quantity => {
            let mut string = "";
            let mut r = Reader::new(b);
            while let Some((n, w)) = r.field()? {
                if let (1, Wire::Bytes(s)) = (n, w) {
                    string = utf8(s)?;
                }
            }
            v.visit_borrowed_str(string)
        }
        Special::RawJson => {
            let mut raw: &[u8] = &[];
            let mut r = Reader::new(b);
            while let Some((n, w)) = r.field()? {
                if let (1, Wire::Bytes(s)) = (n, w) {
                    raw = s;
                }
            }
            if raw.is_empty() {
                return v.visit_unit();
            }
            serde_json::Deserializer::from_slice(raw)
                .deserialize_any(v)
                .map_err(|e| Error::msg(e.to_string()))
        }
    }
}

fn utf8(b: &[u8]) -> Result<&str, Error> {
    std::str::from_utf8(b).map_err(|_| Error::msg("string field is not UTF-8"))
}

/// What the field just named holds.
enum Pending<'de> {
    /// A single field.
    One(Ty, Wire<'de>),
    /// The run of a repeated or map field (all its occurrences, keys included).
    Run(&'static Field, &'de [u8]),
}

/// A message's fields as a serde map; an inline field's fields are read as the message's
/// own (one level deep: Kubernetes nests no inline struct in another).
struct Fields<'de> {
    msg: &'static Message,
    reader: Reader<'de>,
    pending: Option<Pending<'de>>,
    inner: Option<(&'static Message, Reader<'de>)>,
}

impl<'de> Fields<'de> {
    fn new(msg: &'static Message, bytes: &'de [u8]) -> Self {
        Fields {
            msg,
            reader: Reader::new(bytes),
            pending: None,
            inner: None,
        }
    }
}

impl<'de> MapAccess<'de> for Fields<'de> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, Error> {
        loop {
            let (msg, reader) = match self.inner.as_mut() {
                Some((m, r)) => (*m, r),
                None => (self.msg, &mut self.reader),
            };
            let start = reader.position();
            let Some((number, wire)) = reader.field()? else {
                if self.inner.take().is_some() {
                    continue;
                }
                return Ok(None);
            };
            // Fields the table does not know (a newer server's) are skipped.
            let Some(field) = msg.field(number) else {
                continue;
            };
            self.pending = Some(match field.label {
                Label::Optional => Pending::One(field.ty, wire),
                Label::Repeated | Label::Map(_) => {
                    while reader.peek_number() == Some(number) {
                        reader.field()?;
                    }
                    Pending::Run(field, reader.slice(start, reader.position()))
                }
                Label::Inline => {
                    if let (Ty::Message(m), true) = (field.ty, self.inner.is_none()) {
                        self.inner = Some((schema().message(m), Reader::new(bytes(wire, field.name)?)));
                    }
                    continue;
                }
            });
            return seed
                .deserialize(BorrowedStrDeserializer::<Error>::new(field.name))
                .map(Some);
        }
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value, Error> {
        match self.pending.take() {
            Some(Pending::One(ty, wire)) => seed.deserialize(ValueDe { ty, wire }),
            Some(Pending::Run(field, run)) => match field.label {
                Label::Map(value) => seed.deserialize(MapDe {
                    key: field.ty,
                    value,
                    reader: Reader::new(run),
                    pending: None,
                }),
                _ => seed.deserialize(SeqDe {
                    ty: field.ty,
                    reader: Reader::new(run),
                    packed: None,
                }),
            },
            None => Err(Error::msg("value asked before its key")),
        }
    }
}

/// One field's value.
struct ValueDe<'de> {
    ty: Ty,
    wire: Wire<'de>,
}

impl<'de> ValueDe<'de> {
    fn message(&self) -> Result<Option<MessageDe<'de>>, Error> {
        match self.ty {
            Ty::Message(msg) => Ok(Some(MessageDe {
                msg,
                bytes: bytes(self.wire, "message")?,
            })),
            Ty::Scalar(_) => Ok(None),
        }
    }
}

impl<'de> Deserializer<'de> for ValueDe<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        if let Some(m) = self.message()? {
            return m.deserialize_any(v);
        }
        let Ty::Scalar(s) = self.ty else {
            return Err(Error::msg("not a scalar"));
        };
        match (s, self.wire) {
            (Scalar::String, Wire::Bytes(b)) => v.visit_borrowed_str(utf8(b)?),
            (Scalar::Bytes, Wire::Bytes(b)) => {
                use base64::Engine as _;
                v.visit_string(base64::engine::general_purpose::STANDARD.encode(b))
            }
            (Scalar::Int, Wire::Varint(x)) => v.visit_i64(x as i64),
            (Scalar::Uint, Wire::Varint(x)) => v.visit_u64(x),
            (Scalar::Sint, Wire::Varint(x)) => v.visit_i64(((x >> 1) as i64) ^ -((x & 1) as i64)),
            (Scalar::Bool, Wire::Varint(x)) => v.visit_bool(x != 0),
            (Scalar::Double, Wire::Fixed64(x)) => v.visit_f64(f64::from_bits(x)),
            (Scalar::Float, Wire::Fixed32(x)) => v.visit_f32(f32::from_bits(x)),
            (Scalar::Fixed, Wire::Fixed64(x)) => v.visit_u64(x),
            (Scalar::Fixed, Wire::Fixed32(x)) => v.visit_u32(x),
            (Scalar::Sfixed, Wire::Fixed64(x)) => v.visit_i64(x as i64),
            (Scalar::Sfixed, Wire::Fixed32(x)) => v.visit_i32(x as i32),
            (s, w) => Err(Error::msg(format!("{s:?} field with wire value {w:?}"))),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        match (self.ty, self.wire) {
            (Ty::Scalar(Scalar::String), Wire::Bytes([])) => v.visit_none(),
            _ => match self.message()? {
                Some(m) => m.deserialize_option(v),
                None => v.visit_some(self),
            },
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, Error> {
        match (self.ty, self.wire) {
            (Ty::Scalar(Scalar::String), Wire::Bytes(b)) => {
                v.visit_enum(BorrowedStrDeserializer::<Error>::new(utf8(b)?))
            }
            _ => match self.message()? {
                Some(m) => m.deserialize_enum(name, variants, v),
                None => self.deserialize_any(v),
            },
        }
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        match (self.ty, self.wire) {
            (Ty::Scalar(Scalar::Bytes), Wire::Bytes(b)) => v.visit_borrowed_bytes(b),
            _ => self.deserialize_any(v),
        }
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        self.deserialize_bytes(v)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        v.visit_unit()
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        unit unit_struct newtype_struct seq tuple
        tuple_struct map struct identifier
    }
}

/// A repeated field's run as a serde sequence (packed scalars included).
struct SeqDe<'de> {
    ty: Ty,
    reader: Reader<'de>,
    packed: Option<Reader<'de>>,
}

impl SeqDe<'_> {
    /// The next value of a packed run, in the wire form of the field's type (Kubernetes has
    /// no repeated fixed-width integers; only varints and floating point are expected).
    fn next_packed(&mut self) -> Result<Option<Wire<'static>>, Error> {
        let Some(p) = self.packed.as_mut().filter(|p| !p.done()) else {
            return Ok(None);
        };
        let wire = match self.ty {
            Ty::Scalar(Scalar::Double) => {
                Wire::Fixed64(u64::from_le_bytes(p.take(8)?.try_into().unwrap_or([0; 8])))
            }
            Ty::Scalar(Scalar::Float) => {
                Wire::Fixed32(u32::from_le_bytes(p.take(4)?.try_into().unwrap_or([0; 4])))
            }
            _ => Wire::Varint(p.varint()?),
        };
        Ok(Some(wire))
    }
}

impl<'de> SeqAccess<'de> for SeqDe<'de> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>, Error> {
        if let Some(wire) = self.next_packed()? {
            return seed.deserialize(ValueDe { ty: self.ty, wire }).map(Some);
        }
        let Some((_, wire)) = self.reader.field()? else {
            return Ok(None);
        };
        let packable = matches!(self.ty, Ty::Scalar(s) if !matches!(s, Scalar::String | Scalar::Bytes));
        if let (true, Wire::Bytes(b)) = (packable, wire) {
            self.packed = Some(Reader::new(b));
            return match self.next_packed()? {
                Some(wire) => seed.deserialize(ValueDe { ty: self.ty, wire }).map(Some),
                None => self.next_element_seed(seed),
            };
        }
        seed.deserialize(ValueDe { ty: self.ty, wire }).map(Some)
    }
}

impl<'de> Deserializer<'de> for SeqDe<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        v.visit_seq(self)
    }

    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        v.visit_some(self)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        v.visit_unit()
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier
    }
}

/// A `map<K, V>` field's run of entry messages as a serde map.
struct MapDe<'de> {
    key: Ty,
    value: Ty,
    reader: Reader<'de>,
    pending: Option<Wire<'de>>,
}

/// The wire value of an absent key or value of type `ty` (proto's default).
fn default_wire(ty: Ty) -> Wire<'static> {
    match ty {
        Ty::Scalar(Scalar::String | Scalar::Bytes) | Ty::Message(_) => Wire::Bytes(&[]),
        _ => Wire::Varint(0),
    }
}

impl<'de> MapAccess<'de> for MapDe<'de> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, Error> {
        let Some((_, wire)) = self.reader.field()? else {
            return Ok(None);
        };
        let mut entry = Reader::new(bytes(wire, "map entry")?);
        let (mut key, mut value) = (default_wire(self.key), default_wire(self.value));
        while let Some((n, w)) = entry.field()? {
            match n {
                1 => key = w,
                2 => value = w,
                _ => {}
            }
        }
        self.pending = Some(value);
        seed.deserialize(ValueDe {
            ty: self.key,
            wire: key,
        })
        .map(Some)
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value, Error> {
        let wire = self.pending.take().unwrap_or(default_wire(self.value));
        seed.deserialize(ValueDe { ty: self.value, wire })
    }
}

impl<'de> Deserializer<'de> for MapDe<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        v.visit_map(self)
    }

    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        v.visit_some(self)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        v.visit_unit()
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier
    }
}
