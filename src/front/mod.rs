//! The C front end, and the only user of `lang_c`: preprocess with `gcc -E` (a `.i` file is
//! already preprocessed and is parsed as it is), parse, and lower component functions to the IR.
//!
//! Architecture invariant: nothing outside this module sees a `lang_c` type. What leaves it is
//! an [`ir::Component`](crate::ir::Component) or a [`Diagnostic`].
//!
//! Faithfulness rules (PRODUCT.md, "Supported C"): integer types have gcc's sizes (LP64, or
//! ILP32 on request); signed overflow wraps as under `-fwrapv`; every other undefined behaviour
//! becomes an explicit check in the IR; a construct outside the subset is rejected with its
//! location, never approximated. Unsequenced side effects whose order could change the result
//! are rejected too, because gcc's choice of order is not something subst can know.

mod builtins;
mod ctype;
pub mod depth;
mod effects;
mod lower;
mod prop;
mod source_map;

pub use builtins::{ERROR_EVENT, NONDET_SUFFIXES, c_type_by_name, nondet_type};

use crate::util::HashMap;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use lang_c::ast::{
    DeclarationSpecifier, ExternalDeclaration, FunctionDefinition, StorageClassSpecifier, TranslationUnit,
};
use lang_c::driver::{Config, Flavor};

use crate::diag::Diagnostic;
use crate::ir::Component;
use source_map::SourceMap;

/// The sizes of C's integer types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum DataModel {
    /// `long` is 64 bits (gcc on x86-64 Linux).
    #[default]
    Lp64,
    /// `long` is 32 bits, as many SV-COMP tasks declare.
    Ilp32,
}

impl DataModel {
    /// The width of `long`.
    pub fn long_bits(self) -> u8 {
        match self {
            DataModel::Lp64 => 64,
            DataModel::Ilp32 => 32,
        }
    }
}

/// What the front end needs to know beyond the sources.
#[derive(Clone, Debug, Default)]
pub struct FrontOptions {
    /// Integer sizes.
    pub data_model: DataModel,
    /// Event families declared by the spec, with their inclusive value ranges.
    pub families: BTreeMap<String, (i128, i128)>,
    /// Extra arguments for the preprocessor, e.g. `-I` and `-D` options.
    pub cpp_args: Vec<String>,
}

/// One parsed C file.
pub(crate) struct Unit {
    pub(crate) path: PathBuf,
    pub(crate) ast: TranslationUnit,
    pub(crate) map: RefCell<SourceMap>,
}

/// Parsed C sources, ready to lower components from.
pub struct Program {
    pub(crate) units: Vec<Unit>,
    pub(crate) options: FrontOptions,
    /// Definitions of functions with external linkage: name -> (unit, index in the unit).
    pub(crate) external_functions: HashMap<String, (usize, usize)>,
    /// Per unit, the first definition of each function name (static or not): name -> index in
    /// the unit, so that finding a callee does not scan the unit's declarations per call.
    pub(crate) unit_functions: Vec<HashMap<String, usize>>,
}

/// The C files to read for a path: the file itself, or the `.c` and `.i` files of a folder, sorted.
pub fn c_files(path: &Path) -> Result<Vec<PathBuf>, Diagnostic> {
    if path.is_dir() {
        let entries = std::fs::read_dir(path)
            .map_err(|e| Diagnostic::global(format!("cannot read folder {}: {e}", path.display())))?;
        let mut files: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "c" || x == "i") && p.is_file())
            .collect();
        files.sort();
        if files.is_empty() {
            return Err(Diagnostic::global(format!("folder {} holds no .c or .i files", path.display())));
        }
        Ok(files)
    } else if path.is_file() {
        Ok(vec![path.to_path_buf()])
    } else {
        // Said as it is: a FIFO or a device (`/dev/zero`) is not read, and a link that loops
        // is no missing file.
        match std::fs::metadata(path) {
            Ok(_) => Err(Diagnostic::global(format!(
                "{} is not a regular file or a folder (a FIFO, socket or device is not read)",
                path.display()
            ))),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                Err(Diagnostic::global(format!("{}: no such file or folder", path.display())))
            }
            Err(e) => Err(Diagnostic::global(format!("cannot read {}: {e}", path.display()))),
        }
    }
}

/// The text of an already preprocessed (`.i`) file, made ready for the parser: its line markers
/// are blanked and one marker naming the `.i` file itself is put first, so that every location
/// subst reports is a line of the file the user has (the markers name files that usually exist
/// only where the task was preprocessed).
fn preprocessed_text(path: &Path, text: &str) -> String {
    let name = path.display().to_string().replace('\\', "\\\\").replace('"', "\\\"");
    let mut out = format!("# 1 \"{name}\"\n");
    for line in text.split_inclusive('\n') {
        if line.trim_start().starts_with('#') {
            // Keep the line (and so the numbering), drop the directive.
            out.push_str(if line.ends_with('\n') { "\n" } else { "" });
        } else {
            out.push_str(line);
        }
    }
    out
}

/// Whether `path` names a preprocessed C file (`.i`), which is parsed as it is.
fn is_preprocessed(path: &Path) -> bool {
    path.extension().is_some_and(|x| x == "i")
}

/// The text of `path`, or a diagnostic at its first byte that is not UTF-8.
fn read_utf8(path: &Path) -> Result<String, Diagnostic> {
    let unreadable = |e| Diagnostic::global(format!("cannot read {}: {e}", path.display()));
    crate::diag::read_utf8(path, unreadable).map_err(|d| {
        if d.span.is_some() {
            d.with_note("subst reads C sources as UTF-8; convert the file (e.g. with iconv)")
        } else {
            d
        }
    })
}

/// The longest preprocessed text parsed, in bytes (16 MiB, several times the largest SV-COMP
/// tasks). `lang_c`'s parser takes about 150 bytes of memory per byte of text (3 MB of
/// statements on one line: 464 MB; 30 MB ran out of 3 GB), and a few lines of macros expand to
/// gigabytes (`benches/FUZZ.md`), so the text is bounded before parsing: the preprocessor's
/// output is read up to the bound and the preprocessor stopped there.
pub const MAX_PREPROCESSED_BYTES: u64 = 16 << 20;

/// The diagnostic of a preprocessed text of `path` longer than [`MAX_PREPROCESSED_BYTES`].
fn too_long(path: &Path) -> Diagnostic {
    Diagnostic::global(format!(
        "the preprocessed text of {} is longer than {} MiB, more than subst parses",
        path.display(),
        MAX_PREPROCESSED_BYTES >> 20
    ))
    .with_note("a macro that expands to very much text, or included files, can make it so; `gcc -E` shows the text")
}

/// Runs the preprocessor on `path`: its output, or the diagnostic.
fn preprocess(config: &Config, path: &Path) -> Result<String, Diagnostic> {
    use std::io::Read;
    use std::process::Stdio;
    read_utf8(path)?;
    let mut child = std::process::Command::new(&config.cpp_command)
        .args(&config.cpp_options)
        .arg(path)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| Diagnostic::global(format!("cannot run the preprocessor `{}`: {e}", config.cpp_command)))?;
    // Its messages are read beside its text (kept up to 1 MiB), so that neither pipe fills.
    let errors = child.stderr.take().map(|mut e| {
        std::thread::spawn(move || {
            let mut kept = Vec::new();
            let _ = (&mut e).take(1 << 20).read_to_end(&mut kept);
            let _ = std::io::copy(&mut e, &mut std::io::sink());
            kept
        })
    });
    let mut stdout = Vec::new();
    let read = child.stdout.take().map(|o| o.take(MAX_PREPROCESSED_BYTES + 1).read_to_end(&mut stdout));
    if stdout.len() as u64 > MAX_PREPROCESSED_BYTES {
        let _ = child.kill();
        let _ = child.wait();
        return Err(too_long(path));
    }
    let status = child.wait();
    let stderr = errors.and_then(|t| t.join().ok()).unwrap_or_default();
    let failed = |why: String| {
        Diagnostic::global(format!("the preprocessor (gcc -E) failed on {}", path.display())).with_note(why)
    };
    match (status, read) {
        (Ok(s), Some(Ok(_))) if s.success() => {}
        (Err(e), _) | (_, Some(Err(e))) => return Err(failed(e.to_string())),
        _ => return Err(failed(String::from_utf8_lossy(&stderr).trim().to_string())),
    }
    let text = String::from_utf8(stdout).map_err(|_| {
        Diagnostic::global(format!("the preprocessed text of {} is not UTF-8", path.display()))
            .with_note("an included file is not UTF-8 text")
    })?;
    // `gcc -E` begins with a line marker (`# 0 "file.c"`), and every location subst reports comes
    // from the markers. Options that drop them (`-P`) or print something else (`-dM`, `-M`,
    // `--help`) would leave every finding at `<unknown>:1`, or parse text that is not the file.
    let marked = text.strip_prefix("# ").is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()));
    if !marked {
        return Err(Diagnostic::global(format!(
            "the preprocessor's output for {} is not the file with line markers",
            path.display()
        ))
        .with_note("subst needs `gcc -E`'s line markers to locate its findings; check the --cpp options (e.g. `-P`, `-dM`, `-M`)"));
    }
    Ok(text)
}

/// Preprocesses (unless it is a `.i` file) and parses one file. The text is checked for nesting before `lang_c` parses
/// it and the tree after, so that no later walk recurses without bound ([`depth`]).
fn parse_file(path: &Path, options: &FrontOptions) -> Result<Unit, Diagnostic> {
    let mut config = Config::with_gcc();
    config.flavor = Flavor::GnuC11;
    let text = if is_preprocessed(path) {
        let text = read_utf8(path)?;
        if text.len() as u64 > MAX_PREPROCESSED_BYTES {
            return Err(too_long(path));
        }
        preprocessed_text(path, &text)
    } else {
        config.cpp_options = vec!["-E".into(), "-std=gnu11".into()];
        if options.data_model == DataModel::Ilp32 {
            config.cpp_options.push("-m32".into());
        }
        config.cpp_options.extend(options.cpp_args.iter().cloned());
        preprocess(&config, path)?
    };
    if let Err(deep) = depth::check_text(&text) {
        let span = SourceMap::new(text).describe(deep.offset);
        return Err(Diagnostic::at(span, "nested too deeply", format!("{} nest too deeply here", deep.what))
            .with_note(format!("subst accepts at most {} levels of nesting in one place", depth::MAX_TEXT_NESTING)));
    }
    let source = match lang_c::driver::parse_preprocessed(&config, text) {
        Ok(parse) => parse,
        Err(e) => return Err(syntax_error(e)),
    };
    if let Err(deep) = depth::check_ast(&source.unit) {
        let span = SourceMap::new(source.source.clone()).describe(deep.offset);
        // Dropping a tree this deep recurses as deep as it is: leak it instead, on this path
        // that ends the run with a diagnostic.
        std::mem::forget(source.unit);
        return Err(Diagnostic::at(span, "nested too deeply", "the expression or statement here is too deep")
            .with_note(format!("subst accepts syntax trees at most {} levels deep", depth::MAX_AST_DEPTH)));
    }
    Ok(Unit { path: path.to_path_buf(), map: RefCell::new(SourceMap::new(source.source)), ast: source.unit })
}

/// A parser error, located in the original file.
fn syntax_error(e: lang_c::driver::SyntaxError) -> Diagnostic {
    let mut map = SourceMap::new(e.source.clone());
    let mut expected: Vec<&str> = e.expected.iter().copied().collect();
    expected.sort();
    let span = map.describe(e.offset);
    // A character outside ASCII where the parser stops is not in a string, a character constant or
    // a comment: it is in an identifier, which C11 and gcc accept and lang_c's grammar does not.
    // `gcc -E` writes such a character as a universal character name (`\U000000e9`); a `.i` file
    // may hold it in UTF-8.
    let rest = e.source.get(e.offset..).unwrap_or("");
    if rest.starts_with("\\u") || rest.starts_with("\\U") || rest.chars().next().is_some_and(|c| !c.is_ascii()) {
        return Diagnostic::at(
            span,
            "unsupported construct: a character outside ASCII in an identifier",
            "this character",
        )
        .with_note("subst reads identifiers made of ASCII letters, digits and `_`");
    }
    Diagnostic::at(span, "syntax error", "unexpected token here")
        .with_note(format!("expected one of: {}", expected.join(" ")))
}

fn is_static(specifiers: &[lang_c::span::Node<DeclarationSpecifier>]) -> bool {
    specifiers
        .iter()
        .any(|s| matches!(&s.node, DeclarationSpecifier::StorageClass(c) if c.node == StorageClassSpecifier::Static))
}

/// The name a function definition defines.
pub(crate) fn function_name(f: &FunctionDefinition) -> Option<&str> {
    ctype::declarator_name(&f.declarator.node)
}

/// Reads, preprocesses and parses the C files at `paths` (files or folders).
pub fn load(paths: &[PathBuf], options: &FrontOptions) -> Result<Program, Diagnostic> {
    let mut units = Vec::new();
    for p in paths {
        for file in c_files(p)? {
            // lang_c is a generated parser; a panic inside it must not take subst down.
            let parsed = catch_unwind(AssertUnwindSafe(|| parse_file(&file, options))).unwrap_or_else(|_| {
                Err(Diagnostic::global(format!("the C parser failed on {}", file.display()))
                    .with_note("this is a bug in subst's parser; please report the file"))
            })?;
            tracing::debug!(file = %file.display(), "parsed");
            units.push(parsed);
        }
    }
    let mut external_functions = HashMap::default();
    let mut unit_functions = Vec::with_capacity(units.len());
    for (u, unit) in units.iter().enumerate() {
        let mut own = HashMap::default();
        for (i, decl) in unit.ast.0.iter().enumerate() {
            if let ExternalDeclaration::FunctionDefinition(f) = &decl.node
                && let Some(name) = function_name(&f.node)
            {
                own.entry(name.to_string()).or_insert(i);
                if !is_static(&f.node.specifiers) {
                    external_functions.entry(name.to_string()).or_insert((u, i));
                }
            }
        }
        unit_functions.push(own);
    }
    Ok(Program { units, options: options.clone(), external_functions, unit_functions })
}

impl Program {
    /// All function definitions, as (unit, name).
    fn definitions(&self) -> impl Iterator<Item = (usize, &FunctionDefinition)> {
        self.units.iter().enumerate().flat_map(|(u, unit)| {
            unit.ast.0.iter().filter_map(move |d| match &d.node {
                ExternalDeclaration::FunctionDefinition(f) => Some((u, &f.node)),
                _ => None,
            })
        })
    }

    /// Where the sources define a statement label called `name` (in any function), in order.
    /// `subst verify` uses it to refuse old SV-COMP tasks that mark their error with the label
    /// `ERROR:` alone, a property it does not check.
    pub fn labels_named(&self, name: &str) -> Vec<crate::ir::SrcSpan> {
        use lang_c::visit::Visit;
        struct Labels<'n> {
            name: &'n str,
            found: Vec<lang_c::span::Span>,
        }
        impl<'ast> Visit<'ast> for Labels<'_> {
            fn visit_label(&mut self, label: &'ast lang_c::ast::Label, span: &'ast lang_c::span::Span) {
                if let lang_c::ast::Label::Identifier(id) = label
                    && id.node.name == self.name
                {
                    self.found.push(*span);
                }
                lang_c::visit::visit_label(self, label, span);
            }
        }
        let mut out = Vec::new();
        for unit in &self.units {
            let mut v = Labels { name, found: Vec::new() };
            v.visit_translation_unit(&unit.ast);
            for span in v.found {
                out.push(unit.map.borrow_mut().span(span.start, span.end).0);
            }
        }
        out
    }

    /// Names of the functions defined in the sources, in order.
    pub fn defined_functions(&self) -> Vec<String> {
        self.definitions().filter_map(|(_, f)| function_name(f).map(str::to_string)).collect()
    }

    /// The names of the enum constants declared at file scope (as `enum e { A, B };` or in a
    /// typedef or variable declaration), in order; used to check spec expressions that name
    /// them (state propositions).
    pub fn enum_constants(&self) -> Vec<String> {
        use lang_c::ast::{DeclarationSpecifier, TypeSpecifier};
        let mut out = Vec::new();
        for unit in &self.units {
            for d in &unit.ast.0 {
                let ExternalDeclaration::Declaration(decl) = &d.node else { continue };
                for spec in &decl.node.specifiers {
                    if let DeclarationSpecifier::TypeSpecifier(t) = &spec.node
                        && let TypeSpecifier::Enum(e) = &t.node
                    {
                        out.extend(e.node.enumerators.iter().map(|en| en.node.identifier.node.name.clone()));
                    }
                }
            }
        }
        out
    }

    /// The components to use when none is named: `main` if defined, otherwise every function
    /// taking no parameters and returning `void` that no other function calls.
    pub fn default_components(&self) -> Vec<String> {
        let defined = self.defined_functions();
        if defined.iter().any(|n| n == "main") {
            return vec!["main".to_string()];
        }
        let called = effects::called_functions(self.definitions().map(|(_, f)| f));
        self.definitions()
            .filter(|(_, f)| ctype::is_void_void(f))
            .filter_map(|(_, f)| function_name(f))
            .filter(|n| !called.contains(*n))
            .map(str::to_string)
            .collect()
    }

    /// Lowers the component function `name` to the IR.
    pub fn lower(&self, name: &str) -> Result<Component, Diagnostic> {
        let found = self
            .external_functions
            .get(name)
            .copied()
            .or_else(|| (0..self.units.len()).find_map(|u| self.find_function(u, name).filter(|&(v, _)| v == u)));
        let Some((unit, index)) = found else {
            let defined = self.defined_functions();
            return Err(Diagnostic::global(format!("no function `{name}` is defined in the sources")).with_note(
                format!("defined functions: {}", if defined.is_empty() { "none".into() } else { defined.join(", ") }),
            ));
        };
        let component =
            catch_unwind(AssertUnwindSafe(|| lower::lower_component(self, unit, index))).unwrap_or_else(|_| {
                Err(Diagnostic::global(format!("internal error while lowering `{name}`"))
                    .with_note("this is a bug in subst; please report the input"))
            })?;
        tracing::info!(
            component = name,
            locations = component.n_locs,
            edges = component.edges.len(),
            variables = component.vars.len(),
            "lowered"
        );
        let problems = crate::ir::check::check(&component);
        if !problems.is_empty() {
            let mut d = Diagnostic::global(format!("internal error: the IR of `{name}` is malformed"));
            for p in problems {
                d = d.with_note(p.to_string());
            }
            return Err(d);
        }
        Ok(component)
    }

    /// The definition `name` refers to from `unit`: the unit's own definition (static or not)
    /// first, then a definition with external linkage in another unit.
    pub(crate) fn find_function(&self, unit: usize, name: &str) -> Option<(usize, usize)> {
        let own = self.unit_functions.get(unit).and_then(|m| m.get(name)).copied();
        own.map(|i| (unit, i)).or_else(|| self.external_functions.get(name).copied())
    }
}
