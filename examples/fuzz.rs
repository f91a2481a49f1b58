//! A seeded mutation fuzzer for subst's parsers, without a nightly toolchain.
//!
//! ```text
//! cargo run --example fuzz -- TARGET SECONDS [SEED]
//! ```
//!
//! TARGET is `c` (the C front end: preprocess, depth guards, parse, lower every component),
//! `spec` (the FSP parser and the elaboration of each process), `ir` (the IR text parser and
//! checker) or `cache` (entries of the cache, resealed with the run's key when they are JSON,
//! read as predicates). Seeds are the repository's examples (`examples-c/`, `specs/`, the IR of
//! the examples). Each round takes a seed, applies 1 to 8 mutations (bit flips, byte insertions
//! and deletions, copies of a range, tokens from a dictionary, splices with another seed) and runs
//! the target on the result.
//!
//! The input is written to `target/fuzz/TARGET/current` before it runs, so an abort (a stack
//! overflow cannot be caught) leaves it behind; a panic is caught and its input kept as
//! `target/fuzz/TARGET/crash-N`. At the end the fuzzer prints executions, crashes and time.
//! Every crash it finds becomes a regression test named after what broke.

use std::io::Write;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const DICTIONARY: &[&str] = &[
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    "?",
    ":",
    ";",
    ",",
    "*",
    "&",
    "->",
    "+",
    "-",
    "!",
    "~",
    "<<",
    ">>",
    "=",
    "==",
    "++",
    "--",
    "if",
    "else",
    "while",
    "for",
    "do",
    "switch",
    "case",
    "goto",
    "return",
    "int",
    "unsigned",
    "char",
    "long",
    "struct",
    "union",
    "enum",
    "void",
    "sizeof",
    "#define A(x) x+x\n",
    "#include <stdio.h>\n",
    "\n",
    "\"",
    "'",
    "/*",
    "*/",
    "//",
    "\\",
    "0x7fffffff",
    "-2147483648",
    "18446744073709551615",
    "1e9",
    "\u{0}",
    "\u{feff}",
    "\u{e9}",
    "->",
    "||",
    "&&",
    "|",
    "STOP",
    "ERROR",
    "property",
    "const",
    "range",
    "when",
    "set",
    "@",
    "/{",
    "\\{",
    "..",
    "P",
    "Q",
];

fn seeds(target: &str) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let walk = |dir: &Path, ext: &str, out: &mut Vec<PathBuf>| {
        let mut stack = vec![dir.to_path_buf()];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
                let p = e.path();
                if p.is_dir() {
                    stack.push(p);
                } else if p.extension().is_some_and(|x| x == ext) {
                    out.push(p);
                }
            }
        }
    };
    let mut files = Vec::new();
    match target {
        "c" => walk(Path::new("examples-c"), "c", &mut files),
        "spec" => {
            walk(Path::new("specs"), "lts", &mut files);
            walk(Path::new("examples-c"), "lts", &mut files);
        }
        "ir" | "cache" => {
            let mut cs = Vec::new();
            walk(Path::new("examples-c"), "c", &mut cs);
            for c in cs.iter().filter(|p| !p.to_string_lossy().contains("unsupported")).take(30) {
                let Ok(program) = subst::front::load(std::slice::from_ref(c), &Default::default()) else { continue };
                for name in program.default_components() {
                    if let Ok(comp) = program.lower(&name) {
                        if target == "ir" {
                            out.push(subst::ir::text::component(&comp).into_bytes());
                        } else {
                            let formulas = vec!["(= x #x00000001)".to_string(), "(bvule y #x00000003)".to_string()];
                            let at = (0..comp.n_locs).map(|l| if l % 2 == 0 { vec![0] } else { vec![1] }).collect();
                            let p = subst::abs::PrecisionText { formulas, at };
                            out.push(serde_json::to_vec(&p).expect("JSON"));
                        }
                    }
                }
            }
        }
        _ => {}
    }
    files.sort();
    out.extend(files.iter().filter_map(|f| std::fs::read(f).ok()));
    out
}

fn mutate(rng: &mut ChaCha8Rng, input: &[u8], seeds: &[Vec<u8>]) -> Vec<u8> {
    let mut v = input.to_vec();
    for _ in 0..rng.random_range(1..=8) {
        let len = v.len();
        match rng.random_range(0..7) {
            0 if len > 0 => {
                let i = rng.random_range(0..len);
                v[i] ^= 1 << rng.random_range(0..8);
            }
            1 => {
                let i = rng.random_range(0..=len);
                v.insert(i, rng.random());
            }
            2 if len > 0 => {
                let i = rng.random_range(0..len);
                let n = rng.random_range(1..=(len - i).min(64));
                v.drain(i..i + n);
            }
            3 if len > 0 => {
                // A copy of a range, repeated: deep or long inputs.
                let i = rng.random_range(0..len);
                let n = rng.random_range(1..=(len - i).min(32));
                let piece = v[i..i + n].to_vec();
                let times = if rng.random_bool(0.1) { rng.random_range(100..5000) } else { 1 };
                let at = rng.random_range(0..=len);
                let mut rep = Vec::with_capacity(piece.len() * times);
                for _ in 0..times {
                    rep.extend_from_slice(&piece);
                }
                v.splice(at..at, rep);
            }
            4 => {
                let t = DICTIONARY[rng.random_range(0..DICTIONARY.len())].as_bytes();
                let at = rng.random_range(0..=len);
                v.splice(at..at, t.iter().copied());
            }
            5 if !seeds.is_empty() => {
                let other = &seeds[rng.random_range(0..seeds.len())];
                if !other.is_empty() {
                    let i = rng.random_range(0..other.len());
                    let n = rng.random_range(1..=(other.len() - i).min(256));
                    let at = rng.random_range(0..=len);
                    v.splice(at..at, other[i..i + n].iter().copied());
                }
            }
            _ if len > 1 => {
                let i = rng.random_range(0..len);
                let j = rng.random_range(0..len);
                v.swap(i, j);
            }
            _ => {}
        }
    }
    v.truncate(1 << 20);
    v
}

fn run_c(dir: &Path, input: &[u8]) {
    let path = dir.join("fuzz.c");
    std::fs::write(&path, input).expect("write");
    if let Ok(program) = subst::front::load(std::slice::from_ref(&path), &Default::default()) {
        for name in program.default_components().iter().take(4) {
            if let Ok(comp) = program.lower(name) {
                let _ = subst::ir::text::component(&comp);
            }
        }
    }
}

fn run_spec(input: &[u8]) {
    let text = String::from_utf8_lossy(input);
    if let Ok(spec) = subst::spec::parse(&text, "fuzz.lts") {
        for name in spec.processes().iter().take(8) {
            let _ = spec.process(name);
        }
    }
}

fn run_ir(input: &[u8]) {
    let text = String::from_utf8_lossy(input);
    if let Ok(comp) = subst::ir::parse::component(&text) {
        let _ = subst::ir::check::check(&comp);
    }
}

fn run_cache(dir: &Path, key: &subst::cache::Key, input: &[u8]) {
    let entry_key = "0".repeat(64);
    let path = dir.join("predicates").join(format!("{entry_key}.json"));
    std::fs::create_dir_all(path.parent().expect("a folder")).expect("mkdir");
    // Half the inputs are resealed with the key, so that their payload is parsed.
    let text = match serde_json::from_slice::<serde_json::Value>(input) {
        Ok(payload) if input.len().is_multiple_of(2) => serde_json::json!({
            "format": subst::cache::FORMAT,
            "tool": subst::cache::tool(),
            "kind": "predicates",
            "key": entry_key,
            "mac": subst::cache::mac(key, "predicates", &entry_key, &payload),
            "payload": payload,
        })
        .to_string()
        .into_bytes(),
        _ => input.to_vec(),
    };
    std::fs::write(&path, text).expect("write");
    let cache = subst::cache::Cache::with_key(dir, key.clone());
    let _ = cache.load::<subst::abs::PrecisionText>("predicates", &entry_key);
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let target = args.get(1).cloned().unwrap_or_else(|| "c".into());
    let seconds: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(60);
    let seed: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1);
    // The front end recurses as deep as its limits allow: give it the binary's stack.
    let worker = std::thread::Builder::new()
        .stack_size(subst::cli::WORK_STACK_BYTES)
        .spawn(move || fuzz(&target, Duration::from_secs(seconds), seed))
        .expect("a thread");
    worker.join().expect("the fuzzer ends");
}

fn fuzz(target: &str, budget: Duration, seed: u64) {
    let out = PathBuf::from("target/fuzz").join(target);
    std::fs::create_dir_all(&out).expect("an output folder");
    let work = tempfile::tempdir().expect("a temp folder");
    let key = subst::cache::Key::from_secret(b"fuzz");
    let corpus = seeds(target);
    assert!(!corpus.is_empty(), "no seeds for target `{target}` (run from the repository's root)");
    std::panic::set_hook(Box::new(|_| {}));
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let start = Instant::now();
    let (mut execs, mut crashes) = (0u64, 0u64);
    while start.elapsed() < budget {
        let base = &corpus[rng.random_range(0..corpus.len())];
        let input = mutate(&mut rng, base, &corpus);
        std::fs::write(out.join("current"), &input).expect("write the current input");
        let result = catch_unwind(AssertUnwindSafe(|| match target {
            "c" => run_c(work.path(), &input),
            "spec" => run_spec(&input),
            "ir" => run_ir(&input),
            "cache" => run_cache(work.path(), &key, &input),
            other => panic!("unknown target {other}"),
        }));
        execs += 1;
        if result.is_err() {
            crashes += 1;
            std::fs::write(out.join(format!("crash-{crashes}")), &input).expect("keep the crash");
        }
    }
    let line = format!(
        "target {target}: {execs} executions, {crashes} crashes (panics) in {:.0} s, seed {seed}\n",
        start.elapsed().as_secs_f64()
    );
    print!("{line}");
    let _ = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(out.join("log"))
        .map(|mut f| f.write_all(line.as_bytes()));
}
