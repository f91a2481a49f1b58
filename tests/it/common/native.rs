//! Runs a C component natively, compiled by gcc, and records its event trace.
//!
//! gcc is the reference for the semantics of the supported C subset: the differential tests compare
//! subst's interpreter against the traces recorded here. A run links the program with a generated
//! harness that plays the environment:
//!
//! - every event function (a function the program calls but does not define) prints its event,
//!   `name` or `name.V`, one per line, with `V` the decimal value in the function's C type;
//! - the `nondet_*` / `__VERIFIER_nondet_*` functions and receiving events take the next value of
//!   the input list given to the run, converted to their return type as a C cast would;
//! - `assume` / `__VERIFIER_assume` cut the run when their argument is 0;
//! - `reach_error` / `__VERIFIER_error` perform the event `reach_error` and end the component.
//!
//! The harness ends every run with one marker line, so that the end is never guessed from an exit
//! status: `#exit` (the component returned, or called `exit` or `abort`), `#eof` (an input was
//! needed and none was left), `#blocked` (an assumption was false) or `#limit` (the run performed
//! as many events as it was allowed to; this wins even when the last event was `reach_error`). A
//! run with no marker crashed; `alarm(5)` turns a hang into such a crash.
//!
//! The program is compiled with `gcc -std=gnu11 -O0 -fwrapv -w` for x86-64 (LP64), with `main`
//! renamed to `subst_main` so that the harness can own `main`, and linked after the harness with
//! `--allow-multiple-definition`: when an SV-COMP program defines `reach_error` itself (often with
//! an empty body), the harness's definition is the one that every call reaches.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex};

/// The C integer types that an event or a nondet function can carry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CTy {
    /// `_Bool`
    Bool,
    /// `char` (signed on x86-64)
    Char,
    /// `signed char`
    SChar,
    /// `unsigned char`
    UChar,
    /// `short`
    Short,
    /// `unsigned short`
    UShort,
    /// `int`
    Int,
    /// `unsigned int`
    UInt,
    /// `long` (64 bits in LP64)
    Long,
    /// `unsigned long`
    ULong,
    /// `long long`
    LongLong,
    /// `unsigned long long`
    ULongLong,
}

impl CTy {
    /// Every type, for tests that want to go through them all.
    pub const ALL: [CTy; 12] = [
        CTy::Bool,
        CTy::Char,
        CTy::SChar,
        CTy::UChar,
        CTy::Short,
        CTy::UShort,
        CTy::Int,
        CTy::UInt,
        CTy::Long,
        CTy::ULong,
        CTy::LongLong,
        CTy::ULongLong,
    ];

    /// The type as C spells it.
    pub fn c_name(self) -> &'static str {
        match self {
            CTy::Bool => "_Bool",
            CTy::Char => "char",
            CTy::SChar => "signed char",
            CTy::UChar => "unsigned char",
            CTy::Short => "short",
            CTy::UShort => "unsigned short",
            CTy::Int => "int",
            CTy::UInt => "unsigned int",
            CTy::Long => "long",
            CTy::ULong => "unsigned long",
            CTy::LongLong => "long long",
            CTy::ULongLong => "unsigned long long",
        }
    }

    /// Whether the type has negative values (`_Bool` has none).
    pub fn is_signed(self) -> bool {
        matches!(self, CTy::Char | CTy::SChar | CTy::Short | CTy::Int | CTy::Long | CTy::LongLong)
    }

    /// The width in bits under LP64 (`_Bool` counts as 1: it holds only 0 and 1).
    pub fn bits(self) -> u32 {
        match self {
            CTy::Bool => 1,
            CTy::Char | CTy::SChar | CTy::UChar => 8,
            CTy::Short | CTy::UShort => 16,
            CTy::Int | CTy::UInt => 32,
            CTy::Long | CTy::ULong | CTy::LongLong | CTy::ULongLong => 64,
        }
    }

    /// The value that C's conversion to this type gives for `v` (modulo for integers, `v != 0`
    /// for `_Bool`), as gcc defines the implementation-defined case of a signed target.
    pub fn convert(self, v: i128) -> i128 {
        if self == CTy::Bool {
            return (v != 0) as i128;
        }
        let bits = self.bits();
        let modulus = 1i128 << bits;
        let low = v.rem_euclid(modulus);
        if self.is_signed() && low >= modulus / 2 { low - modulus } else { low }
    }

    /// Reads a type from its C spelling, such as `unsigned`, `long int` or `signed char`.
    /// Enumerated types are `unsigned int`, which is what gcc gives an enum without negative
    /// constants; `None` for anything that is not an integer type.
    pub fn from_c_name(spelling: &str) -> Option<CTy> {
        let words: Vec<&str> =
            spelling.split_whitespace().filter(|w| !matches!(*w, "const" | "volatile" | "register")).collect();
        if words.first() == Some(&"enum") && words.len() == 2 {
            return Some(CTy::UInt);
        }
        let count = |name: &str| words.iter().filter(|w| **w == name).count();
        let (unsigned, signed, longs, shorts, chars, ints, bools) = (
            count("unsigned"),
            count("signed"),
            count("long"),
            count("short"),
            count("char"),
            count("int"),
            count("_Bool"),
        );
        if unsigned + signed + longs + shorts + chars + ints + bools != words.len() || words.is_empty() {
            return None;
        }
        if unsigned + signed > 1 || ints > 1 || chars > 1 || shorts > 1 || longs > 2 {
            return None;
        }
        let is_unsigned = unsigned == 1;
        let ty = match (bools, chars, shorts, longs) {
            (1, 0, 0, 0) if words.len() == 1 => CTy::Bool,
            (0, 1, 0, 0) if ints == 0 => match (unsigned, signed) {
                (1, _) => CTy::UChar,
                (_, 1) => CTy::SChar,
                _ => CTy::Char,
            },
            (0, 0, 1, 0) if is_unsigned => CTy::UShort,
            (0, 0, 1, 0) => CTy::Short,
            (0, 0, 0, 0) if is_unsigned => CTy::UInt,
            (0, 0, 0, 0) => CTy::Int,
            (0, 0, 0, 1) if is_unsigned => CTy::ULong,
            (0, 0, 0, 1) => CTy::Long,
            (0, 0, 0, 2) if is_unsigned => CTy::ULongLong,
            (0, 0, 0, 2) => CTy::LongLong,
            _ => return None,
        };
        Some(ty)
    }
}

impl fmt::Display for CTy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.c_name())
    }
}

/// How the program calls an event function.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sig {
    /// `void name(void)`: the event `name`.
    Plain,
    /// `void name(T)`: the event `name.v`, `v` the argument converted to `T`.
    Send(CTy),
    /// `T name(void)`: the environment picks `v` of type `T`; the event is `name.v`.
    Recv(CTy),
}

/// One event function that the harness must define.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct EventDecl {
    /// The C function's name, which is also the event (family) name.
    pub name: String,
    /// Its signature.
    pub sig: Sig,
}

impl EventDecl {
    /// `void name(void)`.
    pub fn plain(name: &str) -> EventDecl {
        EventDecl { name: name.to_string(), sig: Sig::Plain }
    }

    /// `void name(ty)`.
    pub fn send(name: &str, ty: CTy) -> EventDecl {
        EventDecl { name: name.to_string(), sig: Sig::Send(ty) }
    }

    /// `ty name(void)`.
    pub fn recv(name: &str, ty: CTy) -> EventDecl {
        EventDecl { name: name.to_string(), sig: Sig::Recv(ty) }
    }

    /// The C prototype, as a program would declare it.
    pub fn prototype(&self) -> String {
        match self.sig {
            Sig::Plain => format!("void {}(void);", self.name),
            Sig::Send(ty) => format!("void {}({});", self.name, ty),
            Sig::Recv(ty) => format!("{} {}(void);", ty, self.name),
        }
    }
}

/// How a native run ended.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum End {
    /// The component returned, or called `exit`, `abort`, `reach_error` or `__VERIFIER_error`.
    Exit,
    /// A nondet function or a receiving event needed an input and none was left.
    Eof,
    /// An assumption was false.
    Blocked,
    /// The run performed the maximum number of events.
    Limit,
    /// The program died otherwise (a signal such as SIGFPE, the alarm of a hang, a sanitizer
    /// report); the text says how, with what it printed on stderr.
    Crash(String),
}

impl End {
    /// The keyword of the end in the examples' `end:` header lines (`crash` for a crash).
    pub fn keyword(&self) -> &'static str {
        match self {
            End::Exit => "exit",
            End::Eof => "eof",
            End::Blocked => "blocked",
            End::Limit => "limit",
            End::Crash(_) => "crash",
        }
    }
}

/// The outcome of one native run.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct NativeRun {
    /// The events in order, as `name` or `name.V`.
    pub events: Vec<String>,
    /// How the run ended.
    pub end: End,
}

/// A program compiled with the harness for one component, ready to run with any inputs.
pub struct Native {
    // Kept so that the folder with the binary lives as long as this value.
    _dir: tempfile::TempDir,
    binary: PathBuf,
}

/// The flags every compilation uses: the semantics that subst models.
const GCC_FLAGS: [&str; 4] = ["-std=gnu11", "-O0", "-fwrapv", "-w"];

/// The nondet functions the harness defines, by suffix after `nondet_` and `__VERIFIER_nondet_`.
const NONDET: [(&str, CTy); 13] = [
    ("int", CTy::Int),
    ("uint", CTy::UInt),
    ("unsigned", CTy::UInt),
    ("char", CTy::Char),
    ("schar", CTy::SChar),
    ("uchar", CTy::UChar),
    ("short", CTy::Short),
    ("ushort", CTy::UShort),
    ("long", CTy::Long),
    ("ulong", CTy::ULong),
    ("longlong", CTy::LongLong),
    ("ulonglong", CTy::ULongLong),
    ("bool", CTy::Bool),
];

/// Functions that the harness defines or calls, so no event may have these names.
const HARNESS_NAMES: [&str; 15] = [
    "main",
    "assume",
    "__VERIFIER_assume",
    "reach_error",
    "__VERIFIER_error",
    "abort",
    "exit",
    "_exit",
    "atexit",
    "alarm",
    "signal",
    "dprintf",
    "strtoll",
    "strtoull",
    "__assert_fail",
];

/// The names of all nondet functions the harness defines.
pub fn nondet_functions() -> Vec<(String, CTy)> {
    NONDET
        .iter()
        .flat_map(|&(suffix, ty)| [(format!("nondet_{suffix}"), ty), (format!("__VERIFIER_nondet_{suffix}"), ty)])
        .collect()
}

/// Whether the harness defines (or relies on) a function of this name, so that it cannot be an
/// event.
pub fn is_harness_name(name: &str) -> bool {
    HARNESS_NAMES.contains(&name) || name.starts_with("subst_") || nondet_functions().iter().any(|(n, _)| n == name)
}

impl Native {
    /// Compiles `c_file` (with its `#include`s resolved from its own folder) together with a
    /// harness that runs `component`: `void component(void)`, or `main` for an SV-COMP program.
    /// `events` lists the functions the program calls but does not define.
    pub fn compile(c_file: &Path, component: &str, events: &[EventDecl]) -> Result<Native, String> {
        Native::compile_with_flags(c_file, component, events, &[])
    }

    /// Like [`Native::compile`] for a program held in memory (it is written to the temporary
    /// folder, so it cannot include local headers).
    pub fn compile_source(source: &str, component: &str, events: &[EventDecl]) -> Result<Native, String> {
        let dir = tempfile::tempdir().map_err(|e| format!("cannot create a temporary folder: {e}"))?;
        let path = dir.path().join("program.c");
        std::fs::write(&path, source).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        let native = Native::compile_with_flags(&path, component, events, &[])?;
        drop(dir);
        Ok(native)
    }

    /// Like [`Native::compile`] with extra gcc flags for both the program and the harness, e.g.
    /// `-fsanitize=undefined -fno-sanitize-recover` to check that a program has no undefined
    /// behaviour (a report then ends the run as a crash).
    pub fn compile_with_flags(
        c_file: &Path,
        component: &str,
        events: &[EventDecl],
        extra_flags: &[&str],
    ) -> Result<Native, String> {
        check_names(component, events)?;
        let dir = tempfile::tempdir().map_err(|e| format!("cannot create a temporary folder: {e}"))?;
        let harness_o = harness_object(&harness_source(component, events), extra_flags, dir.path())?;
        let program_o = dir.path().join("program.o");
        let binary = dir.path().join("program");

        let c_file = c_file.canonicalize().map_err(|e| format!("cannot find {}: {e}", c_file.display()))?;
        gcc(Command::new("gcc")
            .args(GCC_FLAGS)
            .args(extra_flags)
            .arg("-Dmain=subst_main")
            .arg("-c")
            .arg(&c_file)
            .arg("-o")
            .arg(&program_o))?;
        // The harness comes first so that its definitions win over the program's own
        // `reach_error` and the like.
        gcc(Command::new("gcc")
            .args(extra_flags)
            .arg("-Wl,--allow-multiple-definition")
            .arg(&harness_o)
            .arg(&program_o)
            .arg("-o")
            .arg(&binary))?;
        Ok(Native { _dir: dir, binary })
    }

    /// Runs the component with the inputs that nondet functions and receiving events consume in
    /// order, stopping after `max_events` events. Inputs are C integers in [-2^63, 2^64); anything
    /// outside is first reduced modulo 2^64.
    pub fn run(&self, inputs: &[i128], max_events: usize) -> NativeRun {
        let output =
            Command::new(&self.binary).arg(max_events.to_string()).args(inputs.iter().map(|&v| input_text(v))).output();
        let output = match output {
            Ok(output) => output,
            Err(e) => return NativeRun { events: Vec::new(), end: End::Crash(format!("cannot start: {e}")) },
        };
        let stdout = String::from_utf8_lossy(&output.stdout);
        let mut events = Vec::new();
        let mut end = None;
        for line in stdout.lines() {
            match line {
                "#exit" => end = Some(End::Exit),
                "#eof" => end = Some(End::Eof),
                "#blocked" => end = Some(End::Blocked),
                "#limit" => end = Some(End::Limit),
                event => events.push(event.to_string()),
            }
            if end.is_some() {
                break;
            }
        }
        let end = end.unwrap_or_else(|| {
            let stderr = String::from_utf8_lossy(&output.stderr);
            End::Crash(format!("{}; stderr: {}", describe_status(&output.status), stderr.trim()))
        });
        NativeRun { events, end }
    }
}

/// The harness `source` compiled with `extra_flags`, as `subst_harness.o` in `dir`. Each harness
/// is compiled once per test binary and its object kept in memory: the differential tests
/// compile hundreds of generated programs, most of whose harnesses are the same (the same
/// component and events), and a compilation costs more than the rest of a program's check.
fn harness_object(source: &str, extra_flags: &[&str], dir: &Path) -> Result<PathBuf, String> {
    type Objects = BTreeMap<(String, Vec<String>), Arc<Vec<u8>>>;
    static OBJECTS: Mutex<Objects> = Mutex::new(BTreeMap::new());
    let key = (source.to_string(), extra_flags.iter().map(|f| f.to_string()).collect());
    let harness_o = dir.join("subst_harness.o");
    let known = OBJECTS.lock().unwrap().get(&key).cloned();
    if let Some(bytes) = known {
        std::fs::write(&harness_o, bytes.as_slice())
            .map_err(|e| format!("cannot write {}: {e}", harness_o.display()))?;
        return Ok(harness_o);
    }
    let harness_c = dir.join("subst_harness.c");
    std::fs::write(&harness_c, source).map_err(|e| format!("cannot write {}: {e}", harness_c.display()))?;
    gcc(Command::new("gcc").args(GCC_FLAGS).args(extra_flags).arg("-c").arg(&harness_c).arg("-o").arg(&harness_o))?;
    let bytes = std::fs::read(&harness_o).map_err(|e| format!("cannot read {}: {e}", harness_o.display()))?;
    OBJECTS.lock().unwrap().insert(key, Arc::new(bytes));
    Ok(harness_o)
}

/// Checks that all names are C identifiers that the harness can define without a clash.
fn check_names(component: &str, events: &[EventDecl]) -> Result<(), String> {
    let is_ident = |s: &str| {
        let mut chars = s.chars();
        matches!(chars.next(), Some(c) if c == '_' || c.is_ascii_alphabetic())
            && chars.all(|c| c == '_' || c.is_ascii_alphanumeric())
    };
    if !is_ident(component) {
        return Err(format!("component `{component}` is not a C identifier"));
    }
    let mut seen = std::collections::HashSet::new();
    for event in events {
        if !is_ident(&event.name) {
            return Err(format!("event `{}` is not a C identifier", event.name));
        }
        if is_harness_name(&event.name) || event.name == component {
            return Err(format!("event `{}` clashes with a function of the harness", event.name));
        }
        if !seen.insert(event.name.as_str()) {
            return Err(format!("event `{}` is declared twice", event.name));
        }
    }
    Ok(())
}

/// Inputs as the harness parses them: `strtoll` for negative text, `strtoull` otherwise.
fn input_text(v: i128) -> String {
    if (i64::MIN as i128..=u64::MAX as i128).contains(&v) { v.to_string() } else { (v as u64).to_string() }
}

fn describe_status(status: &std::process::ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (_, Some(14)) => "hung: killed by the alarm after 5 s (SIGALRM)".to_string(),
        (_, Some(signal)) => format!("killed by signal {signal}"),
        (Some(code), _) => format!("exited with status {code} without an end marker"),
        (None, None) => "ended in an unknown way".to_string(),
    }
}

fn gcc(command: &mut Command) -> Result<(), String> {
    let output = command.output().map_err(|e| format!("cannot run gcc: {e}"))?;
    if output.status.success() {
        Ok(())
    } else {
        Err(format!("{:?} failed:\n{}", command, String::from_utf8_lossy(&output.stderr)))
    }
}

/// The C source of the harness. It includes no system header, so that event names such as
/// `send`, `recv` or `read` cannot clash with a libc declaration; it declares the few libc
/// functions it uses itself.
fn harness_source(component: &str, events: &[EventDecl]) -> String {
    let mut c = String::from(HARNESS_PRELUDE);
    for (name, ty) in nondet_functions() {
        c += &format!("{ty} {name}(void) {{ return ({ty}) subst_input(); }}\n");
    }
    c += "\n";
    for event in events {
        let name = &event.name;
        c += &match event.sig {
            Sig::Plain => format!("void {name}(void) {{ subst_event(\"{name}\"); }}\n"),
            Sig::Send(ty) => format!("void {name}({ty} v) {{ {}(\"{name}\", v); }}\n", value_event(ty)),
            Sig::Recv(ty) => format!(
                "{ty} {name}(void) {{ {ty} v = ({ty}) subst_input(); {}(\"{name}\", v); return v; }}\n",
                value_event(ty)
            ),
        };
    }
    let call = if component == "main" {
        "subst_main();".to_string()
    } else {
        c += &format!("void {component}(void);\n");
        format!("{component}();")
    };
    c += &HARNESS_MAIN.replace("COMPONENT_CALL", &call);
    c
}

fn value_event(ty: CTy) -> &'static str {
    if ty.is_signed() { "subst_event_signed" } else { "subst_event_unsigned" }
}

const HARNESS_PRELUDE: &str = r##"/* The environment of one component, generated by tests/common/native.rs. */
int dprintf(int fd, const char *format, ...);
void _exit(int status);
void exit(int status);
int atexit(void (*function)(void));
unsigned alarm(unsigned seconds);
typedef void (*subst_handler)(int);
subst_handler signal(int signum, subst_handler handler);
long long strtoll(const char *text, char **end, int base);
unsigned long long strtoull(const char *text, char **end, int base);
int subst_main();

static long long subst_limit;
static long long subst_n_events;
static char **subst_inputs;
static int subst_n_inputs;
static int subst_next_input;

/* Ends the run at once, without the atexit marker. */
static void subst_stop(const char *marker) {
    dprintf(1, "#%s\n", marker);
    _exit(0);
}

static void subst_count_event(void) {
    subst_n_events++;
    if (subst_n_events >= subst_limit) subst_stop("limit");
}

static void subst_event(const char *name) {
    dprintf(1, "%s\n", name);
    subst_count_event();
}

static void subst_event_signed(const char *name, long long v) {
    dprintf(1, "%s.%lld\n", name, v);
    subst_count_event();
}

static void subst_event_unsigned(const char *name, unsigned long long v) {
    dprintf(1, "%s.%llu\n", name, v);
    subst_count_event();
}

/* The next input as 64 bits; the caller's cast converts it as C does. */
static unsigned long long subst_input(void) {
    if (subst_next_input >= subst_n_inputs) subst_stop("eof");
    const char *text = subst_inputs[subst_next_input++];
    if (text[0] == '-') return (unsigned long long) strtoll(text, 0, 10);
    return strtoull(text, 0, 10);
}

void assume(int condition) { if (!condition) subst_stop("blocked"); }
void __VERIFIER_assume(int condition) { if (!condition) subst_stop("blocked"); }
void reach_error(void) { subst_event("reach_error"); exit(0); }
void __VERIFIER_error(void) { subst_event("reach_error"); exit(0); }

static void subst_at_exit(void) { dprintf(1, "#exit\n"); }
static void subst_on_abort(int signum) { (void) signum; dprintf(1, "#exit\n"); _exit(0); }

"##;

const HARNESS_MAIN: &str = r##"
int main(int argc, char **argv) {
    if (argc < 2) return 2;
    subst_limit = strtoll(argv[1], 0, 10);
    subst_inputs = argv + 2;
    subst_n_inputs = argc - 2;
    signal(6 /* SIGABRT */, subst_on_abort);
    alarm(5);
    atexit(subst_at_exit);
    if (subst_limit <= 0) subst_stop("limit");
    COMPONENT_CALL
    return 0;
}
"##;

/// Finds the event functions of a C file: functions it declares but does not define, after
/// preprocessing (so prototypes in included headers count), other than the ones the harness
/// provides. Fails on a declaration that fits none of the three event signatures.
pub fn scan_events(c_file: &Path) -> Result<Vec<EventDecl>, String> {
    let output = Command::new("gcc")
        .args(["-std=gnu11", "-E", "-P"])
        .arg(c_file)
        .output()
        .map_err(|e| format!("cannot run gcc: {e}"))?;
    if !output.status.success() {
        return Err(format!("gcc -E {} failed:\n{}", c_file.display(), String::from_utf8_lossy(&output.stderr)));
    }
    let text = String::from_utf8_lossy(&output.stdout);
    let mut declared: Vec<(String, String, String)> = Vec::new();
    let mut defined = std::collections::HashSet::new();
    for item in top_level_items(&text) {
        match item {
            Item::Definition(head) => {
                if let Some((_, name, _)) = split_function(&head) {
                    defined.insert(name);
                }
            }
            Item::Declaration(decl) => {
                if let Some(parts) = split_function(&decl) {
                    declared.push(parts);
                }
            }
        }
    }
    let mut events: Vec<EventDecl> = Vec::new();
    for (ret, name, params) in declared {
        if defined.contains(&name) || is_harness_name(&name) || events.iter().any(|e| e.name == name) {
            continue;
        }
        let ret = ret
            .split_whitespace()
            .filter(|w| !matches!(*w, "extern" | "static" | "inline"))
            .collect::<Vec<_>>()
            .join(" ");
        let param = param_type(&params);
        let sig = match (ret.as_str(), param) {
            ("void", Some(None)) => Sig::Plain,
            ("void", Some(Some(p))) => Sig::Send(p),
            (r, Some(None)) => match CTy::from_c_name(r) {
                Some(t) => Sig::Recv(t),
                None => return Err(format!("`{name}`: return type `{r}` is not an event type")),
            },
            _ => return Err(format!("`{name}({params})` is not an event signature")),
        };
        events.push(EventDecl { name, sig });
    }
    Ok(events)
}

/// The parameter type of an event: `Some(None)` for no parameter, `Some(Some(t))` for one integer
/// parameter, `None` otherwise.
fn param_type(params: &str) -> Option<Option<CTy>> {
    let params = params.trim();
    if params.is_empty() || params == "void" {
        return Some(None);
    }
    if params.contains(',') {
        return None;
    }
    if let Some(ty) = CTy::from_c_name(params) {
        return Some(Some(ty));
    }
    // Drop a parameter name.
    let (ty, _) = params.rsplit_once(char::is_whitespace)?;
    CTy::from_c_name(ty).map(Some)
}

enum Item {
    /// A function definition: the text before its body.
    Definition(String),
    /// A declaration: its text without the `;`.
    Declaration(String),
}

/// Splits preprocessed C into top-level declarations and function definitions. Knows about
/// braces, parentheses and quoted literals; enough for the files the tests use.
fn top_level_items(text: &str) -> Vec<Item> {
    let mut items = Vec::new();
    let mut current = String::new();
    let mut head: Option<String> = None;
    let mut depth = 0usize;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '"' || c == '\'' {
            // Skip a literal, keeping it out of `current`.
            let mut escaped = false;
            for d in chars.by_ref() {
                if escaped {
                    escaped = false;
                } else if d == '\\' {
                    escaped = true;
                } else if d == c {
                    break;
                }
            }
            current.push_str("LIT");
            continue;
        }
        match c {
            '{' | '(' | '[' => {
                if depth == 0 && c == '{' && current.trim_end().ends_with(')') {
                    head = Some(current.clone());
                }
                depth += 1;
                current.push(c);
            }
            '}' | ')' | ']' => {
                depth = depth.saturating_sub(1);
                current.push(c);
                if depth == 0 && c == '}' && head.is_some() {
                    items.push(Item::Definition(head.take().expect("checked")));
                    current.clear();
                }
            }
            ';' if depth == 0 => {
                items.push(Item::Declaration(std::mem::take(&mut current)));
            }
            _ => current.push(c),
        }
    }
    items
}

/// Splits `ret name(params)` into its three parts; `None` for anything else (variables,
/// typedefs, function pointers, several declarators).
fn split_function(decl: &str) -> Option<(String, String, String)> {
    let decl = decl.trim();
    if decl.starts_with("typedef") || decl.contains('=') || decl.contains('{') {
        return None;
    }
    let open = decl.find('(')?;
    let close = decl.rfind(')')?;
    if close < open || !decl[close + 1..].trim().is_empty() {
        return None;
    }
    let before = decl[..open].trim_end();
    let name_start = before.rfind(|c: char| !(c == '_' || c.is_ascii_alphanumeric())).map_or(0, |i| i + 1);
    let name = &before[name_start..];
    let ret = before[..name_start].trim();
    if name.is_empty() || ret.is_empty() || ret.contains('*') || ret.contains('(') {
        return None;
    }
    Some((ret.to_string(), name.to_string(), decl[open + 1..close].to_string()))
}
