//! C that gcc rejects (or whose value gcc leaves undefined) is rejected by subst too, with the
//! location gcc gives. Each file under `examples-c/invalid/` states in its `// error:` header the
//! line, the column and the message.

use crate::common;

use std::path::PathBuf;

use subst::front::{self, FrontOptions};

#[test]
fn each_invalid_program_is_rejected_where_gcc_rejects_it() {
    let mut files: Vec<PathBuf> = std::fs::read_dir("examples-c/invalid")
        .expect("examples-c/invalid exists")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    files.sort();
    assert!(files.len() >= 6, "expected the invalid examples");
    for path in files {
        let text = std::fs::read_to_string(&path).expect("readable");
        let header = common::header::parse_header(&text).expect("a header");
        let expected = header.error.clone().unwrap_or_else(|| panic!("{}: no `// error:` line", path.display()));
        let (position, message) = expected.split_once(' ').expect("`line:col message`");
        let component = header.components.first().cloned().expect("a component");
        let err = front::load(std::slice::from_ref(&path), &FrontOptions::default())
            .and_then(|p| p.lower(&component))
            .err()
            .unwrap_or_else(|| panic!("{} was accepted", path.display()));
        let span = err.span.as_ref().unwrap_or_else(|| panic!("{}: no location", path.display()));
        assert_eq!(format!("{}:{}", span.line, span.col), position, "{}: {}", path.display(), err.message);
        assert_eq!(err.message, message, "{}", path.display());
    }
}
