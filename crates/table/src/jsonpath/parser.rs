//! The parser half of `table::jsonpath`: turns path text into nodes the way client-go's
//! `util/jsonpath/parser.go` tokenizes it, with byte offsets for errors. Must not evaluate
//! anything, and must not accept what client-go rejects (beyond the documented extensions).

use super::{Filter, JsonPathError, Lit, Node, Op, Slice};

/// Parses `src[pos..]` to its end; `base` is `src`'s offset in the caller's text.
pub(super) struct Parser<'s> {
    pub(super) src: &'s str,
    pub(super) pos: usize,
    pub(super) base: usize,
    /// Inside a filter operand, where literals are values to compare.
    pub(super) in_filter: bool,
}

type Parsed<T> = Result<T, JsonPathError>;

impl<'s> Parser<'s> {
    fn sub(&self, src: &'s str, at: usize) -> Parser<'s> {
        Parser {
            src,
            pos: 0,
            base: self.base + at,
            in_filter: self.in_filter,
        }
    }

    fn err(&self, at: usize, message: impl Into<String>) -> JsonPathError {
        JsonPathError {
            offset: self.base + at,
            message: message.into(),
        }
    }

    fn peek(&self) -> Option<char> {
        self.src[self.pos..].chars().next()
    }

    /// client-go's `parseInsideAction` loop, up to the end of `src`.
    pub(super) fn action(mut self) -> Parsed<Vec<Node>> {
        let mut nodes = Vec::new();
        self.action_into(&mut nodes)?;
        Ok(nodes)
    }

    fn action_into(&mut self, nodes: &mut Vec<Node>) -> Parsed<()> {
        loop {
            let at = self.pos;
            let rest = &self.src[at..];
            if rest.starts_with("[?(") {
                let filter = self.filter()?;
                nodes.push(Node::Filter(Box::new(filter)));
                continue;
            }
            if rest.starts_with("..") {
                if matches!(nodes.last(), Some(Node::Recursive)) {
                    return Err(self.err(at, "`..` cannot follow another `..`"));
                }
                self.pos += 2;
                nodes.push(Node::Recursive);
                if self.peek().is_some_and(is_alphanumeric) {
                    nodes.push(self.field()?);
                }
                continue;
            }
            let Some(c) = self.peek() else { return Ok(()) };
            match c {
                ' ' | '@' | '$' => self.pos += 1,
                '.' => {
                    self.pos += 1;
                    nodes.push(self.field()?);
                }
                '[' => self.bracket(nodes)?,
                '"' | '\'' => {
                    let s = self.quoted(c)?;
                    nodes.push(self.literal(at, Lit::Str(s))?);
                }
                '+' | '-' | '0'..='9' => {
                    let n = self.number()?;
                    nodes.push(self.literal(at, n)?);
                }
                '\r' | '\n' => return Err(self.err(at, "line break inside the path")),
                '}' => return Err(self.err(at, "unexpected `}` (kubectl would ignore the rest)")),
                c if is_alphanumeric(c) => {
                    let start = self.pos;
                    self.pos = self.src[start..]
                        .find(is_terminator)
                        .map_or(self.src.len(), |i| start + i);
                    nodes.push(match &self.src[start..self.pos] {
                        "true" => self.literal(at, Lit::Bool(true))?,
                        "false" => self.literal(at, Lit::Bool(false))?,
                        "range" | "end" => {
                            return Err(self.err(at, "`range`/`end` templates are not supported"))
                        }
                        _ => Node::Ident,
                    });
                }
                c => return Err(self.err(at, format!("unexpected character {c:?}"))),
            }
        }
    }

    fn literal(&self, at: usize, lit: Lit) -> Parsed<Node> {
        if self.in_filter {
            Ok(Node::Lit(lit))
        } else {
            Err(self.err(at, "a literal is only allowed as a filter operand"))
        }
    }

    /// A name after `.`, up to an unescaped terminator; `\` escapes the next character and
    /// every backslash is dropped (client-go). A bare `*` is the wildcard.
    fn field(&mut self) -> Parsed<Node> {
        let start = self.pos;
        let mut chars = self.src[start..].char_indices();
        let mut end = self.src.len();
        while let Some((i, c)) = chars.next() {
            if c == '\\' && chars.next().is_none() {
                // client-go's `\` would escape the `}` that closes the expression.
                return Err(self.err(start + i, "`\\` at the end of the path escapes nothing"));
            } else if c != '\\' && is_terminator(c) {
                end = start + i;
                break;
            }
        }
        self.pos = end;
        Ok(match &self.src[start..end] {
            "*" => Node::Wildcard,
            raw => Node::Field(raw.replace('\\', "").into()),
        })
    }

    /// `[...]` up to the first `]`: a union, a quoted key, or an index/slice.
    fn bracket(&mut self, nodes: &mut Vec<Node>) -> Parsed<()> {
        let open = self.pos;
        let body_at = open + 1;
        let Some(len) = self.src[body_at..]
            .find([']', '\n'])
            .filter(|&i| self.src[body_at + i..].starts_with(']'))
        else {
            return Err(self.err(open, "unterminated `[`: missing `]`"));
        };
        self.pos = body_at + len + 1;
        self.bracket_body(&self.src[body_at..body_at + len], body_at, nodes)
    }

    fn bracket_body(&self, text: &'s str, at: usize, nodes: &mut Vec<Node>) -> Parsed<()> {
        let text = if text == "*" { ":" } else { text };
        if text.contains(',') {
            let mut alternatives = Vec::new();
            let mut part_at = at;
            for part in text.split(',') {
                let trimmed = part.trim_start_matches(' ');
                let lead = part.len() - trimmed.len();
                let mut alt = Vec::new();
                self.bracket_body(trimmed.trim_end_matches(' '), part_at + lead, &mut alt)?;
                alternatives.push(alt.into_boxed_slice());
                part_at += part.len() + 1;
            }
            nodes.push(Node::Union(alternatives.into()));
            return Ok(());
        }
        for q in ['\'', '"'] {
            let key = text
                .strip_prefix(q)
                .and_then(|t| t.strip_suffix(q))
                .filter(|k| !k.contains(q));
            if let Some(key) = key {
                // client-go parses `['k']` as `.k`, so dots and brackets inside still split.
                let mut sub = self.sub(key, at + 1);
                nodes.push(sub.field()?);
                return sub.action_into(nodes);
            }
        }
        nodes.push(Node::Slice(self.slice(text, at)?));
        Ok(())
    }

    /// `start[:end[:step]]`, each part `-?[0-9]*`; a lone index `i` means `i:i+1`.
    fn slice(&self, text: &str, at: usize) -> Parsed<Slice> {
        let parts: Vec<&str> = text.split(':').collect();
        let digits = |p: &&str| {
            p.strip_prefix('-')
                .unwrap_or(p)
                .bytes()
                .all(|b| b.is_ascii_digit())
        };
        if parts.len() > 3 || !parts.iter().all(digits) {
            return Err(self.err(at, format!("invalid array index `{text}`")));
        }
        let num = |p: &str| -> Parsed<Option<i64>> {
            match p {
                "" => Ok(None),
                p => p
                    .parse()
                    .map(Some)
                    .map_err(|_| self.err(at, format!("array index `{p}` is not a number"))),
            }
        };
        let start = num(parts[0])?;
        let (end, derived) = match parts.get(1) {
            None => (Some(start.unwrap_or(0).wrapping_add(1)), true),
            Some(p) => (num(p)?, false),
        };
        let step = match parts.get(2) {
            Some(p) => num(p)?,
            None => None,
        };
        Ok(Slice {
            start,
            end,
            derived,
            step,
        })
    }

    /// `[?(left op right)]` or `[?(path)]`. Like client-go, the body ends at the first `)`
    /// outside the first quoted string, and the operator is the first run of `!<>=`.
    fn filter(&mut self) -> Parsed<Filter> {
        let open = self.pos;
        let body_at = open + 3;
        let b = self.src.as_bytes();
        let (mut quote, mut closed) = (None, false);
        let mut i = body_at;
        loop {
            match b.get(i) {
                None | Some(b'\n') => return Err(self.err(open, "unterminated filter: missing `)]`")),
                Some(&q @ (b'"' | b'\'')) => match quote {
                    None => quote = Some(q),
                    Some(p) if p == q && b[i - 1] != b'\\' => closed = true,
                    Some(_) => {}
                },
                Some(b')') if quote.is_some() == closed => break,
                Some(_) => {}
            }
            i += 1;
        }
        if b.get(i + 1) != Some(&b']') {
            return Err(self.err(i + 1, "filter must end with `)]`"));
        }
        self.pos = i + 2;
        let body = &self.src[body_at..i];
        let side = |text: &'s str, at: usize| -> Parsed<Box<[Node]>> {
            let mut sub = self.sub(text, body_at + at);
            sub.in_filter = true;
            Ok(sub.action()?.into())
        };
        let Some((op_at, op_end)) = operator(body) else {
            return Ok(Filter {
                left: side(body, 0)?,
                op: Op::Exists,
                right: Box::default(),
            });
        };
        let op = match &body[op_at..op_end] {
            "==" => Op::Eq,
            "!=" => Op::Ne,
            "<" => Op::Lt,
            "<=" => Op::Le,
            ">" => Op::Gt,
            ">=" => Op::Ge,
            _ => Op::Unknown,
        };
        Ok(Filter {
            left: side(&body[..op_at], 0)?,
            op,
            right: side(&body[op_end..], op_end)?,
        })
    }

    /// A quoted literal starting at `self.pos`; it ends at the first matching quote not
    /// preceded by `\`. Escapes are Go's (`\n`, `\t`, `\x41`, `\u00e9`, `\'` in `'...'`...).
    fn quoted(&mut self, q: char) -> Parsed<Box<str>> {
        let open = self.pos;
        let b = self.src.as_bytes();
        let mut i = open + 1;
        while b.get(i) != Some(&(q as u8)) || b[i - 1] == b'\\' {
            if matches!(b.get(i), None | Some(b'\n')) {
                return Err(self.err(open, "unterminated string literal"));
            }
            i += 1;
        }
        self.pos = i + 1;
        unquote(&self.src[open + 1..i], q).ok_or_else(|| self.err(open, "invalid escape in string literal"))
    }

    /// `[+-]?[0-9.]*` as an `i64`, else as an `f64`.
    fn number(&mut self) -> Parsed<Lit> {
        let start = self.pos;
        let sign = usize::from(self.src[start..].starts_with(['+', '-']));
        let len = self.src[start + sign..]
            .bytes()
            .take_while(|b| *b == b'.' || b.is_ascii_digit())
            .count();
        self.pos = start + sign + len;
        let text = &self.src[start..self.pos];
        match (text.parse::<i64>(), text.parse::<f64>()) {
            (Ok(i), _) => Ok(Lit::Int(i)),
            (_, Ok(f)) => Ok(Lit::Float(f.to_bits())),
            _ => Err(self.err(start, format!("cannot parse number `{text}`"))),
        }
    }
}

/// The operator's span in a filter body, as client-go's `^([^!<>=]+)([!<>=]+)(.+?)$` finds it.
fn operator(body: &str) -> Option<(usize, usize)> {
    let is_op = |b: u8| matches!(b, b'!' | b'<' | b'>' | b'=');
    let at = body.bytes().position(is_op).filter(|&at| at > 0)?;
    let mut end = at + body.as_bytes()[at..].iter().take_while(|b| is_op(**b)).count();
    if end == body.len() {
        // The right side needs at least one character: the regex gives one back.
        end = end.checked_sub(1).filter(|&e| e > at)?;
    }
    Some((at, end))
}

/// Go's `strconv` unquoting of `inner` (the text between `q`s); `None` on a bad escape, or
/// on a byte escape above 0x7f (Go would build invalid UTF-8).
fn unquote(inner: &str, q: char) -> Option<Box<str>> {
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c == q {
            return None;
        }
        if c != '\\' {
            out.push(c);
            continue;
        }
        let ch = match chars.next()? {
            'a' => '\u{7}',
            'b' => '\u{8}',
            'f' => '\u{c}',
            'n' => '\n',
            'r' => '\r',
            't' => '\t',
            'v' => '\u{b}',
            '\\' => '\\',
            e @ ('\'' | '"') if e == q => e,
            'x' => char::from_u32(digits(&mut chars, 2, 16)?).filter(char::is_ascii)?,
            'u' => char::from_u32(digits(&mut chars, 4, 16)?)?,
            'U' => char::from_u32(digits(&mut chars, 8, 16)?)?,
            d @ '0'..='7' => {
                let v = (d as u32 - '0' as u32) * 64 + digits(&mut chars, 2, 8)?;
                char::from_u32(v).filter(char::is_ascii)?
            }
            _ => return None,
        };
        out.push(ch);
    }
    Some(out.into())
}

/// The next `n` characters as a number in `radix`; `None` unless all `n` are digits of it.
fn digits(chars: &mut std::str::Chars<'_>, n: usize, radix: u32) -> Option<u32> {
    (0..n).try_fold(0, |acc, _| Some(acc * radix + chars.next()?.to_digit(radix)?))
}

/// Characters that end a name or a bare word (client-go's `isTerminator`).
fn is_terminator(c: char) -> bool {
    matches!(
        c,
        ' ' | '\t' | '\r' | '\n' | '.' | ',' | '[' | ']' | '$' | '@' | '{' | '}'
    )
}

fn is_alphanumeric(c: char) -> bool {
    c == '_' || c.is_alphanumeric()
}
