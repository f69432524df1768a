//! Splits a command line of the demo's simulated shell into words as `sh` does for the
//! simple cases it answers: blanks separate, `'…'` is literal, `"…"` and bare words expand
//! `$NAME`, `${NAME}`, `$?`, `$0`, backslash escapes one character, `;` ends a command.
//! Pure; no globbing, no pipes, no redirections.

/// One lexical item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Word {
    /// A word after quote removal and expansion.
    Text(String),
    /// `;`.
    Separator,
}

/// The words of `line`; `var` expands a variable name (unset ones expand to `""`). `Err`
/// names an unterminated quote.
pub fn split(line: &str, var: &dyn Fn(&str) -> String) -> Result<Vec<Word>, String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    // A word was started (so `''` is an empty word, not none).
    let mut started = false;
    let mut chars = line.chars().peekable();
    let flush = |cur: &mut String, started: &mut bool, out: &mut Vec<Word>| {
        if *started {
            out.push(Word::Text(std::mem::take(cur)));
            *started = false;
        }
    };
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' => flush(&mut cur, &mut started, &mut out),
            ';' => {
                flush(&mut cur, &mut started, &mut out);
                out.push(Word::Separator);
            }
            '\\' => {
                started = true;
                if let Some(n) = chars.next() {
                    cur.push(n);
                }
            }
            '\'' => {
                started = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(ch) => cur.push(ch),
                        None => return Err("unterminated quoted string".into()),
                    }
                }
            }
            '"' => {
                started = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(n @ ('"' | '\\' | '$')) => cur.push(n),
                            Some(n) => {
                                cur.push('\\');
                                cur.push(n);
                            }
                            None => return Err("unterminated quoted string".into()),
                        },
                        Some('$') => cur.push_str(&dollar(&mut chars, var)),
                        Some(ch) => cur.push(ch),
                        None => return Err("unterminated quoted string".into()),
                    }
                }
            }
            '$' => {
                started = true;
                cur.push_str(&dollar(&mut chars, var));
            }
            ch => {
                started = true;
                cur.push(ch);
            }
        }
    }
    flush(&mut cur, &mut started, &mut out);
    Ok(out)
}

/// The expansion after a `$` (a lone `$` stays itself).
fn dollar(chars: &mut std::iter::Peekable<std::str::Chars<'_>>, var: &dyn Fn(&str) -> String) -> String {
    match chars.peek().copied() {
        Some('{') => {
            chars.next();
            let name: String = chars.by_ref().take_while(|c| *c != '}').collect();
            var(&name)
        }
        Some(c @ ('?' | '0' | '$')) => {
            chars.next();
            var(&c.to_string())
        }
        Some(c) if c == '_' || c.is_ascii_alphabetic() => {
            let mut name = String::new();
            while let Some(&c) = chars.peek() {
                if c == '_' || c.is_ascii_alphanumeric() {
                    name.push(c);
                    chars.next();
                } else {
                    break;
                }
            }
            var(&name)
        }
        _ => "$".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(line: &str) -> Vec<String> {
        let var = |n: &str| match n {
            "A" => "x y".to_owned(),
            "?" => "3".to_owned(),
            _ => String::new(),
        };
        split(line, &var)
            .unwrap()
            .into_iter()
            .map(|w| match w {
                Word::Text(t) => t,
                Word::Separator => ";".into(),
            })
            .collect()
    }

    #[test]
    fn quotes_escapes_and_variables() {
        assert_eq!(
            texts("echo  a\\ b 'c d' \"$A!\" ${A}$?"),
            ["echo", "a b", "c d", "x y!", "x y3"]
        );
        assert_eq!(texts("exit 0;echo ''"), ["exit", "0", ";", "echo", ""]);
        assert_eq!(texts("echo $ $UNSET."), ["echo", "$", "."]);
        assert!(split("echo 'open", &|_| String::new()).is_err());
    }
}
