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
use crate::report::verdict::VerifyReport;

mod git;
pub mod progress;
pub mod show;

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

/// What `subst --help` shows after the options: examples and the exit codes.
const AFTER_HELP: &str = "\
Examples:
  subst check old/ipc.c new/ipc.c --prop P1      can new/ipc.c replace old/ipc.c?
  subst check --git-base main src/               the same, old versions from git
  subst verify prog.c                            SV-COMP unreach-call on main
  subst verify model.lts --format json           an FSP model, as JSON
  subst show ir prog.c                           the IR of a component

Exit codes:
  0  holds (substitutable, verified)
  1  does not hold; the report gives the evidence
  2  bad input or usage; a located message on stderr (a document on stdout under --format json|sarif)
  3  unknown: a limit was hit; the report says which";

/// subst: can the new versions of these C components replace the old ones?
#[derive(Parser, Debug)]
#[command(name = "subst", version, about, long_about = None, after_help = AFTER_HELP)]
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
    /// The learner of assumptions: L# (an observation tree, the default) or L* (an
    /// observation table). After an upgrade both start from what they learned before.
    #[arg(long, value_enum, default_value_t = LearnerArg::Lsharp)]
    pub learner: LearnerArg,
    /// How `check` re-uses, for a changed component, what was learned for its old version:
    /// its answers as hints (the default), all of them asked again, or adaptive L# with the
    /// old assumption as the reference model (L# only; L* then re-validates its table).
    #[arg(long, value_enum, default_value_t = ReuseArg::Hints)]
    pub reuse: ReuseArg,
    /// The compositional engine first explores up to this many states of the whole product:
    /// a violation found is the verdict, and so is "holds" when the product has no more
    /// states. Later CEGAR rounds, while no assumption has been learned, may explore up to four
    /// times the states of the largest search that decided, when that is more. 0 leaves every
    /// verdict to the assume-guarantee rule.
    #[arg(long, value_name = "STATES", default_value_t = crate::check::ag::PROBE_STATES)]
    pub probe_states: usize,
    /// The events each assumption of the compositional engine ranges over: first the events
    /// of its property, widened when a counterexample is spurious for want of an event
    /// (refine, alphabet refinement: the default, fewer membership queries on the IPC and the
    /// scalable assembly, `benches/LEARNING.md`), or the whole interface between its component
    /// and the rest (full).
    #[arg(long, value_enum, default_value_t = AlphabetArg::Refine)]
    pub alphabet: AlphabetArg,
}

/// The `--alphabet` values.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum AlphabetArg {
    /// The whole interface of each level.
    Full,
    /// Alphabet refinement (Gheorghiu, Giannakopoulou and Păsăreanu 2007).
    Refine,
}

impl AlphabetArg {
    fn alphabet(self) -> crate::check::ag::InterfaceAlphabet {
        match self {
            AlphabetArg::Full => crate::check::ag::InterfaceAlphabet::Full,
            AlphabetArg::Refine => crate::check::ag::InterfaceAlphabet::Refine,
        }
    }
}

/// The `--reuse` values.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReuseArg {
    /// The old answers are hints; the first one contradicted re-validates.
    Hints,
    /// Every old answer is asked again (paper 003's table re-validation).
    Revalidate,
    /// Adaptive L# (Kruger, Junges and Rot 2024) with the old assumption as reference.
    Adaptive,
    /// Hints; once one is contradicted, adaptive L# with the hinted hypothesis as reference.
    HintsThenAdaptive,
}

impl ReuseArg {
    fn reuse(self) -> crate::check::ag::Reuse {
        match self {
            ReuseArg::Hints => crate::check::ag::Reuse::Hints,
            ReuseArg::Revalidate => crate::check::ag::Reuse::Revalidate,
            ReuseArg::Adaptive => crate::check::ag::Reuse::Adaptive,
            ReuseArg::HintsThenAdaptive => crate::check::ag::Reuse::HintsThenAdaptive,
        }
    }
}

/// The `--learner` values.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum LearnerArg {
    /// L* (Angluin 1987) with Rivest–Schapire counterexamples.
    Lstar,
    /// L# (Vaandrager et al. 2022).
    Lsharp,
}

impl LearnerArg {
    fn algorithm(self) -> crate::learn::Algorithm {
        match self {
            LearnerArg::Lstar => crate::learn::Algorithm::LStar,
            LearnerArg::Lsharp => crate::learn::Algorithm::LSharp,
        }
    }
}

/// The `--blocks` values.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlocksArg {
    /// An abstract state at every location.
    Single,
    /// Abstract states at loop heads, event points and the entry (block encoding).
    Loop,
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
    /// that the verdict does not depend on the machine's load. At least 1: Z3 reads 0 as no
    /// limit at all.
    #[arg(long, default_value_t = crate::smt::DEFAULT_QUERY_BUDGET, value_name = "UNITS",
          value_parser = clap::value_parser!(u32).range(1..))]
    pub query_budget: u32,
    /// Memory for the explicit exploration of a new version in containment, in MiB; beyond it
    /// the must-abstraction is used, and a check that stays undecided names the bound.
    #[arg(long, default_value_t = 1024, value_name = "MIB")]
    pub explicit_memory: usize,
    /// Refine by weakest preconditions only, never by an invariant at a cut point of the
    /// spurious path (to measure what the invariants save).
    #[arg(long)]
    pub wp_only: bool,
    /// Where the may-abstractions of CEGAR and containment compute abstract states: at every
    /// location (`single`), or at loop heads, event points and the entry only, the code between
    /// them one formula (`loop`, block encoding). Default: `loop` for `verify` of one C
    /// program, `single` elsewhere (measured in benches/VERIFY.md: blocks cut `verify`'s
    /// abstract states and queries, but cost queries on the event-heavy models of containment
    /// and compatibility).
    #[arg(long, value_enum, value_name = "single|loop")]
    pub blocks: Option<BlocksArg>,
    /// The run's deadline, set when the command starts (from `--timeout`).
    #[arg(skip)]
    pub deadline: crate::deadline::Deadline,
}

impl CegarArgs {
    fn options(&self) -> crate::check::cegar::CegarOptions {
        self.options_with(BlocksArg::Single)
    }

    /// [`CegarArgs::options`] for `verify` of one C program: block encoding by default.
    fn program_options(&self) -> crate::check::cegar::CegarOptions {
        self.options_with(BlocksArg::Loop)
    }

    fn options_with(&self, blocks: BlocksArg) -> crate::check::cegar::CegarOptions {
        crate::check::cegar::CegarOptions {
            max_refinements: self.max_refinements,
            query_budget: self.query_budget,
            deadline: self.deadline,
            explicit_memory: self.explicit_memory.saturating_mul(1 << 20),
            generalise: !self.wp_only,
            blocks: match self.blocks.unwrap_or(blocks) {
                BlocksArg::Single => crate::abs::blocks::Blocks::Single,
                BlocksArg::Loop => crate::abs::blocks::Blocks::Loop,
            },
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

/// Where the report of `check` and `verify` goes: stdout in `--format`, and each file of
/// `--report FORMAT=PATH` in its own format.
#[derive(clap::Args, Clone, Debug)]
pub struct Output {
    /// Report format on stdout (schemas in docs/report.md).
    #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
    pub format: ReportFormat,
    /// Also write the report in FORMAT (text, json or sarif) to the file PATH, e.g. text on the
    /// terminal and `--report sarif=subst.sarif` for code scanning; may be repeated.
    #[arg(long = "report", value_name = "FORMAT=PATH", value_parser = report_file)]
    pub files: Vec<(ReportFormat, PathBuf)>,
}

/// Parses `FORMAT=PATH` of `--report`.
fn report_file(arg: &str) -> Result<(ReportFormat, PathBuf), String> {
    let (format, path) = arg.split_once('=').ok_or_else(|| format!("`{arg}` is not FORMAT=PATH"))?;
    let format = ReportFormat::from_str(format, false)
        .map_err(|_| format!("`{format}` is not a report format (text, json or sarif)"))?;
    if path.is_empty() {
        return Err(format!("`{arg}` names no file after `=`"));
    }
    Ok((format, PathBuf::from(path)))
}

impl Output {
    /// Writes the report: first to the files (a file that cannot be written is an error, exit
    /// 2), then to stdout. `render(format, terminal)` renders it; text for a terminal may
    /// carry colours, text for a file never does.
    fn emit(&self, render: impl Fn(ReportFormat, bool) -> String) -> Result<(), Diagnostic> {
        for (format, path) in &self.files {
            let mut doc = render(*format, false);
            if *format != ReportFormat::Text {
                doc.push('\n');
            }
            std::fs::write(path, doc).map_err(|e| {
                Diagnostic::global(format!("cannot write the {format:?} report to {}: {e}", path.display()))
            })?;
        }
        match self.format {
            ReportFormat::Text => print!("{}", render(ReportFormat::Text, std::io::stdout().is_terminal())),
            format => println!("{}", render(format, false)),
        }
        Ok(())
    }
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
        /// The spec with event ranges and processes (default: `STEM.lts` beside NEW, beside
        /// OLD, in their parent folders, then in `specs/`).
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
        /// Decide containment by the abstraction loop alone, without first trying the product
        /// of the two versions (to measure the loop).
        #[arg(long)]
        no_product: bool,
        /// Report formats and files.
        #[command(flatten)]
        out: Output,
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
        /// The spec of an assembly of C components (default: `STEM.lts` beside the sources, in
        /// their parent folders, then in `specs/`; with none, `main` against `reach_error`).
        #[arg(long)]
        spec: Option<PathBuf>,
        /// mono: explore the whole product; ag: assume-guarantee with learned assumptions.
        #[arg(long, value_enum, default_value_t = EngineArg::Mono)]
        engine: EngineArg,
        /// Report formats and files.
        #[command(flatten)]
        out: Output,
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
    /// Look inside: the IR of components, a C component's abstract model, a learned assumption
    /// or observation table, an FSP process (text or DOT), or a run of the interpreter.
    Show {
        /// What to show.
        #[command(subcommand)]
        what: Show,
    },
}

/// Which level of which check `show assumption|table` shows.
#[derive(clap::Args, Debug)]
pub struct LevelArgs {
    /// C files or folders, or one FSP spec (`.lts`).
    #[arg(required = true)]
    pub src: Vec<PathBuf>,
    /// The spec, for C sources (default: found as for `verify`).
    #[arg(long)]
    pub spec: Option<PathBuf>,
    /// The composition (default: the spec's only one).
    #[arg(long)]
    pub assembly: Option<String>,
    /// The property (default: the spec's only property that is not a part).
    #[arg(long)]
    pub prop: Option<String>,
    /// The level, from 0 (the first part of the order and the property).
    #[arg(long, default_value_t = 0)]
    pub level: usize,
    /// Component order of the compositional engine, as for `verify`.
    #[arg(long, value_delimiter = ',')]
    pub order: Vec<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// C options.
    #[command(flatten)]
    pub c: COptions,
}

/// What `subst show` can print.
#[derive(Subcommand, Debug)]
pub enum Show {
    /// The IR of components, as text or DOT.
    Ir {
        /// C files or folders.
        #[arg(required = true)]
        src: Vec<PathBuf>,
        /// Components to show (default: `main`, or every `void f(void)` no other function calls).
        #[arg(long)]
        component: Vec<String>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// C options.
        #[command(flatten)]
        c: COptions,
    },
    /// The abstract model of a C component (may; --must for must), at the predicates the cache
    /// holds for its code (else none), as text or DOT.
    Model {
        /// C files or folders.
        #[arg(required = true)]
        src: Vec<PathBuf>,
        /// The component (default as for `show ir`, which must give exactly one).
        #[arg(long)]
        component: Option<String>,
        /// The must-model (under-approximation) instead of the may-model.
        #[arg(long)]
        must: bool,
        /// The spec with the event ranges (default: found as for `verify`).
        #[arg(long)]
        spec: Option<PathBuf>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// The cache with the predicates.
        #[command(flatten)]
        cache: CacheArgs,
        /// C options.
        #[command(flatten)]
        c: COptions,
    },
    /// The assumption learned at one level of a property's compositional check (L*), as text
    /// or DOT: the check is run (on an FSP assembly, or on C components with the spec).
    Assumption {
        /// The level and how to check.
        #[command(flatten)]
        level: LevelArgs,
    },
    /// The observation table of one level of a property's compositional check (L*), as text
    /// or DOT.
    Table {
        /// The level and how to check.
        #[command(flatten)]
        level: LevelArgs,
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
    // z3's own debug lines (`z3::ast`, bridged from `log`) drown subst's at -vv; they are
    // shown from -vvv on, or when RUST_LOG asks for them.
    let default = match verbose {
        0 => "warn",
        1 => "info,z3=warn",
        2 => "debug,z3=warn",
        _ => "trace",
    };
    use tracing_subscriber::Layer;
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::util::SubscriberInitExt;
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default));
    let fmt = tracing_subscriber::fmt::layer()
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .with_filter(filter);
    // A progress line only when stderr is a terminal that no log writes to.
    let progress_on = verbose == 0 && std::env::var_os("RUST_LOG").is_none() && std::io::stderr().is_terminal();
    let progress = progress_on.then(|| {
        let targets = tracing_subscriber::filter::Targets::new().with_target("subst", tracing::Level::DEBUG);
        progress::ProgressLayer.with_filter(targets)
    });
    let _ = tracing_subscriber::registry().with(fmt).with(progress).try_init();
    progress::start(progress_on);
}

fn report(d: &Diagnostic) -> Exit {
    progress::clear();
    eprint!("{}", d.render(std::io::stderr().is_terminal()));
    Exit::BadInput
}

/// Reports an input error: rendered on stderr, and under `--format json|sarif` also as a
/// document on stdout, so that whoever reads stdout gets one.
fn report_as(d: &Diagnostic, format: ReportFormat) -> Exit {
    progress::clear();
    let doc = crate::report::verdict::ErrorReport::new(d);
    match format {
        ReportFormat::Text => {}
        ReportFormat::Json => println!("{}", doc.json()),
        ReportFormat::Sarif => println!("{}", doc.sarif()),
    }
    report(d)
}

/// The `--format` value in raw arguments that clap refused, so that a usage error under
/// `--format json|sarif` is a document too.
pub fn format_in(raw: &[std::ffi::OsString]) -> ReportFormat {
    let words: Vec<String> = raw.iter().map(|w| w.to_string_lossy().into_owned()).collect();
    let value = words.iter().enumerate().find_map(|(i, w)| match w.strip_prefix("--format") {
        Some("") => words.get(i + 1).cloned(),
        Some(rest) => rest.strip_prefix('=').map(str::to_string),
        None => None,
    });
    match value.as_deref() {
        Some("json") => ReportFormat::Json,
        Some("sarif") => ReportFormat::Sarif,
        _ => ReportFormat::Text,
    }
}

/// A usage error from clap: printed as clap does, and under `--format json|sarif` also as an
/// error document on stdout. Returns the exit code.
pub fn usage_error(e: &clap::Error, raw: &[std::ffi::OsString]) -> Exit {
    use clap::error::ErrorKind;
    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
        let _ = e.print();
        return Exit::Holds;
    }
    let format = format_in(raw);
    let text = e.render().to_string();
    let headline = text.lines().next().unwrap_or("bad usage").trim_start_matches("error: ").to_string();
    let doc = crate::report::verdict::ErrorReport::new(&Diagnostic::global(headline));
    match format {
        ReportFormat::Text => {}
        ReportFormat::Json => println!("{}", doc.json()),
        ReportFormat::Sarif => println!("{}", doc.sarif()),
    }
    let _ = e.print();
    Exit::BadInput
}

/// The stack of the thread [`run_on_big_stack`] starts. Only the pages a run touches are
/// mapped, so a large reservation costs nothing for ordinary inputs.
pub const WORK_STACK_BYTES: usize = 1 << 30;

/// [`run`] on a thread with a [`WORK_STACK_BYTES`] stack: a second guard against deep
/// recursion (in `lang_c`, in Z3, in drops of deep trees) behind the front end's depth limits
/// ([`crate::front::depth`]), never the only one.
///
/// The process exits from that thread as soon as the run returns and its output is flushed:
/// tearing down what the thread still holds (Z3's context with every term of the run) adds
/// nothing to the answer and took up to a second past `--timeout`.
pub fn run_on_big_stack(args: Args) -> Exit {
    let worker =
        std::thread::Builder::new().name("subst".into()).stack_size(WORK_STACK_BYTES).spawn(move || -> Exit {
            let code = run(args);
            use std::io::Write;
            let _ = std::io::stdout().flush();
            let _ = std::io::stderr().flush();
            std::process::exit(code as i32)
        });
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
            no_product,
            out,
            ag,
            mut cegar,
            cache,
            c,
        } => {
            cegar.start();
            let deadline = cegar.deadline;
            let format = out.format;
            let args = CheckC { spec, removed, skip_containment, max_missing, no_product, out, ag, cegar, cache, c };
            let result = crate::smt::with_watchdog(deadline, || match (git_base, paths.as_slice()) {
                (Some(rev), _) => check_git(&rev, &paths, &args),
                (None, [old, new]) if is_lts(old) && is_lts(new) => check(old, new, &args.ag, &args.out, deadline),
                (None, [old, new]) => check_c(&Versions::given(old, new), &args),
                (None, _) => Err(Diagnostic::global("give OLD and NEW, or the new versions with --git-base REV")),
            });
            match result {
                Ok(code) => code,
                Err(d) => report_as(&d, format),
            }
        }
        Command::Verify { src, spec, engine, out, ag, mut cegar, cache, c } => {
            cegar.start();
            let format = out.format;
            let engine = match engine {
                EngineArg::Mono => crate::check::verify::Engine::Mono,
                EngineArg::Ag => crate::check::verify::Engine::Ag,
            };
            let result = crate::smt::with_watchdog(cegar.deadline, || match src.as_slice() {
                [one] if is_lts(one) => verify(one, engine, &ag, &out, cegar.deadline),
                _ if src.iter().any(|p| is_lts(p)) => {
                    Err(Diagnostic::global("give either one FSP spec or C sources (with the spec as --spec), not both"))
                }
                _ => verify_c(&src, spec.as_deref(), engine, &out, &ag, &cegar, &cache, &c),
            });
            match result {
                Ok(code) => code,
                Err(d) => report_as(&d, format),
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

/// Where the spec of C sources was found, and every place that was tried.
struct SpecSearch {
    found: Option<PathBuf>,
    looked: Vec<PathBuf>,
}

impl SpecSearch {
    /// The places tried, for a message.
    fn looked(&self) -> String {
        let places: Vec<String> = self.looked.iter().map(|p| p.display().to_string()).collect();
        format!("no spec given (--spec) or found; looked for {}", places.join(", "))
    }

    /// Adds where the spec was looked for to a diagnostic about C sources read without one:
    /// such errors (an event family without a range, an unknown component) often mean the
    /// spec was not found.
    fn explain(&self, d: Diagnostic) -> Diagnostic {
        if self.found.is_some() { d } else { d.with_note(self.looked()) }
    }
}

/// The one spec search of every command: the spec given, else `STEM.lts` beside each new
/// path, beside each old one, in their parent folders, then in `specs/` of the current folder.
/// `new` and `old` are the paths as given; a folder stands for itself (STEM its name) and for
/// each C file in it (STEM the file's stem, beside it the folder).
fn find_spec(given: Option<&std::path::Path>, new: &[PathBuf], old: &[PathBuf]) -> SpecSearch {
    if let Some(g) = given {
        tracing::info!("spec: {} (given)", g.display());
        return SpecSearch { found: Some(g.to_path_buf()), looked: vec![g.to_path_buf()] };
    }
    let stem_dir = |p: &PathBuf| -> Option<(std::ffi::OsString, PathBuf)> {
        let stem = p.file_stem()?.to_os_string();
        let dir = p.parent().map(std::path::Path::to_path_buf).unwrap_or_default();
        Some((stem, dir))
    };
    // A folder stands for its C files (and for its own name, as a file would).
    let expand = |p: &PathBuf| -> Vec<PathBuf> {
        let mut out = vec![p.clone()];
        if p.is_dir() {
            out.extend(front::c_files(p).unwrap_or_default());
        }
        out
    };
    let versions: Vec<(std::ffi::OsString, PathBuf)> =
        new.iter().chain(old).flat_map(expand).filter_map(|p| stem_dir(&p)).collect();
    let mut looked: Vec<PathBuf> = Vec::new();
    let mut push = |p: PathBuf| {
        if !looked.contains(&p) {
            looked.push(p);
        }
    };
    for (stem, dir) in &versions {
        push(dir.join(stem).with_extension("lts"));
    }
    for (stem, dir) in &versions {
        if let Some(up) = dir.parent() {
            push(up.join(stem).with_extension("lts"));
        }
    }
    for (stem, _) in &versions {
        push(PathBuf::from("specs").join(stem).with_extension("lts"));
    }
    let found = looked.iter().find(|c| c.is_file()).cloned();
    match &found {
        Some(f) => tracing::info!("spec: {}", f.display()),
        None => tracing::info!("no spec: looked for {looked:?}"),
    }
    SpecSearch { found, looked }
}

#[allow(clippy::too_many_arguments)]
fn verify_c(
    src: &[PathBuf],
    spec: Option<&std::path::Path>,
    engine: crate::check::verify::Engine,
    out: &Output,
    ag: &AgArgs,
    cegar: &CegarArgs,
    cache: &CacheArgs,
    c: &COptions,
) -> Result<Exit, Diagnostic> {
    let search = find_spec(spec, src, &[]);
    if let Some(spec_path) = &search.found {
        let spec = load_spec(spec_path)?;
        let mut options = c.front();
        options.families = spec.family_ranges();
        let program = front::load(src, &options)?;
        check_props(&spec, &program)?;
        let name = crate::check::verify::choose_assembly(&spec, ag.assembly.as_deref())?;
        progress::phase("verification");
        let result = if engine == crate::check::verify::Engine::Ag {
            let options = crate::check::compat::CompatOptions {
                properties: ag.prop.clone(),
                order: ag.order.clone(),
                cex: ag.cex.mode(),
                learner: ag.learner.algorithm(),
                reuse: ag.reuse.reuse(),
                probe: ag.probe_states,
                alphabet: ag.alphabet.alphabet(),
                limits: cegar.options(),
                cache: cache.cache(),
            };
            crate::check::compat::verify(&spec, &name, &program, &options)?
        } else {
            crate::check::cegar::verify_assembly(&spec, &name, &program, &ag.prop, cegar.options())?
        };
        let target = shown(src);
        let labels = crate::report::labels::of_assembly(&spec, &name, &result);
        progress::clear();
        out.emit(|format, _| match format {
            ReportFormat::Text => crate::report::assembly_text_labelled(&result, ag.stats, &labels),
            ReportFormat::Json => VerifyReport::of_assembly(&target, &result).with_labels(&labels).json(),
            ReportFormat::Sarif => VerifyReport::of_assembly(&target, &result).with_labels(&labels).sarif(),
        })?;
        return Ok(exit_of(&result.verdict()));
    }
    // Without a spec the one property is `unreach-call`: a property or assembly named on the
    // command line would be silently ignored, and "holds" would not be about it.
    if let Some(named) =
        ag.prop.first().map(|p| format!("--prop {p}")).or(ag.assembly.as_ref().map(|a| format!("--assembly {a}")))
    {
        return Err(Diagnostic::global(format!(
            "{named} names a part of a spec, and there is no spec; without one, subst verify checks that `main` never calls `reach_error()`"
        ))
        .with_note(search.looked()));
    }
    let program = front::load(src, &c.front())?;
    let names = components(&program, Vec::new()).map_err(|d| search.explain(d))?;
    let [name] = names.as_slice() else {
        return Err(Diagnostic::global(format!(
            "several components ({}) and no spec; verifying an assembly of C components needs a spec (--spec)",
            names.join(", ")
        ))
        .with_note(search.looked()));
    };
    let comp = program.lower(name)?;
    refuse_error_labels(&program, &comp)?;
    progress::phase("verification");
    let result = crate::check::cegar::verify_program(&comp, cegar.program_options());
    let target = shown(src);
    progress::clear();
    out.emit(|format, _| match format {
        ReportFormat::Text => crate::report::program_text(&comp, &result, ag.stats),
        ReportFormat::Json => VerifyReport::of_program(&target, &comp, &result).json(),
        ReportFormat::Sarif => VerifyReport::of_program(&target, &comp, &result).sarif(),
    })?;
    Ok(exit_of(&result.verdict()))
}

/// Refuses a program that marks its error with the label `ERROR:` and never calls an error
/// function, as SV-COMP tasks before 2012 did: subst checks calls of `reach_error()` (and its
/// siblings) and undefined behaviour, not labels, so "holds" would say nothing about the
/// label the author meant. A program that calls an error function after the label (`ERROR:
/// reach_error();`, today's tasks) is checked as usual.
fn refuse_error_labels(program: &front::Program, comp: &ir::Component) -> Result<(), Diagnostic> {
    let calls_error = comp
        .edges
        .iter()
        .any(|e| matches!(&e.stmt, ir::Stmt::Event(ir::Event::Plain(n)) if n == crate::front::ERROR_EVENT));
    if calls_error {
        return Ok(());
    }
    let Some(label) = program.labels_named("ERROR").into_iter().next() else { return Ok(()) };
    Err(Diagnostic::at(
        label,
        "the label `ERROR` is not a property subst checks",
        "reaching this label is not an error to subst",
    )
    .with_note(
        "subst verify checks that `reach_error()`, `__VERIFIER_error()` or `__assert_fail()` is never \
         called and that no undefined behaviour is reachable; this program calls none of them",
    )
    .with_note("to check the label, call the error function there: `ERROR: reach_error();`"))
}

/// Paths as the reports name them.
fn shown(paths: &[PathBuf]) -> String {
    paths.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(" ")
}

/// Checks the spec's propositions against the C sources (see [`crate::spec::Spec::check_props`]),
/// then converts each C proposition's condition as its component's models would, so that a
/// condition that no guard reads is rejected at its line all the same (a syntax error, a side
/// effect, a division).
fn check_props(spec: &crate::spec::Spec, program: &front::Program) -> Result<(), Diagnostic> {
    if spec.props().is_empty() {
        return Ok(());
    }
    let defined = program.defined_functions();
    let constants = program.enum_constants();
    spec.check_props(
        &mut |name| {
            if !defined.iter().any(|d| d == name) {
                return Ok(None);
            }
            let comp = program.lower(name)?;
            let globals = comp.vars.iter().filter(|v| matches!(v.storage, ir::Storage::Global { .. }));
            Ok(Some(globals.map(|v| v.name.clone()).collect()))
        },
        &constants,
    )?;
    let mut lowered: crate::util::HashMap<&str, ir::Component> = Default::default();
    for p in spec.props().iter().filter(|p| !p.fsp) {
        if !lowered.contains_key(p.component.as_str()) {
            lowered.insert(&p.component, program.lower(&p.component)?);
        }
        program.prop_condition(&lowered[p.component.as_str()], &p.expr, &p.expr_span)?;
    }
    Ok(())
}

fn exit_of(v: &crate::check::Verdict) -> Exit {
    match v {
        crate::check::Verdict::Holds => Exit::Holds,
        crate::check::Verdict::Fails(_) => Exit::Fails,
        crate::check::Verdict::Unknown(_) => Exit::Unknown,
    }
}

fn verify(
    src: &std::path::Path,
    engine: crate::check::verify::Engine,
    ag: &AgArgs,
    out: &Output,
    deadline: crate::deadline::Deadline,
) -> Result<Exit, Diagnostic> {
    let spec = crate::spec::load(src)?;
    let name = crate::check::verify::choose_assembly(&spec, ag.assembly.as_deref())?;
    progress::phase("verification");
    let result = crate::check::verify::verify(
        &spec,
        &name,
        &ag.prop,
        engine,
        &ag.order,
        ag.cex.mode(),
        (ag.learner.algorithm(), ag.alphabet.alphabet()),
        ag.probe_states,
        deadline,
    )?;
    let target = src.display().to_string();
    progress::clear();
    out.emit(|format, _| match format {
        ReportFormat::Text => crate::report::verification_text(&result, ag.stats),
        ReportFormat::Json => VerifyReport::of_model(&target, &result).json(),
        ReportFormat::Sarif => VerifyReport::of_model(&target, &result).sarif(),
    })?;
    Ok(exit_of(&result.verdict()))
}

struct CheckC {
    spec: Option<PathBuf>,
    removed: Option<String>,
    skip_containment: bool,
    max_missing: u32,
    no_product: bool,
    out: Output,
    ag: AgArgs,
    cegar: CegarArgs,
    cache: CacheArgs,
    c: COptions,
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
    if v.new.is_empty() {
        return Err(Diagnostic::global("no new version given"));
    }
    // With --git-base the old versions sit in a temporary folder; the spec is searched for
    // beside the paths as given.
    let old_paths: &[PathBuf] = if v.extracted.is_some() { &[] } else { &v.old };
    let search = find_spec(args.spec.as_deref(), &v.new, old_paths);
    let spec = match &search.found {
        Some(path) => Some(load_spec(path)?),
        None => None,
    };
    if args.skip_containment && spec.is_none() {
        // Compatibility needs the spec's properties: without one there is nothing to check,
        // and "substitutable" would claim what no check showed.
        return Err(Diagnostic::global("--skip-containment leaves nothing to check: no spec was given or found")
            .with_note(search.looked())
            .with_note("compatibility checks the properties of the spec; give it with --spec"));
    }
    let mut options = args.c.front();
    if let Some(spec) = &spec {
        options.families = spec.family_ranges();
    }
    let removed = match (&args.removed, &spec) {
        (None, _) => None,
        (Some(b), None) => {
            return Err(Diagnostic::global(format!(
                "--removed {b} names a process of the spec, but no spec was found; give one with --spec"
            ))
            .with_note(search.looked()));
        }
        (Some(b), Some(spec)) => Some(spec.process(b)?),
    };
    progress::phase("reading sources");
    let old_program = front::load(&v.old, &options)?;
    let new_program = front::load(&v.new, &options)?;
    if let Some(spec) = &spec {
        check_props(spec, &new_program)?;
    }
    let contain = crate::check::contain::ContainOptions {
        limits: args.cegar.options(),
        max_missing: args.max_missing as usize,
        product: !args.no_product,
    };
    // Made once, so that a cache that cannot be used is reported once.
    let cache = args.cache.cache();
    progress::phase("containment");
    let mut result = if args.skip_containment {
        crate::check::substitution::Substitution { components: Vec::new(), compat: None }
    } else {
        crate::check::substitution::check_labelled(
            &old_program,
            &new_program,
            removed.as_ref(),
            &contain,
            &cache,
            spec.as_ref(),
        )
        .map_err(|d| search.explain(d))?
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
            learner: args.ag.learner.algorithm(),
            reuse: args.ag.reuse.reuse(),
            probe: args.ag.probe_states,
            alphabet: args.ag.alphabet.alphabet(),
            limits: args.cegar.options(),
            cache,
        };
        progress::phase("compatibility");
        result.compat = Some(compatibility(spec, &name, &old_program, &new_program, &options)?);
    } else if !args.ag.prop.is_empty() {
        return Err(Diagnostic::global(
            "--prop needs a spec with the assembly and its properties; give one with --spec",
        )
        .with_note(search.looked()));
    }
    let names = crate::report::check::Inputs {
        old: v.old_name.clone(),
        new: v.new_name.clone(),
        removed: args.removed.clone(),
    };
    let mut report = crate::report::check::CheckReport::new(&result, &names);
    if let (Some(spec), Some(c)) = (&spec, &result.compat) {
        let name = crate::check::verify::choose_assembly(spec, args.ag.assembly.as_deref())?;
        report.set_labels(&crate::report::labels::of_compat(spec, &name, c));
    }
    if let Some((dir, rev)) = &v.extracted {
        report.relocate(dir, rev);
    }
    progress::clear();
    args.out.emit(|format, terminal| match format {
        ReportFormat::Text => report.text(terminal, args.ag.stats),
        ReportFormat::Json => report.json(),
        ReportFormat::Sarif => report.sarif(),
    })?;
    Ok(exit_of(&result.verdict()))
}

/// Compatibility of the upgraded assembly. When the old version lacks a C component that the
/// assembly names (the upgrade adds it), there is no old assembly: the new one is checked on
/// its own, and each property's old run is unknown with that reason. When the new version lacks
/// one, the upgraded assembly cannot be built: an error that names the component.
fn compatibility(
    spec: &crate::spec::Spec,
    name: &str,
    old: &front::Program,
    new: &front::Program,
    options: &crate::check::compat::CompatOptions,
) -> Result<crate::check::compat::Compatibility, Diagnostic> {
    use crate::check::cegar::CegarOutcome;
    use crate::check::compat::{CompatRun, Compatibility, PropertyCompat};
    let parts = spec.c_components(name)?;
    let (old_fns, new_fns) = (old.defined_functions(), new.defined_functions());
    if let Some(gone) = parts.iter().find(|p| !new_fns.contains(p)) {
        let msg = format!("the assembly {name} names the C component `{gone}`, which the new version does not define");
        let d = match spec.span_of_part(name, gone) {
            Some(span) => Diagnostic::at(span, msg, "named here"),
            None => Diagnostic::global(msg),
        };
        let was = if old_fns.contains(gone) { "the old version defines it" } else { "neither version defines it" };
        return Err(
            d.with_note(format!("{was}; drop it from the assembly, or give the new version's file that defines it"))
        );
    }
    let added: Vec<&String> = parts.iter().filter(|p| !old_fns.contains(p)).collect();
    if added.is_empty() {
        return crate::check::compat::check(spec, name, old, new, options);
    }
    let shown: Vec<String> = added.iter().map(|a| format!("`{a}`")).collect();
    let why = format!("the old version has no component {}: only the new assembly is checked", shown.join(", "));
    tracing::info!("{why}");
    let result = crate::check::compat::verify(spec, name, new, options)?;
    let results = result
        .results
        .into_iter()
        .map(|p| PropertyCompat {
            property: p.property,
            order: p.order,
            original: CompatRun {
                outcome: CegarOutcome::Unknown(crate::check::Reason::NotChecked(why.clone())),
                stats: Default::default(),
                time: Default::default(),
                cached: false,
                abandoned: None,
            },
            upgrade: CompatRun {
                outcome: p.outcome,
                time: p.stats.time,
                stats: p.stats,
                cached: false,
                abandoned: None,
            },
        })
        .collect();
    Ok(Compatibility { assembly: result.assembly, components: result.components, results })
}

fn check(
    old: &std::path::Path,
    new: &std::path::Path,
    ag: &AgArgs,
    out: &Output,
    deadline: crate::deadline::Deadline,
) -> Result<Exit, Diagnostic> {
    let old_spec = crate::spec::load(old)?;
    let new_spec = crate::spec::load(new)?;
    let name = crate::check::verify::choose_assembly(&new_spec, ag.assembly.as_deref())?;
    progress::phase("compatibility");
    let result = crate::check::upgrade::check_upgrade(
        &old_spec,
        &new_spec,
        &name,
        &ag.prop,
        &ag.order,
        ag.cex.mode(),
        (ag.learner.algorithm(), ag.alphabet.alphabet()),
        ag.probe_states,
        ag.reuse.reuse(),
        deadline,
    )?;
    let report =
        || crate::report::verdict::UpgradeReport::new(&old.display().to_string(), &new.display().to_string(), &result);
    out.emit(|format, _| match format {
        ReportFormat::Text => crate::report::upgrade_text(&result, ag.stats),
        ReportFormat::Json => report().json(),
        ReportFormat::Sarif => report().sarif(),
    })?;
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

/// `show assumption` (or `show table`): runs the property's compositional check and prints
/// what level `args.level` learned.
fn show_level(args: LevelArgs, table: bool) -> Result<Exit, Diagnostic> {
    let lts = args.src.len() == 1 && is_lts(&args.src[0]);
    let spec_path = if lts { Some(args.src[0].clone()) } else { args.spec.clone() };
    let search = find_spec(spec_path.as_deref(), &args.src, &[]);
    let Some(path) = &search.found else {
        return Err(Diagnostic::global("no spec found: give one with --spec").with_note(search.looked()));
    };
    let spec = load_spec(path)?;
    let name = crate::check::verify::choose_assembly(&spec, args.assembly.as_deref())?;
    let props = spec.properties();
    let prop = match (&args.prop, props.as_slice()) {
        (Some(p), _) => p.clone(),
        (None, [one]) => one.clone(),
        _ => {
            return Err(Diagnostic::global("name the property with --prop")
                .with_note(format!("properties: {}", props.join(", "))));
        }
    };
    if !spec.is_property(&prop) {
        return Err(Diagnostic::global(format!("`{prop}` is not a property of {}", spec.file()))
            .with_note(format!("properties: {}", props.join(", "))));
    }
    let mut shown: Option<Result<String, Diagnostic>> = None;
    let mut inspect = |_: &str, order: &[String], checker: &crate::check::ag::DynamicChecker| {
        shown = Some(show::level(checker, order, args.level, table, args.format == Format::Dot));
    };
    if lts {
        crate::check::verify::inspect_level(&spec, &name, &prop, &args.order, &mut inspect)?;
    } else {
        let mut options = args.c.front();
        options.families = spec.family_ranges();
        let program = front::load(&args.src, &options)?;
        check_props(&spec, &program)?;
        let options = crate::check::compat::CompatOptions {
            properties: vec![prop.clone()],
            order: args.order.clone(),
            cex: crate::learn::CexMode::RivestSchapire,
            learner: crate::learn::Algorithm::LStar,
            reuse: Default::default(),
            // What is shown is learned: no search of the product may decide first.
            probe: 0,
            alphabet: Default::default(),
            limits: Default::default(),
            cache: crate::cache::Cache::disabled(),
        };
        crate::check::compat::verify_inspected(&spec, &name, &program, &options, &mut inspect)?;
    }
    match shown {
        Some(text) => {
            print!("{}", text?);
            Ok(Exit::Holds)
        }
        None => Err(Diagnostic::global(format!("the check of `{prop}` ran no compositional level"))),
    }
}

fn show(what: Show) -> Result<Exit, Diagnostic> {
    match what {
        Show::Ir { src, component, format, c } => {
            let program = front::load(&src, &c.front())?;
            for (i, name) in components(&program, component)?.iter().enumerate() {
                let comp = program.lower(name)?;
                if i > 0 {
                    println!();
                }
                match format {
                    Format::Text => print!("{}", ir::text::component(&comp)),
                    Format::Dot => print!("{}", show::ir_dot(&comp)),
                }
            }
            Ok(Exit::Holds)
        }
        Show::Model { src, component, must, spec, format, cache, c } => {
            let search = find_spec(spec.as_deref(), &src, &[]);
            let mut options = c.front();
            if let Some(path) = &search.found {
                options.families = crate::spec::load(path)?.family_ranges();
            }
            let program = front::load(&src, &options)?;
            let names = components(&program, component.into_iter().collect())?;
            let [name] = names.as_slice() else {
                return Err(Diagnostic::global(format!(
                    "several components ({}); name one with --component",
                    names.join(", ")
                )));
            };
            let comp = program.lower(name)?;
            let mode = if must { crate::abs::Mode::Must } else { crate::abs::Mode::May };
            let model = show::model(&comp, crate::abs::EventView::Visible, mode, &cache.cache())?;
            match format {
                Format::Text => print!("{}", show::model_text(&comp, &model, mode)),
                Format::Dot => print!("{}", show::model_dot(&comp, &model, mode)),
            }
            Ok(Exit::Holds)
        }
        Show::Assumption { level } => show_level(level, false),
        Show::Table { level } => show_level(level, true),
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
