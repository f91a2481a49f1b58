//! Preprocessed `.i` files are parsed as they are, not preprocessed again, and the locations
//! subst reports are lines of the `.i` file itself.

use subst::front::{self, FrontOptions};

/// A `.i` file whose line markers name a file that does not exist here, as in SV-COMP tasks.
const TASK: &str = r#"# 1 "/tmp/build/task.c"
# 1 "<built-in>"
# 1 "/tmp/build/task.c"
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
# 12 "/tmp/build/task.c"
  if (x == 3) reach_error();
  return 0;
}
"#;

#[test]
fn a_preprocessed_file_is_parsed_without_preprocessing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("task.i");
    std::fs::write(&path, TASK).unwrap();
    let program = front::load(std::slice::from_ref(&path), &FrontOptions::default()).unwrap();
    assert_eq!(program.default_components(), vec!["main".to_string()]);
    let comp = program.lower("main").unwrap();
    assert_eq!(comp.alphabet(), vec!["reach_error".to_string()]);
}

#[test]
fn locations_in_a_preprocessed_file_are_its_own_lines() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("task.i");
    std::fs::write(&path, TASK.replace("return 0;", "return 1 / 0;")).unwrap();
    let program = front::load(std::slice::from_ref(&path), &FrontOptions::default()).unwrap();
    let comp = program.lower("main").unwrap();
    let origin = comp.edges.iter().find_map(|e| e.origin.as_ref().filter(|o| o.text.contains("1 / 0"))).unwrap();
    assert_eq!(origin.span.file, path.display().to_string());
    assert_eq!((origin.span.line, origin.span.col), (10, 10));
}

#[test]
fn a_syntax_error_in_a_preprocessed_file_is_located_in_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.i");
    std::fs::write(&path, "# 1 \"elsewhere.c\"\nint main(void) {\n  int x = ;\n}\n").unwrap();
    let err = front::load(std::slice::from_ref(&path), &FrontOptions::default()).err().expect("rejected");
    let span = err.span.expect("located");
    assert_eq!(span.file, path.display().to_string());
    assert_eq!((span.line, span.col), (3, 11));
}
