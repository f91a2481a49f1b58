//! The IR's text form and checker, on hand-written IR.

use subst::ir::{check, parse, text};

const WELL_FORMED: &str = r#"
component counter
  global n: i32 = 0
  global buf: [u8; 2] = [7, 255]
  local $1: i32
  family out: u8 [0..3]
  entry l0
  exit l4
  l0 -> l1: havoc $1  @ "c.c" 3:5-3:20 "x = nondet_int()"
  l1 -> l2: assume ($1 >= 0)  @ "c.c" 4:9-4:15 "x >= 0"
  l1 -> l4: assume ($1 < 0)
  l2 -> l3: check (($1 >= 0) && ($1 < 2)) index_out_of_bounds
  l3 -> l0: event out!buf[$1]  @ "c.c" 5:5-5:17 "out(buf[x])" via f at "c.c" 9:1-9:4, g at "c.c" 12:3-12:6
  l3 -> l4: n = (i32)(-(5u8) >> 1u8)
"#;

#[test]
fn text_form_round_trips() {
    let comp = parse::component(WELL_FORMED).expect("parses");
    assert!(check::check(&comp).is_empty(), "{:?}", check::check(&comp));
    let printed = text::component(&comp);
    let again = parse::component(&printed).expect("printed text parses");
    assert_eq!(comp, again);
    assert_eq!(printed, text::component(&again));
}

#[test]
fn variables_may_be_named_like_keywords() {
    let src = "component c\n  global check: i32 = 0\n  global havoc: i32 = 1\n  entry l0\n  exit l1\n  l0 -> l1: check = havoc\n";
    let comp = parse::component(src).expect("parses");
    assert!(check::check(&comp).is_empty());
    assert_eq!(text::component(&comp), src);
}

#[test]
fn checker_reports_every_problem_at_once() {
    let src = r#"
component broken
  global g: i32 = 4294967295
  global a: [i8; 2] = [1]
  local x: u8
  family f: i8 [5..1]
  entry l0
  exit l3
  l0 -> l1: x = (g + 1)
  l1 -> l2: event f!x
  l2 -> l3: event h?x
  l3 -> l0: skip
  l5 -> l0: assume a
  l2 -> l2: x = a[(g == 1u32)]
"#;
    let comp = parse::component(src).expect("the syntax is fine");
    let problems: Vec<String> = check::check(&comp).iter().map(|p| p.to_string()).collect();
    insta::assert_snapshot!(problems.join("\n"));
}

#[test]
fn syntax_errors_point_at_line_and_column() {
    let err = parse::component("component c\n  entry l0\n  exit l1\n  l0 -> l1: x = 1\n").unwrap_err();
    assert_eq!((err.line, err.col), (4, 13));
    assert!(err.message.contains("unknown variable `x`"), "{err}");
    let err = parse::component("component c\n  global g: i32 = 0\n  entry l0\n  exit l1\n  l0 -> l1: g = (g +)\n")
        .unwrap_err();
    assert_eq!(err.line, 5);
}
