#!/usr/bin/env python3
"""A mutation fuzzer of the subst binary, one process per input (benches/TESTS.md, 17c).

usage (from the repository's root, after `cargo build --release --example reseal`):
    nice -n 10 python3 benches/fuzz_bin.py target/release/subst KIND SECONDS SEED OUTDIR
KIND: c | contain | spec | cspec | cache | showcache | cli | mix

Where `examples/fuzz.rs` calls the parsers in one process, this runs the whole binary: the
verdict commands with their work budgets, `show`, the report formats, and caches that real
runs wrote (made on first use in target/fuzz-bin/caches), mutated and resealed with the key.

Each run: a mutated input in a fresh temp folder, the binary under `timeout` and `ulimit -v`,
classified: 0/1/3 ok; 2 with a location (FILE:L:C) or a usage error ok; 2 without either
"unlocated" (kept for review); 101, signals, "panicked", "internal error": crash; killed by
the wall guard: hang; JSON/SARIF stdout that does not parse: badjson.
For `cache`: the verdict must equal the --no-cache verdict of the same command.
"""
import json, os, random, re, shutil, subprocess, sys, tempfile, time

REPO = os.getcwd()
SCR = os.path.join(REPO, "target", "fuzz-bin")
RESEAL = os.path.join(REPO, "target", "release", "examples", "reseal")
SECRET = "fuzzsecret"
WALL = 60
MEM_KB = 3_000_000
BUDGET = ["--max-refinements", "30", "--query-budget", "5000000", "--explicit-memory", "256"]

C_FAST = """bounded_counter checksum goto_cleanup lock_client lock_server pointer_swap promotions protocol
ring_buffer sensor short_circuit struct_tracker traffic_light struct_array svcomp_sum""".split()
C_FILES = [f"{REPO}/examples-c/{n}.c" for n in C_FAST] + [
    f"{REPO}/examples-c/loops/{n}.c" for n in
    "assert_message deep_counter_bug double_branch long_count_bug meter_drain_bug orbit_cycle parity_steps ring_average sum_twice transfer transfer_unsigned".split()
] + [f"{REPO}/examples-c/cegar/{n}.c" for n in "lock_loop lock_loop_bug timer_wrap".split()] + \
    [f"{REPO}/tests/data/soundness/{f}" for f in os.listdir(f"{REPO}/tests/data/soundness")] + \
    [f"{REPO}/examples-c/invalid/{f}" for f in os.listdir(f"{REPO}/examples-c/invalid") if f.endswith(".c")] + \
    [f"{REPO}/examples-c/unsupported/{f}" for f in os.listdir(f"{REPO}/examples-c/unsupported") if f.endswith(".c")]
PAIRS = ["off_by_one", "rewritten", "removed_branch", "bug_fix", "extra_behaviour", "identical", "countdown_off_by_one", "silent_loop_in_new", "table_typos"]
SPECS = [f"{REPO}/specs/{f}" for f in os.listdir(f"{REPO}/specs") if f.endswith(".lts")] + \
    [f"{REPO}/tests/data/labels/fsp/{f}" for f in os.listdir(f"{REPO}/tests/data/labels/fsp") if f.endswith(".lts")]
# C + spec scenarios: (files, spec, args template); the spec is mutated.
CSPEC = [
    (["tests/data/labels/lock_ok.c"], "tests/data/labels/lock.lts", ["verify"]),
    (["tests/data/labels/lock_race.c"], "tests/data/labels/lock.lts", ["verify"]),
    (["tests/data/labels/own_ok.c"], "tests/data/labels/own.lts", ["verify"]),
    (["tests/data/labels/partial/ok.c"], "tests/data/labels/partial/partial.lts", ["verify"]),
    (["tests/data/props/server.c"], "tests/data/props/good.lts", ["verify"]),
    (["examples-c/contain/off_by_one/old/blinker.c", "examples-c/contain/off_by_one/new/blinker.c"], "examples-c/contain/off_by_one/blinker.lts", ["check", "--no-cache"]),
    (["examples-c/contain/bug_fix/old/vending.c", "examples-c/contain/bug_fix/new/vending.c"], "examples-c/contain/bug_fix/vending.lts", ["check", "--no-cache", "--removed", "DOUBLE_DISPENSE"]),
    (["tests/data/labels/lock_ok.c", "tests/data/labels/lock_race.c"], "tests/data/labels/lock.lts", ["check", "--no-cache", "--skip-containment"]),
]
# Cache scenarios: name -> argument list (paths relative to the repository).
CACHE = {
    "lockrace": ["check", "--skip-containment", "tests/data/labels/lock_ok.c", "tests/data/labels/lock_race.c", "--spec", "tests/data/labels/lock.lts"],
    "lockok": ["check", "--skip-containment", "tests/data/labels/lock_race.c", "tests/data/labels/lock_ok.c", "--spec", "tests/data/labels/lock.lts"],
    "partial": ["check", "tests/data/labels/partial/ok.c", "tests/data/labels/partial/late_open.c", "--spec", "tests/data/labels/partial/partial.lts"],
    "writer": ["check", "tests/data/labels/fsp/writer_ok.c", "tests/data/labels/fsp/writer_race.c", "--spec", "tests/data/labels/fsp/lock_ok.lts"],
    "added": ["check", "tests/data/assembly_change/added/old/sys.c", "tests/data/assembly_change/added/new/sys.c"],
    "rewritten": ["check", "examples-c/contain/rewritten/old/thermostat.c", "examples-c/contain/rewritten/new/thermostat.c"],
}

TOKENS = [b"(", b")", b"{", b"}", b";", b",", b"->", b"||", b"|", b"&&", b"*", b"-", b"+", b"/", b"%", b"<<", b">>",
          b"==", b"!=", b"=", b"?", b":", b"..", b"[", b"]", b"\\", b"@", b"/{", b"STOP", b"ERROR", b"END", b"property",
          b"const", b"range", b"set", b"when", b"if", b"then", b"else", b"while", b"for", b"goto", b"switch", b"case",
          b"return", b"int", b"unsigned", b"long", b"char", b"struct", b"union", b"enum", b"sizeof", b"void", b"static",
          b"event", b"prop", b"forall", b"\x00", b"\xff\xfe", b"\xe9", b"\r", b"\r\n", b"\n", b"\t", b"'", b"\"", b"/*", b"*/",
          b"//", b"#define A(x) x+x\n", b"#line 1 \"x.c\"\n", b"#include <stdio.h>\n", b"0x7fffffff", b"-2147483648",
          b"18446744073709551615", b"99999999999999999999999999", b"2147483647", b"-1", b"0", b"1e308", b"0.5",
          b"reach_error()", b"__VERIFIER_nondet_int()", b"__VERIFIER_assume(0)", b"abort()", b"main", b"P", b"Q", b"X",
          b"a" * 5000, b"N", b"T"]


def mutate(rng, data, pool):
    v = bytearray(data)
    for _ in range(rng.randint(1, 6)):
        n = len(v)
        op = rng.randrange(12)
        if op == 0 and n:
            i = rng.randrange(n); v[i] ^= 1 << rng.randrange(8)
        elif op == 1:
            i = rng.randrange(n + 1); v[i:i] = bytes([rng.randrange(256)])
        elif op == 2 and n:
            i = rng.randrange(n); k = rng.randint(1, min(64, n - i)); del v[i:i + k]
        elif op == 3 and n:  # duplicate a range, sometimes many times (deep or long input)
            i = rng.randrange(n); k = rng.randint(1, min(32, n - i)); piece = bytes(v[i:i + k])
            times = rng.choice([1, 2, 10, 100, 2000]) if rng.random() < 0.3 else 1
            j = rng.randrange(len(v) + 1); v[j:j] = piece * times
        elif op == 4:
            t = rng.choice(TOKENS); j = rng.randrange(n + 1); v[j:j] = t
        elif op == 5 and pool:
            o = rng.choice(pool)
            if o:
                i = rng.randrange(len(o)); k = rng.randint(1, min(256, len(o) - i)); j = rng.randrange(n + 1); v[j:j] = o[i:i + k]
        elif op == 6 and n:  # truncate
            del v[rng.randrange(n):]
        elif op == 7:  # token-level: delete or duplicate a word
            words = re.split(rb"(\s+)", bytes(v))
            if len(words) > 2:
                i = rng.randrange(len(words))
                if rng.random() < 0.5:
                    del words[i]
                else:
                    words.insert(i, words[i])
                v = bytearray(b"".join(words))
        elif op == 8:  # numbers: replace one by an extreme
            nums = list(re.finditer(rb"\b\d+\b", bytes(v)))
            if nums:
                m = rng.choice(nums)
                v[m.start():m.end()] = rng.choice([b"0", b"4294967295", b"2147483648", b"9223372036854775807",
                                                   b"18446744073709551616", b"999999999999999999999999999999", b"65536", b"100000"])
        elif op == 9:  # line endings
            v = bytearray(bytes(v).replace(b"\n", rng.choice([b"\r\n", b"\r", b"\n\n", b"\x0b"])))
        elif op == 10 and n:  # deep nesting at a random point
            j = rng.randrange(n + 1); k = rng.choice([50, 500, 5000, 50000]); o, c = rng.choice([(b"(", b")"), (b"{", b"}"), (b"[", b"]")])
            v[j:j] = o * k + (c * k if rng.random() < 0.7 else b"")
        elif op == 11:  # giant identifier
            ids = list(re.finditer(rb"\b[A-Za-z_]\w*\b", bytes(v)))
            if ids:
                m = rng.choice(ids); v[m.start():m.end()] = bytes(v[m.start():m.end()]) * rng.choice([100, 10000])
    if rng.random() < 0.02:
        v = bytearray()
    return bytes(v[: 4 << 20])


def run(binary, args, cwd, env=None):
    e = dict(os.environ)
    e["SUBST_CACHE_KEY"] = SECRET
    e.pop("RUST_LOG", None)
    if env:
        e.update(env)
    cmd = ["timeout", "-s", "KILL", str(WALL), "nice", "-n", "10", "bash", "-c", f"ulimit -v {MEM_KB}; exec \"$@\"", "_", binary] + args
    t = time.time()
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, env=e)
    return p.returncode, p.stdout, p.stderr, time.time() - t


LOC = re.compile(rb"[^\s:]+:\d+:\d+")


def classify(rc, out, err, args):
    text = err.decode("utf-8", "replace")
    if rc == 137 or rc == -9:
        return "hang"
    if rc == 101 or rc < 0 or rc > 3 or "panicked" in text or "internal error" in text:
        return "crash"
    fmt = None
    if "--format" in args:
        fmt = args[args.index("--format") + 1]
    if fmt in ("json", "sarif"):
        try:
            json.loads(out)
        except Exception:
            return "badjson"
    if rc == 2:
        if LOC.search(err) or "For more information, try '--help'" in text:
            return "ok2"
        return "unlocated"
    return "ok"


def norm(msg):
    return re.sub(r"\d+", "N", re.sub(r"/tmp/\S+", "TMP", msg))[:160]


def make_caches(binary):
    """The caches of real runs, once: the seeds of the `cache` and `showcache` kinds."""
    for name, args in CACHE.items():
        if not os.path.isdir(f"{SCR}/caches/{name}"):
            run(binary, args + ["--cache", f"{SCR}/caches/{name}"], REPO)


def main():
    binary, kind, seconds, seed, outdir = os.path.abspath(sys.argv[1]), sys.argv[2], float(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
    os.makedirs(SCR + "/tmp", exist_ok=True)
    make_caches(binary)
    rng = random.Random(seed)
    os.makedirs(outdir, exist_ok=True)
    log = open(os.path.join(outdir, "log.jsonl"), "a")
    stats = {}
    unlocated = {}
    end = time.time() + seconds
    n = 0
    pool_c = [open(f, "rb").read() for f in C_FILES]
    pool_s = [open(f, "rb").read() for f in SPECS]
    while time.time() < end:
        k = kind if kind != "mix" else rng.choice(["c", "c", "contain", "spec", "cspec", "cache", "cli", "showcache"])
        n += 1
        with tempfile.TemporaryDirectory(dir=SCR + "/tmp") as d:
            try:
                res = one(rng, binary, k, d, pool_c, pool_s)
            except Exception as ex:  # the harness itself
                print("harness error", k, ex, file=sys.stderr)
                continue
            if res is None:
                continue
            cls, rc, args, err, secs, keep = res
            stats[(k, cls)] = stats.get((k, cls), 0) + 1
            rec = {"n": n, "kind": k, "class": cls, "rc": rc, "args": args, "secs": round(secs, 2)}
            if cls == "unlocated":
                m = norm(err.decode("utf-8", "replace").strip().splitlines()[0] if err.strip() else "<empty>")
                unlocated[m] = unlocated.get(m, 0) + 1
                if unlocated[m] > 1:
                    keep = False
            if cls not in ("ok", "ok2") and keep:
                case = os.path.join(outdir, f"{k}-{cls}-{seed}-{n}")
                shutil.copytree(d, case, symlinks=True)
                open(os.path.join(case, "CMD"), "w").write(json.dumps(args) + "\n")
                open(os.path.join(case, "STDERR"), "wb").write(err[:20000])
                rec["case"] = case
            if cls not in ("ok", "ok2"):
                rec["err"] = err.decode("utf-8", "replace")[:300]
            log.write(json.dumps(rec) + "\n"); log.flush()
    summary = {"kind": kind, "seed": seed, "runs": n, "stats": {f"{a}/{b}": c for (a, b), c in sorted(stats.items())}, "unlocated": unlocated}
    print(json.dumps(summary, indent=1))
    open(os.path.join(outdir, f"summary-{kind}-{seed}.json"), "w").write(json.dumps(summary, indent=1))


def write(d, name, data):
    p = os.path.join(d, name)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    open(p, "wb").write(data)
    return p


BASELINE = {}


def one(rng, binary, k, d, pool_c, pool_s):
    if k == "c":
        f = rng.choice(C_FILES)
        src = mutate(rng, open(f, "rb").read(), pool_c)
        name = rng.choice(["t.c", "t.c", "t.c", "t.i"])
        write(d, name, src)
        args = rng.choice([["verify", "--no-cache"] + BUDGET, ["show", "ir"], ["verify", "--no-cache", "--format", "json"] + BUDGET,
                           ["verify", "--no-cache", "--format", "sarif"] + BUDGET, ["verify", "--no-cache", "--blocks", "single"] + BUDGET,
                           ["show", "model", "--no-cache"], ["show", "model", "--no-cache", "--must", "--format", "dot"],
                           ["show", "run", "--seed", str(rng.randrange(1000))], ["show", "run", "--inputs", "1,2,3,-1,2147483647"],
                           ["show", "ir", "--format", "dot"], ["verify", "--no-cache", "--data-model", "ilp32"] + BUDGET]) + [name]
    elif k == "contain":
        p = rng.choice(PAIRS)
        base = f"{REPO}/examples-c/contain/{p}"
        stem = os.listdir(base + "/old")[0]
        old, new = open(f"{base}/old/{stem}", "rb").read(), open(f"{base}/new/{stem}", "rb").read()
        if rng.random() < 0.7:
            new = mutate(rng, new, [old])
        else:
            old = mutate(rng, old, [new])
        write(d, f"old/{stem}", old); write(d, f"new/{stem}", new)
        spec = [f for f in os.listdir(base) if f.endswith(".lts")]
        if spec:
            shutil.copy(f"{base}/{spec[0]}", d)
        args = ["check", "--no-cache"] + BUDGET + rng.choice([[], ["--format", "json"], ["--format", "sarif"], ["--no-product"]]) + [f"old/{stem}", f"new/{stem}"]
    elif k == "spec":
        f = rng.choice(SPECS)
        write(d, "m.lts", mutate(rng, open(f, "rb").read(), pool_s))
        if rng.random() < 0.3:
            write(d, "o.lts", open(f, "rb").read())
            args = ["check", "--no-cache", "--probe-states", str(rng.choice([0, 100, 10000])), "o.lts", "m.lts"]
        else:
            args = rng.choice([["verify"], ["verify", "--engine", "ag"], ["verify", "--format", "json"], ["verify", "--engine", "ag", "--learner", "lstar"],
                               ["verify", "--engine", "ag", "--alphabet", "refine"], ["show", "assumption"], ["show", "table"]]) + ["m.lts"]
            if args[0] == "show":
                args += ["--level", str(rng.randrange(3))]
            elif rng.random() < 0.3:
                names = re.findall(rb"^\|\|?\s*([A-Z]\w*)", open(os.path.join(d, "m.lts"), "rb").read(), re.M)
                args = ["show", "lts", "m.lts", (rng.choice(names).decode("utf-8", "replace") if names else "P")] + rng.choice([[], ["--minimize"], ["--format", "dot"]])
    elif k == "cspec":
        files, spec, pre = rng.choice(CSPEC)
        for i, f in enumerate(files):
            write(d, f"v{i}/{os.path.basename(f)}", open(f"{REPO}/{f}", "rb").read())
        write(d, "s.lts", mutate(rng, open(f"{REPO}/{spec}", "rb").read(), pool_s))
        args = pre + BUDGET + [f"v{i}/{os.path.basename(f)}" for i, f in enumerate(files)] + ["--spec", "s.lts"]
    elif k == "cache":
        return one_cache(rng, binary, d)
    elif k == "cli":
        return one_cli(rng, binary, d)
    elif k == "showcache":
        cache = os.path.join(d, "cache")
        shutil.copytree(f"{SCR}/caches/lockrace", cache)
        files = [os.path.join(r, f) for r, _, fs in os.walk(cache) for f in fs if "predicates" in r or "model" in r]
        for f in rng.sample(files, rng.randint(1, len(files))):
            env = json.loads(open(f, "rb").read())
            env["payload"] = mutate_json(rng, env["payload"], [])
            open(f, "w").write(json.dumps(env))
            subprocess.run([RESEAL, SECRET, f], capture_output=True)
        args = ["show", "model", "--cache", cache, f"{REPO}/" + rng.choice(["tests/data/labels/lock_ok.c", "tests/data/labels/lock_race.c"]),
                "--spec", f"{REPO}/tests/data/labels/lock.lts"] + rng.choice([["--component", "locker"], ["--component", "writer"]]) + rng.choice([[], ["--must"], ["--format", "dot"]])
    rc, out, err, secs = run(binary, args, d)
    return classify(rc, out, err, args), rc, args, err, secs, True


def one_cache(rng, binary, d):
    name = rng.choice(list(CACHE))
    args = CACHE[name]
    if name not in BASELINE:
        rc, _, _, _ = run(binary, args[:1] + ["--no-cache"] + args[1:] + BUDGET, REPO)
        BASELINE[name] = rc
    cache = os.path.join(d, "cache")
    shutil.copytree(f"{SCR}/caches/{name}", cache)
    files = [os.path.join(r, f) for r, _, fs in os.walk(cache) for f in fs]
    what = []
    for _ in range(rng.randint(1, 3)):
        f = rng.choice(files)
        text = open(f, "rb").read()
        how = rng.random()
        try:
            env = json.loads(text)
        except Exception:
            env = None
        if how < 0.6 and env is not None:  # payload-level mutation, resealed with the key
            env["payload"] = mutate_json(rng, env["payload"], what)
            open(f, "w").write(json.dumps(env))
            subprocess.run([RESEAL, SECRET, f], capture_output=True)
            what.append("resealed " + os.path.relpath(f, cache)[:20])
        elif how < 0.75:  # bytes, not resealed
            open(f, "wb").write(mutate(rng, text, []))
            what.append("bytes " + os.path.relpath(f, cache)[:20])
        elif how < 0.85:  # swap two entries of one kind (keys swapped)
            g = rng.choice([x for x in files if os.path.dirname(x) == os.path.dirname(f)])
            a, b = open(f, "rb").read(), open(g, "rb").read()
            open(f, "wb").write(b); open(g, "wb").write(a)
            what.append("swap")
        elif how < 0.9:
            os.remove(f); os.mkdir(f); what.append("dir")
        elif how < 0.95:
            os.remove(f); os.symlink(rng.choice(["/dev/zero", "/nonexistent", f]), f); what.append("symlink")
        else:
            open(f, "wb").write(b""); what.append("empty")
        files = [os.path.join(r, x) for r, _, fs in os.walk(cache) for x in fs if os.path.isfile(os.path.join(r, x))]
        if not files:
            break
    full = args + ["--cache", cache] + BUDGET
    rc, out, err, secs = run(binary, full, REPO)
    cls = classify(rc, out, err, full)
    if cls in ("ok", "ok2") and rc != BASELINE[name]:
        cls = "verdict" if rc in (0, 1) else "cache-unknown"
    return cls, rc, full + ["#", name, str(BASELINE[name])] + what, err, secs, True


def mutate_json(rng, v, what, depth=0):
    if isinstance(v, dict) and v:
        k = rng.choice(list(v))
        if rng.random() < 0.1:
            del v[k]; return v
        v[k] = mutate_json(rng, v[k], what, depth + 1) if rng.random() < 0.8 else leaf(rng)
        return v
    if isinstance(v, list) and v:
        r = rng.random()
        if r < 0.15:
            del v[rng.randrange(len(v))]
        elif r < 0.3:
            v.insert(rng.randrange(len(v) + 1), rng.choice(v))
        elif r < 0.4 and len(v) > 1:
            i, j = rng.randrange(len(v)), rng.randrange(len(v)); v[i], v[j] = v[j], v[i]
        else:
            i = rng.randrange(len(v)); v[i] = mutate_json(rng, v[i], what, depth + 1)
        return v
    if isinstance(v, bool):
        return not v
    if isinstance(v, int):
        return rng.choice([v + 1, v - 1, 0, -1, 2**31, 2**32, 2**63 - 1, 2**64 - 1, 10**30, v * 1000])
    if isinstance(v, str):
        if v in ("S", "N"):
            return "N" if v == "S" else "S"
        if v in ("0", "1"):
            return "1" if v == "0" else "0"
        r = rng.random()
        if r < 0.3:
            return v[: rng.randrange(len(v) + 1)]
        if r < 0.5:
            return "(" * 10000 + v
        if r < 0.7:
            return rng.choice(["true", "false", "(= x #x0)", "(bvadd", "\u0000", "", "x" * 100000, "(not (not " * 5000])
        return v[::-1]
    return leaf(rng)


def leaf(rng):
    return rng.choice([None, 0, -1, 10**20, "", "x", [], {}, [0] * 100000, True, 1.5])


def one_cli(rng, binary, d):
    write(d, "a.c", open(f"{REPO}/examples-c/lock_client.c", "rb").read())
    write(d, "b.c", open(f"{REPO}/examples-c/lock_client.c", "rb").read())
    write(d, "m.lts", open(f"{REPO}/specs/lock.lts", "rb").read())
    os.mkdir(os.path.join(d, "dir"))
    vals = ["0", "-1", "1", "99999999999999999999", "1e3", "", " ", "x", "\u00e9", "a,b,,", "dir", "/dev/null", "/dev/zero",
            "m.lts", "a.c", "nonexistent", "json=dir", "sarif=/dev/full", "text=out.txt", "json", "-", "--", "0x10", "NaN", "4294967296"]
    opts = ["--spec", "--prop", "--assembly", "--order", "--timeout", "--max-refinements", "--query-budget", "--explicit-memory",
            "--cache", "--format", "--report", "--removed", "--max-missing", "--probe-states", "--cpp", "--engine", "--learner",
            "--reuse", "--alphabet", "--cex", "--blocks", "--data-model", "--inputs", "--git-base"]
    cmd = rng.choice([["verify"], ["check"], ["show", "ir"], ["show", "model"], ["show", "run"], ["show", "lts"], ["show", "assumption"], ["show", "table"], []])
    args = list(cmd)
    for _ in range(rng.randint(0, 4)):
        args += [rng.choice(opts), rng.choice(vals)]
    args += rng.sample(["a.c", "b.c", "m.lts", "dir", "nonexistent", "/dev/null"], rng.randint(0, 3))
    if rng.random() < 0.3:
        args.insert(rng.randrange(len(args) + 1), rng.choice(["--stats", "--no-cache", "-vvv", "--wp-only", "--skip-containment", "--no-product", "--help"]))
    rc, out, err, secs = run(binary, args, d)
    return classify(rc, out, err, args), rc, args, err, secs, True


if __name__ == "__main__":
    main()
