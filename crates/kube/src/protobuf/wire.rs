//! The protobuf wire format, read only: varints, tags and the four wire types Kubernetes
//! messages use. Owns byte-level reading; must not know any message's fields.

use super::Error;

/// One field's value as it is on the wire.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Wire<'a> {
    /// Wire type 0: ints, bools, enums.
    Varint(u64),
    /// Wire type 1: `fixed64`, `sfixed64`, `double`.
    Fixed64(u64),
    /// Wire type 2: strings, bytes, messages, packed repeated scalars.
    Bytes(&'a [u8]),
    /// Wire type 5: `fixed32`, `sfixed32`, `float`.
    Fixed32(u32),
}

/// A cursor over the fields of one message.
#[derive(Debug, Clone)]
pub(crate) struct Reader<'a> {
    buf: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    /// A reader over the encoded fields `buf`.
    pub(crate) fn new(buf: &'a [u8]) -> Self {
        Reader { buf, at: 0 }
    }

    /// Bytes read so far.
    pub(crate) fn position(&self) -> usize {
        self.at
    }

    /// The bytes of `from..to` of the buffer.
    pub(crate) fn slice(&self, from: usize, to: usize) -> &'a [u8] {
        self.buf.get(from..to).unwrap_or_default()
    }

    /// True when every field has been read.
    pub(crate) fn done(&self) -> bool {
        self.at >= self.buf.len()
    }

    /// The next varint; `Err` on a truncated or over-long one.
    pub(crate) fn varint(&mut self) -> Result<u64, Error> {
        let mut v = 0u64;
        for shift in (0..70).step_by(7) {
            let Some(&b) = self.buf.get(self.at) else {
                return Err(Error::msg("truncated varint"));
            };
            self.at += 1;
            if shift < 64 {
                v |= u64::from(b & 0x7f) << shift;
            }
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(Error::msg("varint longer than 10 bytes"))
    }

    /// The next `n` bytes; `Err` when fewer are left.
    pub(crate) fn take(&mut self, n: usize) -> Result<&'a [u8], Error> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.buf.len());
        let Some(end) = end else {
            return Err(Error::msg("truncated field"));
        };
        let s = &self.buf[self.at..end];
        self.at = end;
        Ok(s)
    }

    /// The next field's number and value; `None` at the end of the message.
    pub(crate) fn field(&mut self) -> Result<Option<(u32, Wire<'a>)>, Error> {
        if self.done() {
            return Ok(None);
        }
        let key = self.varint()?;
        let number = u32::try_from(key >> 3).map_err(|_| Error::msg("field number too large"))?;
        let wire = match key & 7 {
            0 => Wire::Varint(self.varint()?),
            1 => Wire::Fixed64(u64::from_le_bytes(self.take(8)?.try_into().unwrap_or([0; 8]))),
            2 => {
                let n = usize::try_from(self.varint()?).map_err(|_| Error::msg("length too large"))?;
                Wire::Bytes(self.take(n)?)
            }
            5 => Wire::Fixed32(u32::from_le_bytes(self.take(4)?.try_into().unwrap_or([0; 4]))),
            t => return Err(Error::msg(format!("unsupported wire type {t}"))),
        };
        Ok(Some((number, wire)))
    }

    /// The number of the next field without reading it; `None` at the end or when its key
    /// cannot be read.
    pub(crate) fn peek_number(&self) -> Option<u32> {
        let mut probe = self.clone();
        probe.varint().ok().and_then(|k| u32::try_from(k >> 3).ok())
    }
}

/// The length-delimited payload of `wire`, or an error naming `what`.
pub(crate) fn bytes<'a>(wire: Wire<'a>, what: &str) -> Result<&'a [u8], Error> {
    match wire {
        Wire::Bytes(b) => Ok(b),
        _ => Err(Error::msg(format!("{what}: expected a length-delimited field"))),
    }
}

/// Encoding, for tests: a field key.
#[cfg(test)]
pub(crate) fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Encoding, for tests: a length-delimited field `number` holding `payload`.
#[cfg(test)]
pub(crate) fn put_bytes(out: &mut Vec<u8>, number: u32, payload: &[u8]) {
    put_varint(out, (u64::from(number) << 3) | 2);
    put_varint(out, payload.len() as u64);
    out.extend_from_slice(payload);
}

/// Encoding, for tests: a varint field `number`.
#[cfg(test)]
pub(crate) fn put_int(out: &mut Vec<u8>, number: u32, v: u64) {
    put_varint(out, u64::from(number) << 3);
    put_varint(out, v);
}
