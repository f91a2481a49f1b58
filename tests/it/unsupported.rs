//! Constructs outside the supported subset are rejected with a located diagnostic, rendered
//! with the source line, and the binary exits with code 2. Each file under
//! `examples-c/unsupported/` shows one construct and names it in a `// error:` header.

use crate::common;

use std::path::PathBuf;
use std::process::Command;

use subst::front::{self, FrontOptions};

fn unsupported_examples() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir("examples-c/unsupported")
        .expect("examples-c/unsupported exists")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    files.sort();
    files
}

/// The component the file's header names.
fn component_of(path: &PathBuf) -> String {
    let text = std::fs::read_to_string(path).expect("readable");
    let header = common::header::parse_header(&text).expect("a header");
    assert!(header.error.is_some(), "{}: no `// error:` line", path.display());
    header.components.first().cloned().expect("a component")
}

#[test]
fn each_unsupported_construct_has_a_located_diagnostic() {
    let files = unsupported_examples();
    assert!(files.len() >= 5, "expected examples of unsupported constructs");
    for path in files {
        let component = component_of(&path);
        let result =
            front::load(std::slice::from_ref(&path), &FrontOptions::default()).and_then(|p| p.lower(&component));
        let diag = match result {
            Ok(_) => panic!("{} was accepted", path.display()),
            Err(d) => d,
        };
        let span = diag.span.as_ref().unwrap_or_else(|| panic!("{}: no location in {diag}", path.display()));
        assert_eq!(PathBuf::from(&span.file), path, "the diagnostic names the file");
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        insta::assert_snapshot!(name, diag.render(false));
    }
}

#[test]
fn the_binary_exits_2_with_file_line_and_column() {
    let path = unsupported_examples().into_iter().next().expect("an unsupported example");
    let component = component_of(&path);
    let out = Command::new(env!("CARGO_BIN_EXE_subst"))
        .args(["show", "ir", "--component", &component])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains(&format!("{}:", path.display())), "{stderr}");
}

#[test]
fn malformed_c_is_a_syntax_error_with_a_location() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.c");
    std::fs::write(&path, "void comp(void) {\n  int x = ;\n}\n").unwrap();
    let err = front::load(std::slice::from_ref(&path), &FrontOptions::default()).err().expect("rejected");
    let span = err.span.expect("located");
    assert_eq!((span.line, span.col), (2, 11));
    assert!(err.message.contains("syntax error"));
}

#[test]
fn missing_files_and_components_are_usage_errors() {
    let out = Command::new(env!("CARGO_BIN_EXE_subst")).args(["show", "ir", "no/such/file.c"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a.c");
    std::fs::write(&path, "void comp(void) { }\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_subst"))
        .args(["show", "ir", "--component", "nope"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no function `nope`"));
}
