//! Client-side JSONPath for CRD `additionalPrinterColumns[].jsonPath`: parses the dialect of
//! k8s.io/client-go/util/jsonpath (which the API server runs on `{<jsonPath>}` with
//! AllowMissingKeys) and selects from `serde_json::Value`s exactly as it does, quirks included.
//! Owns syntax and selection only: must not format values for display (`table::printer` does)
//! and must never panic, whatever the path or the document.

use std::fmt;

use serde_json::Value;

mod parser;

use parser::Parser;

/// A parsed path, cheap to evaluate (no allocation for plain `.a.b.c` paths via [`first`]).
///
/// [`first`]: JsonPath::first
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct JsonPath {
    nodes: Box<[Node]>,
}

/// Why [`parse`] rejected a path: what is wrong and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsonPathError {
    /// Byte offset into the text given to [`parse`] where the problem starts.
    pub offset: usize,
    /// What is wrong, e.g. ``unterminated filter: missing `)]` ``.
    pub message: String,
}

impl fmt::Display for JsonPathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid JSONPath: {} (at byte {})", self.message, self.offset)
    }
}

impl std::error::Error for JsonPathError {}

/// One step of a path; a path is a list of them applied left to right to a list of values.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Node {
    /// `.name` / `['name']`: the member of each object (a present `null` counts).
    Field(Box<str>),
    /// `.*`: every member value of each object and every element of each array.
    Wildcard,
    /// `..`: each input and every container below it that is non-empty, in pre-order.
    Recursive,
    /// `[i]`, `[a:b:c]`, `[*]`.
    Slice(Slice),
    /// `[x,y]`: each alternative over all inputs, results concatenated alternative by alternative.
    Union(Box<[Box<[Node]>]>),
    /// `[?(...)]`.
    Filter(Box<Filter>),
    /// A literal; parse only allows it inside a filter.
    Lit(Lit),
    /// A bare word (`Ready` in `@.type==Ready`): client-go parses it and fails when it is reached.
    Ident,
}

/// Array selection as client-go stores it: `derived` marks the `end = start + 1` of `[i]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Slice {
    start: Option<i64>,
    end: Option<i64>,
    derived: bool,
    step: Option<i64>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Filter {
    left: Box<[Node]>,
    op: Op,
    right: Box<[Node]>,
}

/// Filter operator; `Unknown` (`=`, `!`, `=<`...) parses but fails when a comparison is reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Op {
    Exists,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Unknown,
}

/// A literal; `Float` holds the bits of an `f64` so paths stay `Eq + Hash`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Lit {
    Str(Box<str>),
    Int(i64),
    Float(u64),
    Bool(bool),
}

/// Parses `path`: `.spec.replicas`, optionally wrapped in `{...}` and/or led by `$`, with
/// `['key']`, `[0]`, `[-1]`, `[1:3]`, `[::2]`, `[*]`, `.*`, `[0,2]`, `..name` and filters
/// `[?(@.type=="Ready")]` (`==`, `!=`, `<`, `<=`, `>`, `>=` against `'str'`, `"str"`, numbers,
/// `true`/`false` or another `@.path`; `[?(@.x)]` tests existence).
///
/// Follows client-go, so `['a.b']` means `.a.b` (escape a literal dot as `['a\.b']` or
/// `.a\.b`). Extensions: the outer `{}` is optional and `["key"]` works like `['key']`.
///
/// # Errors
/// [`JsonPathError`] with the byte offset of the first syntax error. Also rejected, though
/// client-go accepts them: literals outside a filter, `range`/`end`, a `}` inside the path and a
/// filter as a union alternative (`[0,?(@.x)]`).
pub fn parse(path: &str) -> Result<JsonPath, JsonPathError> {
    let (body, base) = match path.strip_prefix('{').and_then(|p| p.strip_suffix('}')) {
        Some(inner) => (inner, 1),
        None => (path, 0),
    };
    let nodes = Parser {
        src: body,
        pos: 0,
        base,
        in_filter: false,
    }
    .action()?;
    Ok(JsonPath { nodes: nodes.into() })
}

impl JsonPath {
    /// Every value the path selects in `v`, in document order (object members in the map's
    /// order: by key unless serde_json's `preserve_order` is on). Missing keys select nothing.
    /// Where client-go fails (index out of range, indexing or filtering a non-array,
    /// comparing values of different types...) the whole result is empty, as for kubectl.
    /// Unlike client-go, `.*` over a string selects nothing (client-go yields its bytes).
    pub fn eval<'a>(&self, v: &'a Value) -> Vec<&'a Value> {
        match walk_list(&self.nodes, vec![Item::Doc(v)]) {
            Ok(items) => items.into_iter().filter_map(Item::doc).collect(),
            Err(_) => Vec::new(),
        }
    }

    /// The first value [`eval`](JsonPath::eval) would return: what a printer column shows.
    pub fn first<'a>(&self, v: &'a Value) -> Option<&'a Value> {
        let mut cur = v;
        for node in &*self.nodes {
            match node {
                Node::Field(name) => cur = cur.as_object()?.get(&**name)?,
                _ => return self.eval(v).into_iter().next(),
            }
        }
        Some(cur)
    }
}

// ---------------------------------------------------------------- evaluation

/// A value being walked: from the document, or a literal of the path (filter operands only).
#[derive(Clone, Copy)]
enum Item<'a, 'p> {
    Doc(&'a Value),
    Lit(&'p Lit),
}

impl<'a> Item<'a, '_> {
    fn doc(self) -> Option<&'a Value> {
        match self {
            Item::Doc(v) => Some(v),
            Item::Lit(_) => None,
        }
    }
}

/// client-go's evaluation error, carrying the values its walker hands back with the error
/// (an existence filter still tests those for emptiness).
struct Fail<'a, 'p>(Vec<Item<'a, 'p>>);

type Walk<'a, 'p> = Result<Vec<Item<'a, 'p>>, Fail<'a, 'p>>;

fn walk_list<'a, 'p>(nodes: &'p [Node], mut cur: Vec<Item<'a, 'p>>) -> Walk<'a, 'p> {
    for node in nodes {
        cur = walk(node, cur)?;
    }
    Ok(cur)
}

fn walk<'a, 'p>(node: &'p Node, input: Vec<Item<'a, 'p>>) -> Walk<'a, 'p> {
    match node {
        Node::Field(name) => Ok(input
            .iter()
            .filter_map(|it| match it {
                Item::Doc(Value::Object(m)) => m.get(&**name).map(Item::Doc),
                _ => None,
            })
            .collect()),
        Node::Wildcard => Ok(input
            .iter()
            .filter_map(|it| it.doc())
            .flat_map(children)
            .map(Item::Doc)
            .collect()),
        Node::Recursive => {
            let mut out = Vec::new();
            for it in input {
                descend(it, &mut out);
            }
            Ok(out)
        }
        Node::Slice(s) => slice(s, input),
        Node::Union(alternatives) => {
            let mut out = Vec::new();
            for alt in &**alternatives {
                match walk_list(alt, input.clone()) {
                    Ok(found) => out.extend(found),
                    Err(_) => return Err(Fail(input)),
                }
            }
            Ok(out)
        }
        Node::Filter(f) => filter(f, input),
        // client-go yields a string literal once, other literals once per input.
        Node::Lit(lit @ Lit::Str(_)) => Ok(vec![Item::Lit(lit)]),
        Node::Lit(lit) => Ok(vec![Item::Lit(lit); input.len()]),
        Node::Ident => Err(Fail(input)),
    }
}

/// Member values of an object or elements of an array; nothing for scalars.
fn children(v: &Value) -> impl Iterator<Item = &Value> {
    let (members, elements) = match v {
        Value::Object(m) => (Some(m.values()), None),
        Value::Array(a) => (None, Some(a.iter())),
        _ => (None, None),
    };
    members
        .into_iter()
        .flatten()
        .chain(elements.into_iter().flatten())
}

/// client-go's `..`: a value is listed iff it has children (strings count: their bytes,
/// which are not listed themselves), then its children are visited in order.
fn descend<'a, 'p>(it: Item<'a, 'p>, out: &mut Vec<Item<'a, 'p>>) {
    match it {
        Item::Doc(v @ (Value::Object(_) | Value::Array(_))) => {
            let mut kids = children(v).peekable();
            if kids.peek().is_some() {
                out.push(it);
                for kid in kids {
                    descend(Item::Doc(kid), out);
                }
            }
        }
        Item::Doc(Value::String(s)) if !s.is_empty() => out.push(it),
        Item::Lit(Lit::Str(s)) if !s.is_empty() => out.push(it),
        _ => {}
    }
}

fn slice<'a, 'p>(s: &Slice, input: Vec<Item<'a, 'p>>) -> Walk<'a, 'p> {
    let mut out = Vec::new();
    for it in &input {
        let arr = match it {
            Item::Doc(Value::Null) => continue,
            Item::Doc(Value::Array(a)) => a,
            _ => return Err(Fail(input.clone())),
        };
        let len = i64::try_from(arr.len()).unwrap_or(i64::MAX);
        let mut start = s.start.unwrap_or(0);
        if start < 0 {
            start = start.wrapping_add(len);
        }
        let mut end = s.end.unwrap_or(len);
        if end < 0 || (end == 0 && s.derived) {
            end = end.wrapping_add(len);
        }
        if end == start {
            // client-go returns at the first empty selection, dropping later inputs.
            return Ok(out);
        }
        if start < 0 || start >= len || end < 0 || end > len || start > end {
            return Err(Fail(input.clone()));
        }
        let step = match s.step {
            Some(step) if step <= 0 => return Err(Fail(input.clone())),
            Some(step) => usize::try_from(step).unwrap_or(usize::MAX),
            None => 1,
        };
        let range = usize::try_from(start).unwrap_or(0)..usize::try_from(end).unwrap_or(0);
        out.extend(arr[range].iter().step_by(step).map(Item::Doc));
    }
    Ok(out)
}

fn filter<'a, 'p>(f: &'p Filter, input: Vec<Item<'a, 'p>>) -> Walk<'a, 'p> {
    let mut out = Vec::new();
    for it in &input {
        let Item::Doc(Value::Array(arr)) = it else {
            return Err(Fail(input.clone()));
        };
        for elem in arr {
            if f.op == Op::Exists {
                let (Ok(found) | Err(Fail(found))) = walk_list(&f.left, vec![Item::Doc(elem)]);
                if !found.is_empty() {
                    out.push(Item::Doc(elem));
                }
                continue;
            }
            let Some(left) = operand(&f.left, elem).map_err(|()| Fail(input.clone()))? else {
                continue;
            };
            let Some(right) = operand(&f.right, elem).map_err(|()| Fail(input.clone()))? else {
                continue;
            };
            match compare(f.op, basic(left), basic(right)) {
                Some(true) => out.push(Item::Doc(elem)),
                Some(false) => {}
                None => return Err(Fail(out)),
            }
        }
    }
    Ok(out)
}

/// One side of a comparison for `elem`: `Ok(None)` when it selects nothing (the element is
/// skipped), `Err` when client-go fails (walk error, or more than one value).
fn operand<'a, 'p>(nodes: &'p [Node], elem: &'a Value) -> Result<Option<Item<'a, 'p>>, ()> {
    match walk_list(nodes, vec![Item::Doc(elem)])
        .map_err(|_| ())?
        .as_slice()
    {
        [] => Ok(None),
        [one] => Ok(Some(*one)),
        _ => Err(()),
    }
}

/// A comparable scalar, as Go's text/template classifies it. JSON integers that fit `i64`
/// are ints, every other number is a float (the API server decodes them that way).
#[derive(Clone, Copy)]
enum Basic<'s> {
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(&'s str),
}

fn basic<'x>(it: Item<'x, 'x>) -> Option<Basic<'x>> {
    Some(match it {
        Item::Doc(Value::Bool(b)) => Basic::Bool(*b),
        Item::Doc(Value::Number(n)) => n
            .as_i64()
            .map_or_else(|| Basic::Float(n.as_f64().unwrap_or(0.0)), Basic::Int),
        Item::Doc(Value::String(s)) => Basic::Str(s),
        Item::Doc(_) => return None,
        Item::Lit(Lit::Bool(b)) => Basic::Bool(*b),
        Item::Lit(Lit::Int(i)) => Basic::Int(*i),
        Item::Lit(Lit::Float(bits)) => Basic::Float(f64::from_bits(*bits)),
        Item::Lit(Lit::Str(s)) => Basic::Str(s),
    })
}

/// client-go's comparison: `None` (an evaluation error) for null/array/object operands,
/// mismatched kinds (an int never equals a float) and ordering booleans.
fn compare(op: Op, l: Option<Basic>, r: Option<Basic>) -> Option<bool> {
    let (l, r) = (l?, r?);
    let eq = || match (l, r) {
        (Basic::Bool(a), Basic::Bool(b)) => Some(a == b),
        (Basic::Int(a), Basic::Int(b)) => Some(a == b),
        (Basic::Float(a), Basic::Float(b)) => Some(a == b),
        (Basic::Str(a), Basic::Str(b)) => Some(a == b),
        _ => None,
    };
    let lt = || match (l, r) {
        (Basic::Int(a), Basic::Int(b)) => Some(a < b),
        (Basic::Float(a), Basic::Float(b)) => Some(a < b),
        (Basic::Str(a), Basic::Str(b)) => Some(a < b),
        _ => None,
    };
    let le = || if lt()? { Some(true) } else { eq() };
    match op {
        Op::Eq => eq(),
        Op::Ne => eq().map(|b| !b),
        Op::Lt => lt(),
        Op::Le => le(),
        Op::Gt => le().map(|b| !b),
        Op::Ge => lt().map(|b| !b),
        Op::Exists | Op::Unknown => None,
    }
}

#[cfg(test)]
mod tests;
