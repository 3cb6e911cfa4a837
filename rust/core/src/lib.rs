//! urlsift's native core, without Python: the fullmatch executor of the grammars.
//!
//! The grammar is stated once, in `src/urlsift/grammar/*.py`; `urlsift.grammar.export` renders its
//! rule trees into patterns of the `regex` crate's dialect (greedy repetition, no look-around, one
//! name per group) and hands them here, named by production or scheme. This crate compiles each
//! once and runs it; it knows no production by name and restates no rule.
#![forbid(unsafe_code)]

pub mod dates;
pub mod extract;
pub mod flowed;
pub mod hosts;
pub mod mail;
pub mod mbox;
pub mod mime;
pub mod rejoin;
pub mod rows;
pub mod scan;
mod scan_tables;
pub mod text;
pub mod write;
mod write_tables;

use std::collections::HashMap;
use std::fmt;

use regex::{Regex, RegexBuilder};

/// The most memory one production's compiled program may take. The largest (the modern profile's
/// IRI rules, whose classes span most of Unicode) stay well under it; a pattern over it is refused
/// at build time rather than run slowly.
pub const SIZE_LIMIT: usize = 32 << 20;

/// The lazy DFA's cache per production (it is rebuilt when full: slower, never wrong).
pub const DFA_SIZE_LIMIT: usize = 8 << 20;

/// Why a plan could not be built; each names the production it is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GrammarError {
    /// The `regex` crate refused the pattern (its syntax, or a size limit).
    Refused { production: String, reason: String },
    /// The pattern's groups are not the ones the plan maps to parts.
    Groups { production: String, reason: String },
    /// A production given twice.
    Duplicate { production: String },
}

impl fmt::Display for GrammarError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GrammarError::Refused { production, reason } => {
                write!(f, "the core refused the pattern of {production}: {reason}")
            }
            GrammarError::Groups { production, reason } => {
                write!(f, "the pattern of {production} has the wrong groups: {reason}")
            }
            GrammarError::Duplicate { production } => write!(f, "{production} is given twice"),
        }
    }
}

impl std::error::Error for GrammarError {}

/// A name the grammar does not hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownProduction(pub String);

impl fmt::Display for UnknownProduction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "no production or scheme named {:?}", self.0)
    }
}

impl std::error::Error for UnknownProduction {}

/// `pattern` compiled to match the whole of a text, within the size limits.
pub(crate) fn fullmatcher(pattern: &str) -> Result<Regex, regex::Error> {
    RegexBuilder::new(&format!(r"\A(?:{pattern})\z"))
        .size_limit(SIZE_LIMIT)
        .dfa_size_limit(DFA_SIZE_LIMIT)
        .build()
}

/// One compiled production: its regex, anchored at both ends, and which groups hold which part.
#[derive(Debug)]
struct Production {
    regex: Regex,
    /// Part name -> the groups that may hold it (several alternatives may capture one part).
    parts: Vec<(String, Vec<usize>)>,
}

/// Byte spans of the groups of one match; index 0 is the whole match.
pub type Spans = Vec<Option<(usize, usize)>>;

/// The compiled productions of one plan.
#[derive(Debug, Default)]
pub struct Grammar {
    productions: HashMap<String, Production>,
}

impl Grammar {
    pub fn new() -> Self {
        Self::default()
    }

    /// Compile `pattern` as `production`. Its groups must be named `g0`, `g1`, ... in order, and
    /// `parts[i]` is the part group `gi` captures: the group names stay unique in the pattern,
    /// as the crate requires, while parts may repeat.
    pub fn add(&mut self, production: &str, pattern: &str, parts: &[String]) -> Result<(), GrammarError> {
        if self.productions.contains_key(production) {
            return Err(GrammarError::Duplicate { production: production.to_owned() });
        }
        // Fullmatch: the executor's one way to run a production, whatever the pattern's text. No
        // case-insensitive flag: literals are case-sensitive (D3); a scheme's case (D2) is read
        // in Python before a production runs.
        let regex = fullmatcher(pattern).map_err(|error| GrammarError::Refused {
            production: production.to_owned(),
            reason: error.to_string(),
        })?;
        let names: Vec<Option<&str>> = regex.capture_names().skip(1).collect();
        if names.len() != parts.len() {
            return Err(GrammarError::Groups {
                production: production.to_owned(),
                reason: format!("{} groups for {} parts", names.len(), parts.len()),
            });
        }
        let mut by_part: Vec<(String, Vec<usize>)> = Vec::new();
        for (index, (name, part)) in names.iter().zip(parts).enumerate() {
            if *name != Some(format!("g{index}").as_str()) {
                return Err(GrammarError::Groups {
                    production: production.to_owned(),
                    reason: format!("group {} is named {name:?}, not g{index}", index + 1),
                });
            }
            match by_part.iter_mut().find(|(known, _)| known == part) {
                Some((_, groups)) => groups.push(index + 1),
                None => by_part.push((part.clone(), vec![index + 1])),
            }
        }
        self.productions.insert(production.to_owned(), Production { regex, parts: by_part });
        Ok(())
    }

    fn get(&self, production: &str) -> Result<&Production, UnknownProduction> {
        self.productions.get(production).ok_or_else(|| UnknownProduction(production.to_owned()))
    }

    /// The names this grammar holds, sorted.
    pub fn productions(&self) -> Vec<&str> {
        let mut names: Vec<&str> = self.productions.keys().map(String::as_str).collect();
        names.sort_unstable();
        names
    }

    /// Whether the whole of `text` is `production`.
    pub fn fullmatch(&self, production: &str, text: &str) -> Result<bool, UnknownProduction> {
        Ok(self.get(production)?.regex.is_match(text))
    }

    /// The groups' byte spans when the whole of `text` is `production`; None when it is not.
    pub fn captures(&self, production: &str, text: &str) -> Result<Option<Spans>, UnknownProduction> {
        let regex = &self.get(production)?.regex;
        let mut locations = regex.capture_locations();
        if regex.captures_read(&mut locations, text).is_none() {
            return Ok(None);
        }
        Ok(Some((0..locations.len()).map(|group| locations.get(group)).collect()))
    }

    /// Part name -> the groups (indexes into `Spans`) that may capture it.
    pub fn parts(&self, production: &str) -> Result<&[(String, Vec<usize>)], UnknownProduction> {
        Ok(&self.get(production)?.parts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grammar(pattern: &str, parts: &[&str]) -> Result<Grammar, GrammarError> {
        let mut grammar = Grammar::new();
        let parts: Vec<String> = parts.iter().map(|part| (*part).to_owned()).collect();
        grammar.add("p", pattern, &parts)?;
        Ok(grammar)
    }

    #[test]
    fn fullmatch_is_anchored_at_both_ends() {
        let grammar = grammar("a|ab", &[]).unwrap();
        assert!(grammar.fullmatch("p", "ab").unwrap());
        assert!(grammar.fullmatch("p", "a").unwrap());
        assert!(!grammar.fullmatch("p", "abc").unwrap());
        assert!(!grammar.fullmatch("p", "xab").unwrap());
    }

    #[test]
    fn captures_give_byte_spans_and_parts_may_repeat() {
        let grammar = grammar("(?P<g0>x+)|(?P<g1>y+)", &["run", "run"]).unwrap();
        assert_eq!(grammar.captures("p", "yy").unwrap(), Some(vec![Some((0, 2)), None, Some((0, 2))]));
        assert_eq!(grammar.captures("p", "xy").unwrap(), None);
        assert_eq!(grammar.parts("p").unwrap(), &[("run".to_owned(), vec![1, 2])]);
    }

    #[test]
    fn a_long_text_is_captured_all_the_same() {
        let grammar = grammar("(?P<g0>a*)(?P<g1>b?)", &["run", "end"]).unwrap();
        let text = "a".repeat(4 << 20) + "b";
        let spans = grammar.captures("p", &text).unwrap().unwrap();
        assert_eq!(spans, vec![Some((0, text.len())), Some((0, 4 << 20)), Some((4 << 20, text.len()))]);
        assert_eq!(grammar.captures("p", &(text + "a")).unwrap(), None);
    }

    #[test]
    fn a_refused_pattern_names_its_production() {
        // Look-around is what the Python dialect has and this one does not.
        let error = grammar("(?=a)a", &[]).unwrap_err();
        assert!(matches!(&error, GrammarError::Refused { production, .. } if production == "p"));
        assert!(error.to_string().contains("pattern of p"));
    }

    #[test]
    fn a_pattern_over_the_size_limit_is_refused() {
        let error = grammar("(?:a{1000}){100000}", &[]).unwrap_err();
        assert!(matches!(error, GrammarError::Refused { .. }), "{error}");
    }

    #[test]
    fn groups_must_be_the_plans() {
        assert!(matches!(grammar("(?P<g0>a)", &[]), Err(GrammarError::Groups { .. })));
        assert!(matches!(grammar("(?P<host>a)", &["host"]), Err(GrammarError::Groups { .. })));
        assert!(matches!(grammar("(a)", &["host"]), Err(GrammarError::Groups { .. })));
    }

    #[test]
    fn unknown_names_are_errors() {
        let grammar = grammar("a", &[]).unwrap();
        assert_eq!(grammar.fullmatch("q", "a"), Err(UnknownProduction("q".to_owned())));
    }
}
