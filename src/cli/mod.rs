//! Command-line arguments and their translation into library calls.
//!
//! `clap` structs live here and nowhere else; each command turns its arguments into the
//! library's option types, calls the library, prints, and returns an [`Exit`] code.

use std::io::IsTerminal;
use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

use crate::diag::Diagnostic;
use crate::front::{self, DataModel, FrontOptions};
use crate::ir::{self, interp};

mod git;

/// The exit codes of PRODUCT.md.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Exit {
    /// The property holds (substitutable, verified), or the command succeeded.
    Holds = 0,
    /// It does not hold; evidence was printed.
    Fails = 1,
    /// Bad input or usage; a located message was printed.
    BadInput = 2,
    /// Unknown: a limit was hit; the report says which.
    Unknown = 3,
}

/// subst: can the new versions of these C components replace the old ones?
#[derive(Parser, Debug)]
#[command(name = "subst", version, about, long_about = None)]
pub struct Args {
    /// More logging (-v info, -vv debug, -vvv trace); RUST_LOG overrides.
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    pub verbose: u8,
    /// The command.
    #[command(subcommand)]
    pub command: Command,
}

/// Options every command that reads C shares.
#[derive(clap::Args, Debug, Clone)]
pub struct COptions {
    /// Integer sizes: lp64 (long is 64 bits, gcc's default here) or ilp32 (long is 32 bits).
    #[arg(long, value_enum, default_value_t = Model::Lp64)]
    pub data_model: Model,
    /// Extra preprocessor options, e.g. `--cpp=-DN=4` or `--cpp=-Iinclude`.
    #[arg(long = "cpp", value_name = "OPTION", allow_hyphen_values = true)]
    pub cpp: Vec<String>,
}

/// Options shared by `verify` and `check` on assemblies.
#[derive(clap::Args, Debug, Clone)]
pub struct AgArgs {
    /// The composition to check (default: the spec's only one).
    #[arg(long)]
    pub assembly: Option<String>,
    /// Properties to check (all when none is named).
    #[arg(long)]
    pub prop: Vec<String>,
    /// Component order of the compositional engine (part names, comma separated); parts not
    /// named follow, each next to the parts it shares the most events with.
    #[arg(long, value_delimiter = ',')]
    pub order: Vec<String>,
    /// Print membership queries, candidates, assumption sizes and time per phase.
    #[arg(long)]
    pub stats: bool,
    /// How L* turns counterexamples into table entries.
    #[arg(long, value_enum, default_value_t = CexArg::Rs)]
    pub cex: CexArg,
}

/// Where subst keeps what it learned.
#[derive(clap::Args, Debug, Clone)]
pub struct CacheArgs {
    /// The cache folder.
    #[arg(long, value_name = "DIR", default_value = ".subst")]
    pub cache: PathBuf,
    /// Neither read nor write the cache.
    #[arg(long)]
    pub no_cache: bool,
}

impl CacheArgs {
    fn cache(&self) -> crate::cache::Cache {
        if self.no_cache { crate::cache::Cache::disabled() } else { crate::cache::Cache::at(&self.cache) }
    }
}

/// Limits of predicate abstraction and refinement.
#[derive(clap::Args, Debug, Clone)]
pub struct CegarArgs {
    /// Give up (verdict unknown, exit 3) after this many seconds of the whole run.
    #[arg(long, value_name = "SECS")]
    pub timeout: Option<u64>,
    /// Give up after this many refinements.
    #[arg(long, default_value_t = 200)]
    pub max_refinements: usize,
    /// Work one SMT query may do, in Z3 resource units (`rlimit`; about 1.5 million a second on
    /// a 2020s x86 core); a query that needs more makes the verdict unknown. Work, not time, so
    /// that the verdict does not depend on the machine's load.
    #[arg(long, default_value_t = crate::smt::DEFAULT_QUERY_BUDGET, value_name = "UNITS")]
    pub query_budget: u32,
    /// The run's deadline, set when the command starts (from `--timeout`).
    #[arg(skip)]
    pub deadline: crate::deadline::Deadline,
}

impl CegarArgs {
    fn options(&self) -> crate::check::cegar::CegarOptions {
        crate::check::cegar::CegarOptions {
            max_refinements: self.max_refinements,
            query_budget: self.query_budget,
            deadline: self.deadline,
        }
    }

    /// Starts the run's clock: the deadline is `--timeout` from now.
    fn start(&mut self) {
        self.deadline = crate::deadline::Deadline::from_limit(self.timeout.map(std::time::Duration::from_secs));
    }
}

/// The `--cex` values.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum CexArg {
    /// Rivest–Schapire binary search for one suffix.
    Rs,
    /// The shortest suffix that makes the table not closed (paper 002 Algorithm 3).
    Suffix,
    /// Every suffix of the counterexample.
    All,
}

impl CexArg {
    fn mode(self) -> crate::learn::CexMode {
        match self {
            CexArg::Rs => crate::learn::CexMode::RivestSchapire,
            CexArg::Suffix => crate::learn::CexMode::SuffixSearch,
            CexArg::All => crate::learn::CexMode::AllSuffixes,
        }
    }
}

/// The `--engine` values.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineArg {
    /// Monolithic: the whole product, on the fly.
    Mono,
    /// Assume-guarantee with learned assumptions.
    Ag,
}

/// How `show` prints automata.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// One line per transition.
    Text,
    /// Graphviz DOT.
    Dot,
}

/// The `--format` values of `check`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReportFormat {
    /// For a terminal, with source excerpts.
    Text,
    /// The report as JSON (schema in `docs/report.md`).
    Json,
    /// SARIF 2.1.0, for code-scanning services.
    Sarif,
}

/// The `--data-model` values.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Model {
    /// `long` is 64 bits.
    Lp64,
    /// `long` is 32 bits.
    Ilp32,
}

impl COptions {
    fn front(&self) -> FrontOptions {
        FrontOptions {
            data_model: match self.data_model {
                Model::Lp64 => DataModel::Lp64,
                Model::Ilp32 => DataModel::Ilp32,
            },
            families: Default::default(),
            cpp_args: self.cpp.clone(),
        }
    }
}

/// The commands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Check that NEW can replace OLD. On C: containment of every changed component (the new
    /// version keeps every behaviour of the old one). On FSP models (`.lts`): compatibility by
    /// DynamicCheck, re-using what the check of OLD learned.
    Check {
        /// OLD and NEW: two FSP specs, or two C files or folders. With --git-base: the new
        /// versions (C files or folders), whose old versions are taken from git.
        #[arg(required = true, value_name = "PATHS")]
        paths: Vec<PathBuf>,
        /// Take the old versions of PATHS from this git revision (`git archive REV`), so a CI
        /// job on a branch needs no second checkout.
        #[arg(long, value_name = "REV")]
        git_base: Option<String>,
        /// The spec with event ranges and processes (default: `STEM.lts` beside the new file,
        /// then in its parent folder, then `specs/STEM.lts`).
        #[arg(long)]
        spec: Option<PathBuf>,
        /// A process of the spec whose behaviours the upgrade removes on purpose (a bug fix):
        /// they are not required of the new version.
        #[arg(long, value_name = "PROCESS")]
        removed: Option<String>,
        /// Check only compatibility (the assembly's properties), not containment.
        #[arg(long)]
        skip_containment: bool,
        /// Missing behaviours to report per component (at least 1).
        #[arg(long, default_value_t = 5, value_name = "K", value_parser = clap::value_parser!(u32).range(1..))]
        max_missing: u32,
        /// Report format.
        #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
        format: ReportFormat,
        /// Options of the compositional check.
        #[command(flatten)]
        ag: AgArgs,
        /// Options of predicate abstraction on C.
        #[command(flatten)]
        cegar: CegarArgs,
        /// The cache.
        #[command(flatten)]
        cache: CacheArgs,
        /// C options.
        #[command(flatten)]
        c: COptions,
    },
    /// Verify one assembly: an FSP model (`.lts`), or a C program against the SV-COMP
    /// `unreach-call` property (no call of `reach_error()`, no undefined behaviour).
    Verify {
        /// An FSP spec (`.lts`), or C files or folders.
        #[arg(required = true)]
        src: Vec<PathBuf>,
        /// The spec of an assembly of C components (default: `STEM.lts` beside the first C
        /// file, then `specs/STEM.lts`; with none, `main` against `reach_error`).
        #[arg(long)]
        spec: Option<PathBuf>,
        /// mono: explore the whole product; ag: assume-guarantee with learned assumptions.
        #[arg(long, value_enum, default_value_t = EngineArg::Mono)]
        engine: EngineArg,
        /// Options of the compositional check.
        #[command(flatten)]
        ag: AgArgs,
        /// Options of predicate abstraction on C.
        #[command(flatten)]
        cegar: CegarArgs,
        /// The cache (written by `--engine ag` on C).
        #[command(flatten)]
        cache: CacheArgs,
        /// C options.
        #[command(flatten)]
        c: COptions,
    },
    /// Look inside: the IR of components, or a run of the interpreter.
    Show {
        /// What to show.
        #[command(subcommand)]
        what: Show,
    },
}

/// What `subst show` can print.
#[derive(Subcommand, Debug)]
pub enum Show {
    /// The IR of components, in text form.
    Ir {
        /// C files or folders.
        #[arg(required = true)]
        src: Vec<PathBuf>,
        /// Components to show (default: `main`, or every `void f(void)` no other function calls).
        #[arg(long)]
        component: Vec<String>,
        /// C options.
        #[command(flatten)]
        c: COptions,
    },
    /// An FSP process or composition of a spec, as text or DOT.
    Lts {
        /// The spec (`.lts`).
        spec: PathBuf,
        /// The process or composition.
        name: String,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// Determinise and minimise first.
        #[arg(long)]
        minimize: bool,
    },
    /// Run a component in the interpreter and print its events.
    Run {
        /// C files or folders.
        #[arg(required = true)]
        src: Vec<PathBuf>,
        /// The component to run (default as for `show ir`, which must give exactly one).
        #[arg(long)]
        component: Option<String>,
        /// Input values in order, for nondet calls, receives and uninitialised locals (each
        /// within 64 bits: from -2^63 to 2^64 - 1).
        #[arg(long, value_delimiter = ',', allow_hyphen_values = true, conflicts_with = "seed", value_parser = parse_input)]
        inputs: Option<Vec<i128>>,
        /// Use pseudo-random inputs from this seed instead.
        #[arg(long)]
        seed: Option<u64>,
        /// Stop after this many events.
        #[arg(long, default_value_t = 50)]
        max_events: usize,
        /// Stop after this many IR steps.
        #[arg(long, default_value_t = 1_000_000)]
        max_steps: u64,
        /// C options.
        #[command(flatten)]
        c: COptions,
    },
}

/// One `--inputs` value: an integer that fits in 64 bits, signed or unsigned.
fn parse_input(text: &str) -> Result<i128, String> {
    let v: i128 = text.trim().parse().map_err(|e| format!("`{text}` is not an integer: {e}"))?;
    if v < i128::from(i64::MIN) || v > i128::from(u64::MAX) {
        return Err(format!("`{text}` does not fit in 64 bits (from -2^63 to 2^64 - 1)"));
    }
    Ok(v)
}

/// Sets up `tracing` to stderr: `RUST_LOG` if set, else a level from the `-v` count.
pub fn init_tracing(verbose: u8) {
    let default = match verbose {
        0 => "warn",
        1 => "info",
        2 => "debug",
        _ => "trace",
    };
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .try_init();
}

fn report(d: &Diagnostic) -> Exit {
    eprint!("{}", d.render(std::io::stderr().is_terminal()));
    Exit::BadInput
}

/// The stack of the thread [`run_on_big_stack`] starts. Only the pages a run touches are
/// mapped, so a large reservation costs nothing for ordinary inputs.
pub const WORK_STACK_BYTES: usize = 1 << 30;

/// [`run`] on a thread with a [`WORK_STACK_BYTES`] stack: a second guard against deep
/// recursion (in `lang_c`, in Z3, in drops of deep trees) behind the front end's depth limits
/// ([`crate::front::depth`]), never the only one.
pub fn run_on_big_stack(args: Args) -> Exit {
    let worker = std::thread::Builder::new().name("subst".into()).stack_size(WORK_STACK_BYTES).spawn(move || run(args));
    match worker.map(|w| w.join()) {
        Ok(Ok(code)) => code,
        Ok(Err(_)) => {
            eprintln!("error: internal error (a panic); this is a bug in subst, please report the input");
            Exit::Unknown
        }
        Err(e) => {
            eprintln!("error: cannot start the worker thread: {e}");
            Exit::Unknown
        }
    }
}

/// Runs a command and returns its exit code; output goes to stdout, diagnostics to stderr.
pub fn run(args: Args) -> Exit {
    match args.command {
        Command::Check {
            paths,
            git_base,
            spec,
            removed,
            skip_containment,
            max_missing,
            format,
            ag,
            mut cegar,
            cache,
            c,
        } => {
            cegar.start();
            let args = CheckC { spec, removed, skip_containment, max_missing, format, ag, cegar, cache, c };
            let result = match (git_base, paths.as_slice()) {
                (Some(rev), _) => check_git(&rev, &paths, &args),
                (None, [old, new]) if is_lts(old) && is_lts(new) => check(old, new, &args.ag),
                (None, [old, new]) => check_c(&Versions::given(old, new), &args),
                (None, _) => Err(Diagnostic::global("give OLD and NEW, or the new versions with --git-base REV")),
            };
            match result {
                Ok(code) => code,
                Err(d) => report(&d),
            }
        }
        Command::Verify { src, spec, engine, ag, mut cegar, cache, c } => {
            cegar.start();
            let engine = match engine {
                EngineArg::Mono => crate::check::verify::Engine::Mono,
                EngineArg::Ag => crate::check::verify::Engine::Ag,
            };
            let result = match src.as_slice() {
                [one] if is_lts(one) => verify(one, engine, &ag),
                _ if src.iter().any(|p| is_lts(p)) => {
                    Err(Diagnostic::global("give either one FSP spec or C sources (with the spec as --spec), not both"))
                }
                _ => verify_c(&src, spec.as_deref(), engine, &ag, &cegar, &cache, &c),
            };
            match result {
                Ok(code) => code,
                Err(d) => report(&d),
            }
        }
        Command::Show { what } => match show(what) {
            Ok(code) => code,
            Err(d) => report(&d),
        },
    }
}

/// Loads the spec at `path`, saying so when it is a C file rather than an FSP spec.
fn load_spec(path: &std::path::Path) -> Result<crate::spec::Spec, Diagnostic> {
    if path.extension().is_some_and(|x| x == "c" || x == "h" || x == "i") {
        return Err(Diagnostic::global(format!("{} is C, not an FSP spec", path.display())).with_note(
            "--spec takes the spec of the assembly, an FSP file such as `ipc.lts`; C files are given as arguments",
        ));
    }
    crate::spec::load(path)
}

fn is_lts(path: &std::path::Path) -> bool {
    path.extension().is_some_and(|x| x == "lts")
}

/// The spec of C sources: the one given, else `STEM.lts` beside the first file, else
/// `specs/STEM.lts`.
fn find_spec(src: &[PathBuf], given: Option<&std::path::Path>) -> Option<PathBuf> {
    if let Some(g) = given {
        return Some(g.to_path_buf());
    }
    let first = src.first()?;
    let stem = first.file_stem()?;
    let beside = first.with_file_name(stem).with_extension("lts");
    if beside.is_file() {
        return Some(beside);
    }
    let in_specs = PathBuf::from("specs").join(stem).with_extension("lts");
    in_specs.is_file().then_some(in_specs)
}

fn verify_c(
    src: &[PathBuf],
    spec: Option<&std::path::Path>,
    engine: crate::check::verify::Engine,
    ag: &AgArgs,
    cegar: &CegarArgs,
    cache: &CacheArgs,
    c: &COptions,
) -> Result<Exit, Diagnostic> {
    if let Some(spec_path) = find_spec(src, spec) {
        let spec = load_spec(&spec_path)?;
        let mut options = c.front();
        options.families = spec.family_ranges();
        let program = front::load(src, &options)?;
        let name = crate::check::verify::choose_assembly(&spec, ag.assembly.as_deref())?;
        let result = if engine == crate::check::verify::Engine::Ag {
            let options = crate::check::compat::CompatOptions {
                properties: ag.prop.clone(),
                order: ag.order.clone(),
                cex: ag.cex.mode(),
                limits: cegar.options(),
                cache: cache.cache(),
            };
            crate::check::compat::verify(&spec, &name, &program, &options)?
        } else {
            crate::check::cegar::verify_assembly(&spec, &name, &program, &ag.prop, cegar.options())?
        };
        print!("{}", crate::report::assembly_text(&result, ag.stats));
        return Ok(exit_of(&result.verdict()));
    }
    let program = front::load(src, &c.front())?;
    let names = components(&program, Vec::new())?;
    let [name] = names.as_slice() else {
        return Err(Diagnostic::global(format!(
            "several components ({}) and no spec; verifying an assembly of C components needs a spec (--spec)",
            names.join(", ")
        )));
    };
    let comp = program.lower(name)?;
    let result = crate::check::cegar::verify_program(&comp, cegar.options());
    print!("{}", crate::report::program_text(&comp, &result, ag.stats));
    Ok(exit_of(&result.verdict()))
}

fn exit_of(v: &crate::check::Verdict) -> Exit {
    match v {
        crate::check::Verdict::Holds => Exit::Holds,
        crate::check::Verdict::Fails(_) => Exit::Fails,
        crate::check::Verdict::Unknown(_) => Exit::Unknown,
    }
}

fn verify(src: &std::path::Path, engine: crate::check::verify::Engine, ag: &AgArgs) -> Result<Exit, Diagnostic> {
    let spec = crate::spec::load(src)?;
    let name = crate::check::verify::choose_assembly(&spec, ag.assembly.as_deref())?;
    let result = crate::check::verify::verify(&spec, &name, &ag.prop, engine, &ag.order, ag.cex.mode())?;
    print!("{}", crate::report::verification_text(&result, ag.stats));
    Ok(exit_of(&result.verdict()))
}

struct CheckC {
    spec: Option<PathBuf>,
    removed: Option<String>,
    skip_containment: bool,
    max_missing: u32,
    format: ReportFormat,
    ag: AgArgs,
    cegar: CegarArgs,
    cache: CacheArgs,
    c: COptions,
}

/// The spec of `subst check` on C: the one given, else `STEM.lts` beside the new file, in its
/// parent folder, or in `specs/`.
fn find_check_spec(new: &std::path::Path, given: Option<&std::path::Path>) -> Option<PathBuf> {
    if let Some(g) = given {
        return Some(g.to_path_buf());
    }
    let stem = new.file_stem()?;
    let dir = new.parent()?;
    let mut candidates = vec![dir.join(stem).with_extension("lts")];
    if let Some(up) = dir.parent() {
        candidates.push(up.join(stem).with_extension("lts"));
    }
    candidates.push(PathBuf::from("specs").join(stem).with_extension("lts"));
    candidates.into_iter().find(|c| c.is_file())
}

/// The two versions `subst check` compares on C.
struct Versions {
    /// Paths of the old version (empty: it has no C files).
    old: Vec<PathBuf>,
    /// Paths of the new version.
    new: Vec<PathBuf>,
    /// How the report names them.
    old_name: String,
    new_name: String,
    /// With `--git-base`: where the old versions were extracted, and from which revision.
    extracted: Option<(PathBuf, String)>,
}

impl Versions {
    fn given(old: &std::path::Path, new: &std::path::Path) -> Versions {
        Versions {
            old: vec![old.to_path_buf()],
            new: vec![new.to_path_buf()],
            old_name: old.display().to_string(),
            new_name: new.display().to_string(),
            extracted: None,
        }
    }
}

/// `subst check --git-base REV PATHS`: the old versions of PATHS from git, extracted to a
/// temporary folder (with their folders, so that local headers come along).
fn check_git(rev: &str, paths: &[PathBuf], args: &CheckC) -> Result<Exit, Diagnostic> {
    let dir = tempfile::Builder::new()
        .prefix("subst-base-")
        .tempdir()
        .map_err(|e| Diagnostic::global(format!("cannot make a temporary folder: {e}")))?;
    let mut old = Vec::new();
    for p in paths {
        if is_lts(p) {
            return Err(Diagnostic::global(format!("{}: --git-base takes C files or folders", p.display())));
        }
        if let Some(o) = git::old_version(rev, p, dir.path())? {
            old.push(o);
        }
    }
    let shown: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    let versions = Versions {
        old,
        new: paths.to_vec(),
        old_name: format!("{rev}:{}", shown.join(" ")),
        new_name: shown.join(" "),
        extracted: Some((dir.path().to_path_buf(), rev.to_string())),
    };
    check_c(&versions, args)
}

fn check_c(v: &Versions, args: &CheckC) -> Result<Exit, Diagnostic> {
    for p in v.old.iter().chain(&v.new) {
        if is_lts(p) {
            return Err(Diagnostic::global(format!(
                "{}: give two FSP specs or two C versions, not one of each",
                p.display()
            )));
        }
    }
    let first_new = v.new.first().ok_or_else(|| Diagnostic::global("no new version given"))?;
    let spec = match find_check_spec(first_new, args.spec.as_deref()) {
        Some(path) => Some(load_spec(&path)?),
        None => None,
    };
    let mut options = args.c.front();
    if let Some(spec) = &spec {
        options.families = spec.family_ranges();
    }
    let removed = match (&args.removed, &spec) {
        (None, _) => None,
        (Some(b), None) => {
            return Err(Diagnostic::global(format!(
                "--removed {b} names a process of the spec, but no spec was found; give one with --spec"
            )));
        }
        (Some(b), Some(spec)) => Some(spec.process(b)?),
    };
    let old_program = front::load(&v.old, &options)?;
    let new_program = front::load(&v.new, &options)?;
    let contain =
        crate::check::contain::ContainOptions { limits: args.cegar.options(), max_missing: args.max_missing as usize };
    let mut result = if args.skip_containment {
        crate::check::substitution::Substitution { components: Vec::new(), compat: None }
    } else {
        crate::check::substitution::check(&old_program, &new_program, removed.as_ref(), &contain)?
    };
    // Compatibility, when the spec has an assembly (or one is asked for).
    if let Some(spec) = &spec
        && (!spec.compositions().is_empty() || args.ag.assembly.is_some() || !args.ag.prop.is_empty())
    {
        let name = crate::check::verify::choose_assembly(spec, args.ag.assembly.as_deref())?;
        let options = crate::check::compat::CompatOptions {
            properties: args.ag.prop.clone(),
            order: args.ag.order.clone(),
            cex: args.ag.cex.mode(),
            limits: args.cegar.options(),
            cache: args.cache.cache(),
        };
        result.compat = Some(crate::check::compat::check(spec, &name, &old_program, &new_program, &options)?);
    } else if !args.ag.prop.is_empty() {
        return Err(Diagnostic::global(
            "--prop needs a spec with the assembly and its properties; give one with --spec",
        ));
    }
    let names = crate::report::check::Inputs {
        old: v.old_name.clone(),
        new: v.new_name.clone(),
        removed: args.removed.clone(),
    };
    let mut report = crate::report::check::CheckReport::new(&result, &names);
    if let Some((dir, rev)) = &v.extracted {
        report.relocate(dir, rev);
    }
    match args.format {
        ReportFormat::Text => print!("{}", report.text(std::io::stdout().is_terminal(), args.ag.stats)),
        ReportFormat::Json => println!("{}", report.json()),
        ReportFormat::Sarif => println!("{}", report.sarif()),
    }
    Ok(exit_of(&result.verdict()))
}

fn check(old: &std::path::Path, new: &std::path::Path, ag: &AgArgs) -> Result<Exit, Diagnostic> {
    let old_spec = crate::spec::load(old)?;
    let new_spec = crate::spec::load(new)?;
    let name = crate::check::verify::choose_assembly(&new_spec, ag.assembly.as_deref())?;
    let result = crate::check::upgrade::check_upgrade(&old_spec, &new_spec, &name, &ag.prop, &ag.order, ag.cex.mode())?;
    print!("{}", crate::report::upgrade_text(&result, ag.stats));
    Ok(exit_of(&result.verdict()))
}

fn components(program: &front::Program, named: Vec<String>) -> Result<Vec<String>, Diagnostic> {
    if !named.is_empty() {
        return Ok(named);
    }
    let found = program.default_components();
    if program.defined_functions().is_empty() {
        return Err(Diagnostic::global("the C sources define no function: there is no component to check")
            .with_note("a component is a function, e.g. `void writer(void) { ... }` or `int main(void) { ... }`"));
    }
    if found.is_empty() {
        return Err(Diagnostic::global("no component found: define `main` or name one with --component")
            .with_note(format!("defined functions: {}", program.defined_functions().join(", "))));
    }
    Ok(found)
}

fn show(what: Show) -> Result<Exit, Diagnostic> {
    match what {
        Show::Ir { src, component, c } => {
            let program = front::load(&src, &c.front())?;
            for (i, name) in components(&program, component)?.iter().enumerate() {
                let comp = program.lower(name)?;
                if i > 0 {
                    println!();
                }
                print!("{}", ir::text::component(&comp));
            }
            Ok(Exit::Holds)
        }
        Show::Lts { spec, name, format, minimize } => {
            let spec = crate::spec::load(&spec)?;
            let mut automaton = spec.process(&name)?;
            if minimize {
                automaton = crate::automata::minimize::minimize(&automaton);
            }
            match format {
                Format::Text => print!("{automaton}"),
                Format::Dot => print!("{}", crate::automata::dot::to_dot(&automaton, &name)),
            }
            Ok(Exit::Holds)
        }
        Show::Run { src, component, inputs, seed, max_events, max_steps, c } => {
            let program = front::load(&src, &c.front())?;
            let names = components(&program, component.into_iter().collect())?;
            let [name] = names.as_slice() else {
                return Err(Diagnostic::global(format!(
                    "several components ({}); name one with --component",
                    names.join(", ")
                )));
            };
            let comp = program.lower(name)?;
            let limits = interp::Limits { max_steps, max_events };
            let run = match seed {
                Some(s) => interp::run(&comp, &mut interp::Seeded::new(s), limits),
                None => interp::run(&comp, &mut interp::Scripted::new(inputs.unwrap_or_default()), limits),
            };
            let events: Vec<String> = run.events.iter().map(|e| e.to_string()).collect();
            println!("events: {}", events.join(" "));
            print!("end: {}", run.outcome);
            if let Some(o) = &run.last
                && matches!(run.outcome, interp::Outcome::Fault(_) | interp::Outcome::Blocked)
            {
                print!(" at {} `{}`", o.span, o.text);
            }
            println!();
            Ok(Exit::Holds)
        }
    }
}
