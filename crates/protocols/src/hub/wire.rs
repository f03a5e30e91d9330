//! The Hub line syntax: `command name=value name="two words" flag`, both ways.
//!
//! A name is any run of printable characters other than blanks, `=` and `"`;
//! a value is a name or a double-quoted string (which cannot itself hold a
//! double quote: the protocol has no escape). An argument without `=` is a flag.

use std::fmt;

/// One line, split into its command and arguments (in order).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub command: String,
    /// `(name, value)`; a flag's value is `None`.
    pub args: Vec<(String, Option<String>)>,
}

/// Why a line could not even be split into a command and arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError(pub String);

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SyntaxError {}

fn is_name_char(c: char) -> bool {
    !c.is_control() && !c.is_whitespace() && c != '=' && c != '"'
}

impl Line {
    /// Splits a line. `Ok(None)` for a blank line.
    pub fn parse(text: &str) -> Result<Option<Line>, SyntaxError> {
        let mut scanner = Scanner {
            rest: text.trim_start(),
        };
        if scanner.rest.trim().is_empty() {
            return Ok(None);
        }
        let command = scanner.name().ok_or_else(|| {
            SyntaxError(format!(
                "a line starts with a command word, not {:?}",
                scanner.rest.chars().next().unwrap_or(' ')
            ))
        })?;
        let mut args = Vec::new();
        loop {
            scanner.skip_blanks();
            if scanner.rest.is_empty() {
                break;
            }
            let name = scanner.name().ok_or_else(|| {
                SyntaxError(format!(
                    "{command}: expected an argument name, found {:?}",
                    scanner.rest.chars().next().unwrap_or(' ')
                ))
            })?;
            scanner.skip_blanks();
            let value = if scanner.eat('=') {
                scanner.skip_blanks();
                Some(scanner.value(&command, &name)?)
            } else {
                None
            };
            args.push((name, value));
        }
        Ok(Some(Line { command, args }))
    }

    /// The value of an argument (`""` for a flag), if it is there.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.args
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_deref().unwrap_or(""))
    }

    /// Whether the argument is there, as a flag or with a value.
    pub fn has(&self, name: &str) -> bool {
        self.args.iter().any(|(key, _)| key == name)
    }
}

struct Scanner<'a> {
    rest: &'a str,
}

impl Scanner<'_> {
    fn skip_blanks(&mut self) {
        self.rest = self.rest.trim_start();
    }

    fn eat(&mut self, c: char) -> bool {
        match self.rest.strip_prefix(c) {
            Some(rest) => {
                self.rest = rest;
                true
            }
            None => false,
        }
    }

    fn name(&mut self) -> Option<String> {
        let end = self
            .rest
            .find(|c: char| !is_name_char(c))
            .unwrap_or(self.rest.len());
        if end == 0 {
            return None;
        }
        let (name, rest) = self.rest.split_at(end);
        self.rest = rest;
        Some(name.to_string())
    }

    fn value(&mut self, command: &str, name: &str) -> Result<String, SyntaxError> {
        if self.eat('"') {
            let Some(end) = self.rest.find('"') else {
                return Err(SyntaxError(format!(
                    "{command}: the value of {name} opens a double quote that is never closed"
                )));
            };
            let value = self.rest[..end].to_string();
            self.rest = &self.rest[end + 1..];
            return Ok(value);
        }
        self.name().ok_or_else(|| {
            SyntaxError(format!(
                "{command}: {name}= has no value (quote an empty or spaced value: {name}=\"...\")"
            ))
        })
    }
}

/// A value as the protocol writes it: bare when it is a name, otherwise in
/// double quotes (any double quote inside becomes a single quote, since the
/// protocol cannot escape it).
pub fn quote(value: &str) -> String {
    if !value.is_empty() && value.chars().all(is_name_char) {
        value.to_string()
    } else {
        format!("\"{}\"", value.replace('"', "'").replace(['\n', '\r'], " "))
    }
}

/// `command a=1 b="x y"`.
pub fn format_line(command: &str, args: &[(&str, &str)]) -> String {
    let mut line = command.to_string();
    for (name, value) in args {
        line.push(' ');
        line.push_str(name);
        line.push('=');
        line.push_str(&quote(value));
    }
    line
}

/// `error message="..."`.
pub fn error_line(message: &str) -> String {
    format_line("error", &[("message", message)])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Line {
        Line::parse(text).unwrap().unwrap()
    }

    #[test]
    fn commands_values_quotes_and_flags() {
        let line = parse("pos pos=Wbbbb moves=\"32-28 19-23\"");
        assert_eq!(line.command, "pos");
        assert_eq!(line.get("pos"), Some("Wbbbb"));
        assert_eq!(line.get("moves"), Some("32-28 19-23"));
        let line = parse("  level   infinite  ");
        assert_eq!(line.command, "level");
        assert!(line.has("infinite"));
        assert_eq!(line.get("infinite"), Some(""));
        let line = parse("level moves=9 time = 291.587 inc=\"\"");
        assert_eq!(line.get("time"), Some("291.587"));
        assert_eq!(line.get("inc"), Some(""));
        assert_eq!(line.get("depth"), None);
        assert_eq!(Line::parse("   ").unwrap(), None);
    }

    #[test]
    fn broken_lines_are_refused_with_a_reason() {
        let err = Line::parse("pos pos=\"Wbbb").unwrap_err();
        assert!(err.0.contains("never closed"), "{err}");
        let err = Line::parse("level depth=").unwrap_err();
        assert!(err.0.contains("no value"), "{err}");
        let err = Line::parse("=x").unwrap_err();
        assert!(err.0.contains("command word"), "{err}");
        let err = Line::parse("go =think").unwrap_err();
        assert!(err.0.contains("argument name"), "{err}");
    }

    #[test]
    fn replies_are_byte_exact() {
        assert_eq!(
            format_line("id", &[("name", "plateau"), ("version", "0.1.0")]),
            "id name=plateau version=0.1.0"
        );
        assert_eq!(
            format_line("done", &[("move", "28x19x23"), ("ponder", "14x23x19")]),
            "done move=28x19x23 ponder=14x23x19"
        );
        assert_eq!(
            error_line("unknown command \"foo\""),
            "error message=\"unknown command 'foo'\""
        );
        assert_eq!(format_line("info", &[("pv", "")]), "info pv=\"\"");
        assert_eq!(quote("a=b"), "\"a=b\"");
    }
}
