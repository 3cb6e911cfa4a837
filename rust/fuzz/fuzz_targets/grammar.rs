//! The grammar's fullmatch executor with the real patterns (`urlsift.grammar.export`'s plans of
//! both profiles, dumped by run.sh into `$URLSIFT_FUZZ_PLANS`): the first byte picks a production,
//! the rest is the text (lossy UTF-8). Nothing may panic; `captures` matches exactly when
//! `fullmatch` does, its whole match is the text and every group lies on character boundaries
//! inside it.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use urlsift_core::Grammar;

/// Each profile's compiled plan and its productions, in order.
fn grammars() -> &'static [(Grammar, Vec<String>)] {
    static GRAMMARS: OnceLock<Vec<(Grammar, Vec<String>)>> = OnceLock::new();
    GRAMMARS.get_or_init(|| {
        let folder =
            std::env::var("URLSIFT_FUZZ_PLANS").expect("URLSIFT_FUZZ_PLANS: the folder of the plans");
        ["strict", "modern"]
            .iter()
            .map(|profile| {
                let path = format!("{folder}/{profile}.plan");
                let plan = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
                let mut grammar = Grammar::new();
                let mut names = Vec::new();
                // One production a line: name, parts (comma-separated), pattern; tab-separated.
                for line in plan.lines() {
                    let mut fields = line.splitn(3, '\t');
                    let (Some(name), Some(parts), Some(pattern)) =
                        (fields.next(), fields.next(), fields.next())
                    else {
                        panic!("{path}: a line of fewer than three fields");
                    };
                    let parts: Vec<String> = if parts.is_empty() {
                        Vec::new()
                    } else {
                        parts.split(',').map(str::to_owned).collect()
                    };
                    grammar.add(name, pattern, &parts).unwrap_or_else(|e| panic!("{e}"));
                    names.push(name.to_owned());
                }
                (grammar, names)
            })
            .collect()
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else { return };
    let text = String::from_utf8_lossy(rest);
    let grammars = grammars();
    let Some((grammar, names)) = grammars.get(usize::from(pick & 1)) else { return };
    let Some(name) = names.get(usize::from(pick >> 1) % names.len().max(1)) else { return };
    let matched = grammar.fullmatch(name, &text).expect("a production of the plan");
    let captures = grammar.captures(name, &text).expect("a production of the plan");
    assert_eq!(matched, captures.is_some(), "{name}: fullmatch and captures disagree on {text:?}");
    if let Some(spans) = captures {
        assert_eq!(spans.first().copied().flatten(), Some((0, text.len())), "{name}: not the whole text");
        for (start, end) in spans.iter().flatten() {
            assert!(start <= end && *end <= text.len(), "{name}: group {start}..{end}");
            assert!(
                text.is_char_boundary(*start) && text.is_char_boundary(*end),
                "{name}: inside a character"
            );
        }
    }
});
