//! A seeded generator of random C programs in the subset that subst supports.
//!
//! The programs feed the differential test of the interpreter against gcc, so each one must have
//! exactly one behaviour for a given input list, and gcc's must be it. Everything undefined or
//! unspecified in C is therefore left out by construction:
//!
//! - divisors are always `(((d) & 8) ? -(((d) & 7) + 2) : (((d) & 7) + 1))`, never 0 or -1;
//! - shift counts are `((s) & 15)`, and a left shift's left operand is unsigned or masked to 16
//!   non-negative bits, so it never shifts a negative value or into the sign bit;
//! - array indices are `a[(e) & 7]` on arrays of 8, and pointer walks over them step by 1, 2 or
//!   4, so no pointer is formed beyond one past the end;
//! - every local is initialised where it is declared, and no `goto` skips a declaration that is
//!   read later (labels only ever end a block);
//! - loops are bounded by counters that only their own increment writes, placed where `continue`
//!   cannot skip it;
//! - calls, events, nondet reads, assignments and `++`/`--` only occur as whole statements, with
//!   pure arguments, so no expression has two side effects or reads what it also writes (other
//!   than `x = x + ...`, which C sequences); a helper's result is only stored into a variable or an
//!   element with a constant index, since the helper may write the globals an index would read.
//!
//! Signed overflow does happen: it wraps, as under `gcc -fwrapv`, which is what subst models.
//! Enum variables may hold values that no enumerator names; gcc gives such an enum the type
//! `unsigned int`.
//!
//! Every iteration of a component's outer loop begins with the event `tick`, so every run ends
//! (by the event limit at the latest).

use super::native::{CTy, EventDecl};
use std::collections::BTreeSet;
use std::fmt::Write as _;

/// One generated program.
#[derive(Clone, Debug)]
pub struct GenProgram {
    /// The C source.
    pub source: String,
    /// The component to run (`comp`).
    pub component: String,
    /// The event functions the program declares and calls.
    pub events: Vec<EventDecl>,
}

/// The program for `seed`; the same seed always gives the same program.
pub fn program(seed: u64) -> GenProgram {
    Gen::new(seed).program()
}

/// Like [`program`], with structs and pointers as well: a struct with an array member, an array
/// of structs, helpers taking a pointer to a struct and returning a struct by value, pointers to
/// globals, into arrays and to structs (retargeted now and then among objects of their type),
/// pointer arithmetic and comparison inside one array, struct assignment.
///
/// Pointers always point to a live object of their own type, and a pointer into an array is
/// indexed with a mask that keeps it inside the array.
pub fn program_with_memory(seed: u64) -> GenProgram {
    let mut g = Gen::new(seed ^ 0x6d65_6d6f_7279);
    g.memory = Some(Memory::default());
    g.program()
}

/// What the memory statements of [`program_with_memory`] may use.
#[derive(Clone, Debug, Default)]
struct Memory {
    /// The element types of `struct rec`'s members `f0`, `f1`, `fa[8]` and `struct pair`'s `a`, `b`.
    rec: Vec<Ty>,
    pair: Vec<Ty>,
    /// Scalar globals, for `T *q1 = &g`, with their types.
    scalars: Vec<(String, Ty)>,
    /// The pointer `q1` and the type it points to, once declared.
    q1: Option<Ty>,
}

/// splitmix64 (Steele, Lea and Flood 2014): tiny, and independent of any crate's versions, so a
/// seed names the same program for good.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n`.
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// A number in `lo..=hi`.
    fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }

    /// True with probability `percent`/100.
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

/// The integer types the generator declares variables with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ty {
    Bool,
    Char,
    UChar,
    Short,
    UShort,
    Int,
    UInt,
    Long,
    ULong,
    Enum,
}

const SCALAR_TYPES: [Ty; 10] =
    [Ty::Bool, Ty::Char, Ty::UChar, Ty::Short, Ty::UShort, Ty::Int, Ty::UInt, Ty::Long, Ty::ULong, Ty::Enum];
const ARRAY_TYPES: [Ty; 7] = [Ty::Char, Ty::UChar, Ty::Short, Ty::Int, Ty::UInt, Ty::Long, Ty::ULong];
const PARAM_TYPES: [Ty; 4] = [Ty::Int, Ty::UInt, Ty::Char, Ty::Long];

impl Ty {
    fn c(self) -> &'static str {
        match self {
            Ty::Bool => "_Bool",
            Ty::Char => "char",
            Ty::UChar => "unsigned char",
            Ty::Short => "short",
            Ty::UShort => "unsigned short",
            Ty::Int => "int",
            Ty::UInt => "unsigned",
            Ty::Long => "long",
            Ty::ULong => "unsigned long",
            Ty::Enum => "enum mode",
        }
    }

    /// Whether `x <<= ((s) & 15)` is defined for every value of `x`: true when `x` is unsigned
    /// after promotion, or promotes to `int` from a type whose values are non-negative and shifted
    /// by at most 15 still fit.
    fn may_shift_left(self) -> bool {
        matches!(self, Ty::Bool | Ty::UChar | Ty::UShort | Ty::UInt | Ty::ULong | Ty::Enum)
    }
}

/// Literals in many spellings, with the types C gives them under LP64.
const LITERALS: [&str; 34] = [
    "0",
    "1",
    "2",
    "3",
    "5",
    "7",
    "8",
    "10",
    "42",
    "100",
    "127",
    "128",
    "255",
    "256",
    "1000",
    "32767",
    "65535",
    "0x7fffffff",
    "0x80000000",
    "2147483647",
    "2147483648",
    "4294967295u",
    "0xffffffffu",
    "10L",
    "0777",
    "017",
    "'a'",
    "'\\n'",
    "1UL",
    "0xffUL",
    "9223372036854775807L",
    "(-2147483647 - 1)",
    "(-1)",
    "(-128)",
];

/// Event functions the programs may call.
const PLAIN_EVENTS: [&str; 3] = ["ev_a", "ev_b", "ev_c"];
const SEND_EVENTS: [(&str, CTy); 4] =
    [("out", CTy::Int), ("outu", CTy::ULong), ("outc", CTy::Char), ("outs", CTy::UShort)];
const RECV_EVENTS: [(&str, CTy); 4] = [("in", CTy::Int), ("inu", CTy::UInt), ("inch", CTy::Char), ("inl", CTy::Long)];
const NONDET: [(&str, &str); 10] = [
    ("int", "int"),
    ("uint", "unsigned int"),
    ("char", "char"),
    ("uchar", "unsigned char"),
    ("short", "short"),
    ("ushort", "unsigned short"),
    ("long", "long"),
    ("ulong", "unsigned long"),
    ("bool", "_Bool"),
    ("unsigned", "unsigned int"),
];

#[derive(Clone, Debug)]
struct Var {
    name: String,
    ty: Ty,
    array: bool,
    /// False for loop counters, which only their own increment writes.
    writable: bool,
    /// For an array, the mask that keeps an index inside it (7 for the arrays of 8; less for a
    /// pointer into the middle of one).
    mask: u32,
    /// Reached through a pointer: never the target of a helper's result, which may write what
    /// the pointer points to (C would leave the order unspecified, and subst rejects it).
    deref: bool,
}

#[derive(Clone, Debug)]
struct Helper {
    name: String,
    params: Vec<Ty>,
}

/// A label that ends an open block; `used` once a `goto` targets it.
struct Label {
    name: String,
    used: bool,
}

/// Where the statement being generated sits.
#[derive(Clone, Copy)]
struct Ctx {
    depth: usize,
    /// Inside a loop, so `continue` is allowed.
    in_loop: bool,
    /// Inside a loop or a switch, so `break` is allowed.
    breakable: bool,
    /// `Some(ty)` in a helper returning `ty`, `None` in the component.
    returns: Option<Ty>,
}

struct Gen {
    rng: Rng,
    /// Visible variables, innermost scope last; scope 0 holds the globals.
    scopes: Vec<Vec<Var>>,
    helpers: Vec<Helper>,
    labels: Vec<Label>,
    events: BTreeSet<&'static str>,
    nondets: BTreeSet<(String, &'static str)>,
    /// Helpers that the component calls itself.
    called: BTreeSet<String>,
    uses_abort: bool,
    uses_exit: bool,
    uses_assume: BTreeSet<&'static str>,
    n_names: usize,
    /// Statements left to generate in the current function; bounds the program's size.
    budget: usize,
    /// Structs and pointers, in [`program_with_memory`].
    memory: Option<Memory>,
}

impl Gen {
    fn new(seed: u64) -> Gen {
        Gen {
            rng: Rng(seed ^ 0x5ab5_7c0d_e5ee_d000),
            scopes: vec![Vec::new()],
            helpers: Vec::new(),
            labels: Vec::new(),
            events: BTreeSet::new(),
            nondets: BTreeSet::new(),
            called: BTreeSet::new(),
            uses_abort: false,
            uses_exit: false,
            uses_assume: BTreeSet::new(),
            n_names: 0,
            budget: 0,
            memory: None,
        }
    }

    fn fresh(&mut self, prefix: &str) -> String {
        self.n_names += 1;
        format!("{prefix}{}", self.n_names)
    }

    fn program(mut self) -> GenProgram {
        let mut globals = String::new();
        globals += "enum mode { M_IDLE, M_RUN = 5, M_STOP };\n";
        for _ in 0..self.rng.range(4, 7) {
            let ty = self.rng.pick(&SCALAR_TYPES);
            let name = self.fresh("g");
            if self.rng.chance(60) {
                let init = self.global_init(ty);
                let _ = writeln!(globals, "{} {name} = {init};", ty.c());
            } else {
                let _ = writeln!(globals, "{} {name};", ty.c());
            }
            self.scopes[0].push(Var { name, ty, array: false, writable: true, mask: 7, deref: false });
        }
        for _ in 0..self.rng.range(1, 2) {
            let ty = self.rng.pick(&ARRAY_TYPES);
            let name = self.fresh("a");
            if self.rng.chance(60) {
                let n = self.rng.range(1, 8);
                let items: Vec<&str> = (0..n).map(|_| self.rng.pick(&LITERALS)).collect();
                let _ = writeln!(globals, "{} {name}[8] = {{{}}};", ty.c(), items.join(", "));
            } else {
                let _ = writeln!(globals, "{} {name}[8];", ty.c());
            }
            self.scopes[0].push(Var { name, ty, array: true, writable: true, mask: 7, deref: false });
        }

        let mut functions = String::new();
        if self.memory.is_some() {
            let (types, helpers) = self.memory_globals(&mut globals);
            globals = types + &globals;
            functions += &helpers;
        }
        for _ in 0..self.rng.range(1, 3) {
            functions += &self.helper();
            functions += "\n";
        }
        functions += &self.component();

        let mut decls = String::new();
        let mut events = Vec::new();
        events.push(EventDecl::plain("tick"));
        for name in PLAIN_EVENTS {
            if self.events.contains(name) {
                events.push(EventDecl::plain(name));
            }
        }
        for (name, ty) in SEND_EVENTS {
            if self.events.contains(name) {
                events.push(EventDecl::send(name, ty));
            }
        }
        if self.events.contains("outl") {
            events.push(EventDecl::send("outl", CTy::Long));
        }
        for (name, ty) in RECV_EVENTS {
            if self.events.contains(name) {
                events.push(EventDecl::recv(name, ty));
            }
        }
        for event in &events {
            decls += &event.prototype();
            decls += "\n";
        }
        for (name, ty) in &self.nondets {
            let _ = writeln!(decls, "extern {ty} {name}(void);");
        }
        for name in &self.uses_assume {
            let _ = writeln!(decls, "extern void {name}(int);");
        }
        if self.uses_abort {
            decls += "extern void abort(void);\n";
        }
        if self.uses_exit {
            decls += "extern void exit(int);\n";
        }

        let source = format!("/* Generated by tests/common/generator.rs. */\n{decls}\n{globals}\n{functions}");
        GenProgram { source, component: "comp".to_string(), events }
    }

    fn global_init(&mut self, ty: Ty) -> String {
        match ty {
            Ty::Enum => self.rng.pick(&["M_IDLE", "M_RUN", "M_STOP", "7"]).to_string(),
            Ty::Bool => self.rng.pick(&["0", "1"]).to_string(),
            _ => self.rng.pick(&LITERALS).to_string(),
        }
    }

    fn helper(&mut self) -> String {
        let name = format!("h{}", self.helpers.len());
        let ret = self.rng.pick(&PARAM_TYPES);
        let n_params = self.rng.range(1, 3);
        let params: Vec<Ty> = (0..n_params).map(|_| self.rng.pick(&PARAM_TYPES)).collect();
        let mut scope = Vec::new();
        let mut list = Vec::new();
        for (i, ty) in params.iter().enumerate() {
            let p = format!("p{i}");
            list.push(format!("{} {p}", ty.c()));
            scope.push(Var { name: p, ty: *ty, array: false, writable: true, mask: 7, deref: false });
        }
        self.scopes.push(scope);
        self.labels.clear();
        self.budget = self.rng.range(3, 10);
        let ctx = Ctx { depth: 1, in_loop: false, breakable: false, returns: Some(ret) };
        let mut body = String::new();
        // The body's locals get their own scope, so that the returned expression, which follows
        // the body's label, reads only parameters and globals.
        self.scopes.push(Vec::new());
        self.block_items(&mut body, ctx, 1);
        self.scopes.pop();
        let value = self.expr(2);
        let _ = writeln!(body, "    return {value};");
        self.scopes.pop();
        self.helpers.push(Helper { name: name.clone(), params });
        format!("{} {name}({}) {{\n{body}}}\n", ret.c(), list.join(", "))
    }

    fn component(&mut self) -> String {
        self.labels.clear();
        self.scopes.push(Vec::new());
        self.budget = self.rng.range(15, 30);
        let mut body = String::new();
        let ctx = Ctx { depth: 1, in_loop: false, breakable: false, returns: None };
        self.events.insert("tick");
        if self.memory.is_some() {
            self.memory_locals(&mut body);
        }
        if self.rng.chance(75) {
            for _ in 0..self.rng.range(0, 2) {
                self.local_decl(&mut body, 1);
            }
            body += "    while (1) {\n        tick();\n";
            let inner = Ctx { depth: 2, in_loop: true, breakable: true, returns: None };
            self.scopes.push(Vec::new());
            let n = self.rng.range(3, 8);
            self.block_of(&mut body, inner, 2, n, true);
            self.scopes.pop();
            body += "    }\n";
        } else {
            body += "    tick();\n";
            let n = self.rng.range(3, 8);
            self.block_of(&mut body, ctx, 1, n, true);
        }
        self.scopes.pop();
        format!("void comp(void) {{\n{body}}}\n")
    }

    /// Statements of a block, then the block's label if a `goto` jumped to it.
    fn block_items(&mut self, out: &mut String, ctx: Ctx, indent: usize) {
        let n = self.rng.range(1, if ctx.depth <= 2 { 5 } else { 3 });
        self.block_of(out, ctx, indent, n, false);
    }

    /// Like [`Gen::block_items`] with `n` statements (fewer when the budget runs out), and with
    /// calls to the helpers the component has not called yet when `call_rest` is set. Those come
    /// before the label: after it, a local that a `goto` skipped would be read uninitialised.
    fn block_of(&mut self, out: &mut String, ctx: Ctx, indent: usize, n: usize, call_rest: bool) {
        let label = self.fresh("L");
        self.labels.push(Label { name: label, used: false });
        for _ in 0..n {
            if self.budget == 0 {
                break;
            }
            self.budget -= 1;
            self.statement(out, ctx, indent);
        }
        if call_rest {
            self.call_the_rest(out, indent);
        }
        let label = self.labels.pop().expect("the block's own label");
        if label.used {
            let _ = writeln!(out, "{}{}: ;", pad(indent), label.name);
        }
    }

    /// The statements of a nested block, in a scope of their own (the caller writes the braces).
    fn nested_block(&mut self, out: &mut String, ctx: Ctx, indent: usize) {
        self.scopes.push(Vec::new());
        self.block_items(out, Ctx { depth: ctx.depth + 1, ..ctx }, indent);
        self.scopes.pop();
    }

    fn statement(&mut self, out: &mut String, ctx: Ctx, indent: usize) {
        let p = pad(indent);
        let can_nest = ctx.depth < 4;
        loop {
            if self.memory.is_some() && self.rng.chance(20) {
                self.memory_statement(out, indent);
                return;
            }
            match self.rng.below(100) {
                0..=13 => {
                    let lv = self.lvalue();
                    let e = self.expr(3);
                    let _ = writeln!(out, "{p}{} = {e};", lv.0);
                }
                14..=23 => {
                    let (lv, ty) = self.lvalue();
                    let op = self.rng.pick(&["+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "|=", "^="]);
                    let rhs = match op {
                        "/=" | "%=" => {
                            let d = self.expr(1);
                            divisor(&d)
                        }
                        "<<=" if !ty.may_shift_left() => continue,
                        "<<=" | ">>=" => {
                            let s = self.expr(1);
                            format!("(({s}) & 15)")
                        }
                        _ => self.expr(2),
                    };
                    let _ = writeln!(out, "{p}{lv} {op} {rhs};");
                }
                24..=29 => {
                    let (lv, _) = self.lvalue();
                    let form = self.rng.pick(&["{}++;", "{}--;", "++{};", "--{};"]);
                    let _ = writeln!(out, "{p}{}", form.replace("{}", &lv));
                }
                30..=36 => self.local_decl(out, indent),
                37..=45 if can_nest => {
                    let c = self.cond();
                    let _ = writeln!(out, "{p}if ({c}) {{");
                    self.nested_block(out, ctx, indent + 1);
                    if self.rng.chance(50) {
                        let _ = writeln!(out, "{p}}} else {{");
                        self.nested_block(out, ctx, indent + 1);
                    }
                    let _ = writeln!(out, "{p}}}");
                }
                46..=52 if can_nest => self.loop_statement(out, ctx, indent),
                53..=56 if can_nest => self.switch_statement(out, ctx, indent),
                57..=59 if ctx.breakable => {
                    let kw = if ctx.in_loop && self.rng.chance(50) { "continue" } else { "break" };
                    let c = self.cond();
                    let _ = writeln!(out, "{p}if ({c}) {kw};");
                }
                60..=61 => {
                    // A jump forward to the end of this block or of any block around it.
                    let target = self.rng.below(self.labels.len());
                    self.labels[target].used = true;
                    let name = self.labels[target].name.clone();
                    let c = self.cond();
                    let _ = writeln!(out, "{p}if ({c}) goto {name};");
                }
                62..=69 => {
                    let name = self.rng.pick(&PLAIN_EVENTS);
                    self.events.insert(name);
                    let _ = writeln!(out, "{p}{name}();");
                }
                70..=78 => {
                    let (name, _) = self.rng.pick(&SEND_EVENTS);
                    self.events.insert(name);
                    let e = self.expr(2);
                    let _ = writeln!(out, "{p}{name}({e});");
                }
                79..=82 => {
                    let (name, _) = self.rng.pick(&RECV_EVENTS);
                    self.events.insert(name);
                    if self.rng.chance(10) {
                        let _ = writeln!(out, "{p}{name}();");
                    } else {
                        let (lv, _) = self.lvalue();
                        let _ = writeln!(out, "{p}{lv} = {name}();");
                    }
                }
                83..=85 => {
                    let (suffix, ty) = self.rng.pick(&NONDET);
                    let prefix = if self.rng.chance(70) { "__VERIFIER_nondet_" } else { "nondet_" };
                    let name = format!("{prefix}{suffix}");
                    self.nondets.insert((name.clone(), ty));
                    let (lv, _) = self.lvalue();
                    let _ = writeln!(out, "{p}{lv} = {name}();");
                }
                86..=93 if !self.helpers.is_empty() => {
                    let helper = self.helpers[self.rng.below(self.helpers.len())].clone();
                    if ctx.returns.is_none() {
                        self.called.insert(helper.name.clone());
                    }
                    self.call(out, &helper, indent);
                }
                94 => {
                    let name = if self.rng.chance(70) { "__VERIFIER_assume" } else { "assume" };
                    self.uses_assume.insert(name);
                    let e = self.expr(1);
                    let k = self.rng.pick(&LITERALS);
                    let op = self.rng.pick(&["!=", "!=", "<=", ">="]);
                    let _ = writeln!(out, "{p}{name}(({e}) {op} {k});");
                }
                95..=96 => {
                    let c = self.cond();
                    let end = match (self.rng.below(3), ctx.returns) {
                        (0, _) => {
                            self.uses_abort = true;
                            "abort();".to_string()
                        }
                        (1, _) => {
                            self.uses_exit = true;
                            format!("exit({});", self.rng.range(0, 3))
                        }
                        (_, None) => "return;".to_string(),
                        (_, Some(_)) => format!("return {};", self.expr(2)),
                    };
                    // Mostly guarded by a rare condition, so that runs go on for a while.
                    let _ = writeln!(out, "{p}if (({c}) && {}) {end}", self.expr(1));
                }
                _ => continue,
            }
            return;
        }
    }

    /// `x = helper(args);`, or the bare call now and then.
    fn call(&mut self, out: &mut String, helper: &Helper, indent: usize) {
        let args: Vec<String> = helper.params.iter().map(|_| self.expr(2)).collect();
        let call = format!("{}({})", helper.name, args.join(", "));
        if self.rng.chance(15) {
            let _ = writeln!(out, "{}{call};", pad(indent));
        } else {
            let lv = self.call_target();
            let _ = writeln!(out, "{}{lv} = {call};", pad(indent));
        }
    }

    /// Calls every helper that the component has not called yet, so that none is dead code.
    fn call_the_rest(&mut self, out: &mut String, indent: usize) {
        for helper in self.helpers.clone() {
            if !self.called.contains(&helper.name) {
                self.call(out, &helper, indent);
            }
        }
    }

    fn local_decl(&mut self, out: &mut String, indent: usize) {
        let ty = self.rng.pick(&SCALAR_TYPES);
        let e = self.expr(2);
        let name = self.fresh("l");
        let _ = writeln!(out, "{}{} {name} = {e};", pad(indent), ty.c());
        self.scopes.last_mut().expect("a local scope").push(Var {
            name,
            ty,
            array: false,
            writable: true,
            mask: 7,
            deref: false,
        });
    }

    fn loop_statement(&mut self, out: &mut String, ctx: Ctx, indent: usize) {
        let p = pad(indent);
        let counter = self.fresh("k");
        let bound = self.rng.range(1, 4);
        let inner = Ctx { depth: ctx.depth + 1, in_loop: true, breakable: true, returns: ctx.returns };
        let extra = if self.rng.chance(30) { format!(" && {}", self.cond()) } else { String::new() };
        let counter_var =
            Var { name: counter.clone(), ty: Ty::Int, array: false, writable: false, mask: 7, deref: false };
        match self.rng.below(3) {
            0 => {
                let _ = writeln!(out, "{p}for (int {counter} = 0; {counter} < {bound}{extra}; {counter}++) {{");
                self.scopes.push(vec![counter_var]);
                self.block_items(out, inner, indent + 1);
                self.scopes.pop();
                let _ = writeln!(out, "{p}}}");
            }
            1 => {
                // The increment comes first, so that `continue` cannot skip it.
                self.scopes.last_mut().expect("a scope").push(counter_var);
                let _ = writeln!(out, "{p}int {counter} = 0;");
                let _ = writeln!(out, "{p}while ({counter} < {bound}{extra}) {{");
                let _ = writeln!(out, "{}{counter}++;", pad(indent + 1));
                self.nested_block(out, inner, indent + 1);
                let _ = writeln!(out, "{p}}}");
            }
            _ => {
                self.scopes.last_mut().expect("a scope").push(counter_var);
                let _ = writeln!(out, "{p}int {counter} = 0;");
                let _ = writeln!(out, "{p}do {{");
                let _ = writeln!(out, "{}{counter}++;", pad(indent + 1));
                self.nested_block(out, inner, indent + 1);
                let _ = writeln!(out, "{p}}} while ({counter} < {bound}{extra});");
            }
        }
    }

    fn switch_statement(&mut self, out: &mut String, ctx: Ctx, indent: usize) {
        let p = pad(indent);
        let scrutinee = if self.rng.chance(50) { format!("({}) & 7", self.expr(2)) } else { self.expr(2) };
        let _ = writeln!(out, "{p}switch ({scrutinee}) {{");
        let mut values = vec!["0", "1", "2", "3", "4", "5", "7", "(-1)", "'a'", "M_STOP", "0x10"];
        let n_cases = self.rng.range(1, 4);
        let inner = Ctx { breakable: true, ..ctx };
        for _ in 0..n_cases {
            let value = values.remove(self.rng.below(values.len()));
            let _ = writeln!(out, "{p}case {value}: {{");
            self.nested_block(out, inner, indent + 1);
            // Without the break, control falls through into the next case.
            if self.rng.chance(70) {
                let _ = writeln!(out, "{p}}} break;");
            } else {
                let _ = writeln!(out, "{p}}}");
            }
        }
        if self.rng.chance(60) {
            let _ = writeln!(out, "{p}default: {{");
            self.nested_block(out, inner, indent + 1);
            let _ = writeln!(out, "{p}}}");
        }
        let _ = writeln!(out, "{p}}}");
    }

    fn visible(&self) -> impl Iterator<Item = &Var> {
        self.scopes.iter().flatten()
    }

    /// A place to store into, with its type: a writable variable or an array element.
    fn lvalue(&mut self) -> (String, Ty) {
        let candidates: Vec<Var> = self.visible().filter(|v| v.writable).cloned().collect();
        let var = &candidates[self.rng.below(candidates.len())];
        if var.array {
            let index = self.expr(1);
            (format!("{}[({index}) & {}]", var.name, var.mask), var.ty)
        } else {
            (var.name.clone(), var.ty)
        }
    }

    /// A place for a helper's result: its address must not depend on what the helper writes.
    fn call_target(&mut self) -> String {
        let candidates: Vec<Var> = self.visible().filter(|v| v.writable && !v.deref).cloned().collect();
        let var = &candidates[self.rng.below(candidates.len())];
        if var.array { format!("{}[{}]", var.name, self.rng.below(var.mask as usize + 1)) } else { var.name.clone() }
    }

    fn cond(&mut self) -> String {
        if self.memory.as_ref().is_some_and(|m| m.q1.is_some()) && self.rng.chance(10) {
            let k = self.rng.below(4);
            return match self.rng.below(3) {
                0 => format!("pp == &ps[{k}]"),
                1 => "q1 != 0".to_string(),
                _ => format!("qa + {} > &r1.fa[{}]", self.rng.below(4), self.rng.below(8)),
            };
        }
        let a = self.expr(1);
        let b = self.expr(1);
        match self.rng.below(5) {
            0 => format!("({a}) < ({b})"),
            1 => format!("({a}) == ({b})"),
            2 => format!("({a}) != ({b})"),
            3 => format!("({a}) >= ({b})"),
            _ => {
                let c = self.expr(1);
                format!("({a}) && (({b}) || !({c}))")
            }
        }
    }

    /// A pure expression of at most `depth` levels of operators.
    fn expr(&mut self, depth: usize) -> String {
        if depth == 0 || self.rng.chance(25) {
            return self.leaf(depth);
        }
        let d = depth - 1;
        match self.rng.below(20) {
            0 => format!("(-{})", self.expr(d)),
            1 => format!("(~{})", self.expr(d)),
            2 => format!("(!{})", self.expr(d)),
            3 => {
                let ty = self.rng.pick(&SCALAR_TYPES);
                format!("(({}) {})", ty.c(), self.expr(d))
            }
            4 => {
                let (a, b) = (self.expr(d), self.expr(d));
                let op = self.rng.pick(&["/", "%"]);
                format!("({a} {op} {})", divisor(&b))
            }
            5 => {
                let (a, s) = (self.expr(d), self.expr(d));
                format!("({a} >> (({s}) & 15))")
            }
            6 => {
                let (a, s) = (self.expr(d), self.expr(d));
                match self.rng.below(3) {
                    0 => format!("((unsigned) ({a}) << (({s}) & 15))"),
                    1 => format!("((unsigned long) ({a}) << (({s}) & 15))"),
                    _ => format!("((({a}) & 0xffff) << (({s}) & 15))"),
                }
            }
            7 => {
                let (c, a, b) = (self.expr(d), self.expr(d), self.expr(d));
                format!("({c} ? {a} : {b})")
            }
            _ => {
                let (a, b) = (self.expr(d), self.expr(d));
                let op = self
                    .rng
                    .pick(&["+", "+", "-", "-", "*", "*", "&", "|", "^", "<", "<=", ">", ">=", "==", "!=", "&&", "||"]);
                format!("({a} {op} {b})")
            }
        }
    }

    fn leaf(&mut self, depth: usize) -> String {
        if self.rng.chance(30) {
            return match self.rng.below(6) {
                0 => self.rng.pick(&["M_IDLE", "M_RUN", "M_STOP"]).to_string(),
                _ => self.rng.pick(&LITERALS).to_string(),
            };
        }
        let vars: Vec<Var> = self.visible().cloned().collect();
        let var = &vars[self.rng.below(vars.len())];
        if var.array {
            let index = if depth == 0 { self.rng.below(8).to_string() } else { self.expr(depth - 1) };
            format!("{}[({index}) & {}]", var.name, var.mask)
        } else {
            var.name.clone()
        }
    }
}

impl Gen {
    /// The struct types, the struct globals and the helpers that take pointers; returns the
    /// type definitions and the helpers' text.
    fn memory_globals(&mut self, globals: &mut String) -> (String, String) {
        let rec: Vec<Ty> = (0..3).map(|_| self.rng.pick(&FIELD_TYPES)).collect();
        let pair: Vec<Ty> = (0..2).map(|_| self.rng.pick(&FIELD_TYPES)).collect();
        let types = format!(
            "struct rec {{\n    {} f0;\n    {} f1;\n    {} fa[8];\n}};\nstruct pair {{\n    {} a;\n    {} b;\n}};\n",
            rec[0].c(),
            rec[1].c(),
            rec[2].c(),
            pair[0].c(),
            pair[1].c()
        );
        if self.rng.chance(60) {
            let (a, b, c, d) = (
                self.rng.pick(&LITERALS),
                self.rng.pick(&LITERALS),
                self.rng.pick(&LITERALS),
                self.rng.pick(&LITERALS),
            );
            let _ = writeln!(globals, "struct rec r1 = {{ {a}, {b}, {{ {c}, {d} }} }};");
        } else {
            globals.push_str("struct rec r1;\n");
        }
        if self.rng.chance(50) {
            let (a, b) = (self.rng.pick(&LITERALS), self.rng.pick(&LITERALS));
            let _ = writeln!(globals, "struct pair ps[4] = {{ {{ {a}, {b} }}, [2] = {{ .b = {a} }} }};");
        } else {
            globals.push_str("struct pair ps[4];\n");
        }
        let scalars: Vec<(String, Ty)> =
            self.scopes[0].iter().filter(|v| !v.array).map(|v| (v.name.clone(), v.ty)).collect();
        let g = &mut self.scopes[0];
        g.push(Var { name: "r1.f0".into(), ty: rec[0], array: false, writable: true, mask: 7, deref: false });
        g.push(Var { name: "r1.f1".into(), ty: rec[1], array: false, writable: true, mask: 7, deref: false });
        g.push(Var { name: "r1.fa".into(), ty: rec[2], array: true, writable: true, mask: 7, deref: false });
        for k in 0..4 {
            let (f, ty) = if k % 2 == 0 { ("a", pair[0]) } else { ("b", pair[1]) };
            g.push(Var { name: format!("ps[{k}].{f}"), ty, array: false, writable: true, mask: 7, deref: false });
        }
        let helpers = format!(
            "static void bump(struct rec *p, int v) {{\n    p->f0 += v;\n    p->fa[v & 7] ^= p->f1;\n    p->f1 = p->f1 * 3 + 1;\n}}\n\n\
             static struct pair mk({} a, {} b) {{\n    struct pair q = {{ 0, 0 }};\n    q.a = a;\n    q.b = b;\n    return q;\n}}\n\n\
             static {t} total(const {t} *p, int n) {{\n    {t} s = 0;\n    for (int i = 0; i < n; i++)\n        s += p[i];\n    return s;\n}}\n\n",
            pair[0].c(),
            pair[1].c(),
            t = rec[2].c()
        );
        self.memory = Some(Memory { rec, pair, scalars, q1: None });
        (types, helpers)
    }

    /// The component's pointers and local struct, declared before its loop.
    fn memory_locals(&mut self, out: &mut String) {
        let m = self.memory.clone().expect("memory mode");
        let (g, ty) = m.scalars[self.rng.below(m.scalars.len())].clone();
        let k = self.rng.below(5);
        let kp = self.rng.below(4);
        let (a, b) = (self.rng.pick(&LITERALS), self.rng.pick(&LITERALS));
        let _ = writeln!(out, "    struct rec *rp = &r1;");
        let _ = writeln!(out, "    {} *q1 = &{g};", ty.c());
        let _ = writeln!(out, "    {} *qa = &r1.fa[{k}];", m.rec[2].c());
        let _ = writeln!(out, "    struct pair lp = {{ {a}, {b} }};");
        let _ = writeln!(out, "    struct pair *pp = &ps[{kp}];");
        let scope = self.scopes.last_mut().expect("the component's scope");
        let deref = |name: &str, ty: Ty, array: bool, mask: u32| Var {
            name: name.to_string(),
            ty,
            array,
            writable: true,
            mask,
            deref: true,
        };
        scope.push(deref("rp->f0", m.rec[0], false, 7));
        scope.push(deref("rp->f1", m.rec[1], false, 7));
        scope.push(deref("rp->fa", m.rec[2], true, 7));
        scope.push(deref("(*q1)", ty, false, 7));
        scope.push(deref("qa", m.rec[2], true, 3));
        scope.push(deref("pp->a", m.pair[0], false, 7));
        scope.push(deref("pp->b", m.pair[1], false, 7));
        scope.push(Var { name: "lp.a".into(), ty: m.pair[0], array: false, writable: true, mask: 7, deref: false });
        scope.push(Var { name: "lp.b".into(), ty: m.pair[1], array: false, writable: true, mask: 7, deref: false });
        self.memory = Some(Memory { q1: Some(ty), ..m });
    }

    /// A statement about structs and pointers.
    fn memory_statement(&mut self, out: &mut String, indent: usize) {
        let p = pad(indent);
        let m = self.memory.clone().expect("memory mode");
        let in_component = m.q1.is_some() && self.visible().any(|v| v.name == "(*q1)");
        match self.rng.below(if in_component { 8 } else { 3 }) {
            0 => {
                let (a, b) = (self.expr(2), self.expr(2));
                let _ = writeln!(out, "{p}ps[{}] = mk({a}, {b});", self.rng.below(4));
            }
            1 => {
                let (x, y) = (self.rng.below(4), self.rng.below(4));
                let _ = writeln!(out, "{p}ps[{x}] = ps[{y}];");
            }
            2 => {
                let lv = self.call_target();
                let n = self.rng.range(1, 8);
                let from = if self.rng.chance(50) { "r1.fa".to_string() } else { "&r1.fa[0]".to_string() };
                let _ = writeln!(out, "{p}{lv} = total({from}, {n});");
            }
            3 => {
                let target = if self.rng.chance(50) { "rp" } else { "&r1" };
                let e = self.expr(2);
                let _ = writeln!(out, "{p}bump({target}, {e});");
            }
            4 => {
                // Retargets a pointer among the objects of its type.
                let ty = m.q1.expect("in the component");
                let same: Vec<&(String, Ty)> = m.scalars.iter().filter(|(_, t)| *t == ty).collect();
                if self.rng.chance(50) || same.is_empty() {
                    let _ = writeln!(out, "{p}pp = &ps[{}];", self.rng.below(4));
                } else {
                    let (g, _) = same[self.rng.below(same.len())];
                    let _ = writeln!(out, "{p}q1 = &{g};");
                }
            }
            5 => {
                let e = self.expr(1);
                // A step that divides 8: `w` ends one past the end, never beyond (C leaves
                // forming a pointer beyond it undefined, and subst checks it).
                let step = self.rng.pick(&[1, 2, 4]);
                let t = m.rec[2].c();
                let _ = writeln!(out, "{p}for ({t} *w = r1.fa; w < r1.fa + 8; w += {step})");
                let _ = writeln!(out, "{p}    *w += {e};");
            }
            6 => {
                let x = self.rng.below(4);
                if self.rng.chance(50) {
                    let _ = writeln!(out, "{p}lp = ps[{x}];");
                } else {
                    let _ = writeln!(out, "{p}ps[{x}] = lp;");
                }
            }
            _ => {
                let _ = writeln!(out, "{p}qa = &r1.fa[{}];", self.rng.below(5));
                let _ = writeln!(out, "{p}outl((long) (qa - r1.fa) + (long) (&r1.fa[7] - qa));");
                self.events.insert("outl");
            }
        }
    }
}

/// The types of struct members in generated programs.
const FIELD_TYPES: [Ty; 7] = [Ty::Int, Ty::UInt, Ty::Long, Ty::Char, Ty::Short, Ty::UShort, Ty::ULong];

/// The divisor form that is never 0 or -1: 1..8 or -2..-9 (or their unsigned images).
fn divisor(d: &str) -> String {
    format!("((({d}) & 8) ? -((({d}) & 7) + 2) : ((({d}) & 7) + 1))")
}

fn pad(indent: usize) -> String {
    "    ".repeat(indent)
}
