//! C's integers against a real compiler: random straight-line programs over C's integer
//! types, with values near the types' boundaries, are compiled with the system C compiler
//! (`cc -fwrapv`, LP64 on this machine) and run; the values they print become assertions
//! in the same program, which lpmc's interpreter must run without reaching the error under
//! `--signed-overflow wrap`. A sample also goes through `check` (abstraction, domain, trace
//! encoder) and `bmc`.
//!
//! Signed overflow as C defines it: programs whose expressions have no constant operands
//! (a compiler folds those without checking them) are compiled with
//! `-fsanitize=signed-integer-overflow`; under `--signed-overflow undefined` lpmc's
//! interpreter must stop at an overflow exactly in the cases the sanitizer reports one,
//! and agree with the printed values in the others; a sample goes through `check` and
//! `bmc`, where a case that overflows is SAFE (no defined execution reaches an error)
//! with the overflow named as an assumption.
//!
//! Without a C compiler the test prints one line and passes.

use lpmc::{
    run_inputs, BmcOptions, CheckOptions, DataModel, IntModel, LoadOptions, Loaded, Outcome,
    RunOutcome, SignedOverflow, SourceFile, Unwind, Verdict,
};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Cases per CI run.
const CASES: usize = 2000;
/// Cases per compiled file (one `cc` call each).
const PER_FILE: usize = 250;
/// Cases that also go through `check` and `bmc`.
const SOLVER_CASES: usize = 100;
/// Cases compiled with the overflow sanitizer, and those of them that also go through
/// `check` and `bmc`.
const UB_CASES: usize = 1000;
const UB_SOLVER_CASES: usize = 60;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Ty {
    name: &'static str,
    unsigned: bool,
    /// Whether its width differs between ILP32 and LP64.
    long: bool,
}

const TYPES: &[Ty] = &[
    ty("_Bool", true, false),
    ty("char", false, false),
    ty("signed char", false, false),
    ty("unsigned char", true, false),
    ty("short", false, false),
    ty("unsigned short", true, false),
    ty("int", false, false),
    ty("unsigned", true, false),
    ty("long", false, true),
    ty("unsigned long", true, true),
    ty("long long", false, false),
    ty("unsigned long long", true, false),
];

const fn ty(name: &'static str, unsigned: bool, long: bool) -> Ty {
    Ty {
        name,
        unsigned,
        long,
    }
}

/// Literals near the boundaries of the types (with the suffixes that give them types).
const BOUNDARY: &[&str] = &[
    "0",
    "1",
    "-1",
    "2",
    "127",
    "128",
    "-128",
    "255",
    "256",
    "32767",
    "-32768",
    "65535",
    "65536",
    "2147483647",
    "(-2147483647 - 1)",
    "2147483648",
    "4294967295",
    "4294967295u",
    "4294967296",
    "9223372036854775807",
    "(-9223372036854775807LL - 1)",
    "18446744073709551615ull",
    "1u",
    "0u",
    "100",
    "-100",
];

struct Case {
    types: Vec<Ty>,
    body: String,
    uses_long: bool,
}

fn literal(rng: &mut SmallRng) -> String {
    if rng.gen_bool(0.8) {
        BOUNDARY[rng.gen_range(0..BOUNDARY.len())].to_string()
    } else {
        rng.gen_range(-300i64..300).to_string()
    }
}

fn pick_ty(rng: &mut SmallRng, used_long: &mut bool) -> Ty {
    let t = TYPES[rng.gen_range(0..TYPES.len())];
    *used_long |= t.long;
    t
}

/// The types of the sanitizer's cases: signed, of rank int or more (a compiler narrows
/// arithmetic whose result is converted to a narrower type, so it never sees that
/// arithmetic overflow).
const WIDE_SIGNED: &[Ty] = &[
    ty("int", false, false),
    ty("long", false, true),
    ty("long long", false, false),
];

fn expr(rng: &mut SmallRng, nvars: usize, depth: u32, used_long: &mut bool) -> String {
    let leaf = depth == 0 || rng.gen_bool(0.3);
    if leaf {
        return if rng.gen_bool(0.6) {
            format!("v{}", rng.gen_range(0..nvars))
        } else {
            literal(rng)
        };
    }
    let sub = |rng: &mut SmallRng, used_long: &mut bool| expr(rng, nvars, depth - 1, used_long);
    match rng.gen_range(0..11) {
        0 | 1 => format!("({} + {})", sub(rng, used_long), sub(rng, used_long)),
        2 | 3 => format!("({} - {})", sub(rng, used_long), sub(rng, used_long)),
        4 => format!("({} * {})", rng.gen_range(-3i32..4), sub(rng, used_long)),
        5 => format!("(- {})", sub(rng, used_long)),
        6 => {
            let t = pick_ty(rng, used_long);
            format!("(({}) {})", t.name, sub(rng, used_long))
        }
        7 => {
            let op = ["<", "<=", "==", "!=", ">", ">="][rng.gen_range(0..6)];
            format!("({} {op} {})", sub(rng, used_long), sub(rng, used_long))
        }
        8 => format!(
            "({} ? {} : {})",
            sub(rng, used_long),
            sub(rng, used_long),
            sub(rng, used_long)
        ),
        9 => {
            let op = ["/", "%"][rng.gen_range(0..2)];
            format!("({} {op} {})", sub(rng, used_long), rng.gen_range(1..10))
        }
        _ => format!("(!{})", sub(rng, used_long)),
    }
}

fn case(rng: &mut SmallRng) -> Case {
    let mut uses_long = false;
    let nvars = rng.gen_range(2..5);
    let types: Vec<Ty> = (0..nvars).map(|_| pick_ty(rng, &mut uses_long)).collect();
    let mut body = String::new();
    for (i, t) in types.iter().enumerate() {
        let init = literal(rng);
        writeln!(body, "  {} v{i} = {init};", t.name).unwrap();
    }
    for _ in 0..rng.gen_range(2..6) {
        let v = rng.gen_range(0..nvars);
        let e = expr(rng, nvars, 3, &mut uses_long);
        match rng.gen_range(0..8) {
            0 => writeln!(body, "  v{v}++;").unwrap(),
            1 => writeln!(body, "  v{v}--;").unwrap(),
            2 => writeln!(body, "  v{v} += {e};").unwrap(),
            3 => writeln!(body, "  v{v} -= {e};").unwrap(),
            4 => {
                let c = expr(rng, nvars, 2, &mut uses_long);
                writeln!(body, "  if ({c}) v{v} = {e};").unwrap()
            }
            _ => writeln!(body, "  v{v} = {e};").unwrap(),
        }
    }
    Case {
        types,
        body,
        uses_long,
    }
}

/// A case for the overflow sanitizer: variables of one signed type (of rank int or more),
/// and statements of one operation each on variables (`v2 = v0 + v1;`, `v1 = -3 * v0;`,
/// `v0++;`, ...). A compiler folds operations on constants and simplifies expressions
/// (`(x + y) + (y - x)` to `2 * y`, `-2 * x == 0` to `x == 0`) without checking what
/// they drop; with one operation per statement on `volatile` variables there is nothing
/// to fold or simplify, so the sanitizer sees every operation the program performs.
fn ub_case(rng: &mut SmallRng) -> Case {
    let t = WIDE_SIGNED[rng.gen_range(0..WIDE_SIGNED.len())];
    let nvars = rng.gen_range(2..5);
    let mut body = String::new();
    for i in 0..nvars {
        writeln!(body, "  {} v{i} = {};", t.name, literal(rng)).unwrap();
    }
    for _ in 0..rng.gen_range(2..8) {
        let [d, a, b] = [0; 3].map(|_| format!("v{}", rng.gen_range(0..nvars)));
        let c = [-3, -2, 2, 3][rng.gen_range(0..4)];
        let st = match rng.gen_range(0..9) {
            0 => format!("{d} = {a} + {b};"),
            1 => format!("{d} = {a} - {b};"),
            2 => format!("{d} = -{a};"),
            3 => format!("{d}++;"),
            4 => format!("{d}--;"),
            5 => format!("{d} += {a};"),
            6 => format!("{d} -= {a};"),
            7 => format!("{d} = {a} < {b} ? {a} : {b};"),
            _ => format!("{d} = {c} * {a};"),
        };
        writeln!(body, "  {st}").unwrap();
    }
    Case {
        types: vec![t; nvars],
        body,
        uses_long: t.long,
    }
}

/// The C program that prints every case's final values, one line per case (with the
/// sanitizer's reports on the same stream, each before the line of its case). Its
/// variables are `volatile`: every read is then an access of its own, so the compiler
/// cannot simplify `(x + y) + (y - x)` to `2 * y` and lose the overflow it may have.
fn printing_program(cases: &[Case]) -> String {
    let mut s = String::from("#include <stdio.h>\n#include <unistd.h>\n");
    for (k, c) in cases.iter().enumerate() {
        let body: String = c
            .body
            .lines()
            .enumerate()
            .map(|(i, l)| match i < c.types.len() {
                true => format!("  volatile {}\n", l.trim_start()),
                false => format!("{l}\n"),
            })
            .collect();
        writeln!(s, "static void case{k}(void) {{\n{body}").unwrap();
        write!(s, "  printf(\"").unwrap();
        for t in &c.types {
            s.push_str(if t.unsigned { "%llu " } else { "%lld " });
        }
        s.push_str("\\n\"");
        for (i, t) in c.types.iter().enumerate() {
            let cast = if t.unsigned {
                "unsigned long long"
            } else {
                "long long"
            };
            write!(s, ", ({cast}) v{i}").unwrap();
        }
        s.push_str(");\n}\n");
    }
    s.push_str("int main(void) {\n  dup2(1, 2);\n  setvbuf(stdout, NULL, _IONBF, 0);\n");
    for k in 0..cases.len() {
        writeln!(s, "  case{k}();").unwrap();
    }
    s.push_str("  return 0;\n}\n");
    s
}

/// The case for lpmc: the compiler's values become assertions.
fn asserting_program(c: &Case, values: &[&str]) -> String {
    let mut s = String::from("void reach_error() {}\nint main() {\n");
    s.push_str(&c.body);
    for (i, (t, v)) in c.types.iter().zip(values).enumerate() {
        let lit = if t.unsigned {
            format!("{v}ull")
        } else if *v == "-9223372036854775808" {
            "(-9223372036854775807LL - 1)".to_string()
        } else {
            format!("{v}LL")
        };
        writeln!(s, "  if (v{i} != {lit}) reach_error();").unwrap();
    }
    s.push_str("  return 0;\n}\n");
    s
}

fn compile_and_run(dir: &std::path::Path, n: usize, src: &str, flag: &str) -> Option<String> {
    let c = dir.join(format!("cases{n}.c"));
    let exe = dir.join(format!("cases{n}"));
    std::fs::write(&c, src).unwrap();
    let out = Command::new("cc")
        .args(["-O0", flag, "-w", "-o"])
        .arg(&exe)
        .arg(&c)
        .output()
        .ok()?;
    assert!(
        out.status.success(),
        "cc failed on {}:\n{}",
        c.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let run = Command::new(&exe).output().unwrap();
    assert!(run.status.success());
    Some(String::from_utf8(run.stdout).unwrap())
}

fn cc_available() -> bool {
    Command::new("cc").arg("--version").output().is_ok()
}

fn load(src: &str, uses_long: bool, int_model: Option<IntModel>, s: SignedOverflow) -> Loaded {
    let opts = LoadOptions {
        signed_overflow: s,
        // The compiler here is LP64; without `long`, ILP32 (the default) agrees with it.
        data_model: if uses_long {
            DataModel::Lp64
        } else {
            DataModel::Ilp32
        },
        int_model,
        ..LoadOptions::default()
    };
    match lpmc::load_with(SourceFile::new("case.c", src), &opts) {
        Ok(l) => l,
        Err(e) => panic!("lpmc rejects\n{src}\n{}", e.render(false)),
    }
}

/// A case with the values the compiled program printed, and whether the sanitizer
/// reported a signed overflow in it.
type Compiled = (Case, Vec<String>, bool);

/// Generate the cases with the compiler's values (`-fwrapv`), or `None` without a
/// compiler.
fn cases_with_values(seed: u64, n: usize) -> Option<Vec<(Case, Vec<String>)>> {
    let all = compiled_cases(seed, n, case, "-fwrapv")?;
    Some(all.into_iter().map(|(c, v, _)| (c, v)).collect())
}

/// Generate the cases with `gen` and compile them with `flag`, or `None` without a
/// compiler.
fn compiled_cases(
    seed: u64,
    n: usize,
    gen: fn(&mut SmallRng) -> Case,
    flag: &str,
) -> Option<Vec<Compiled>> {
    if !cc_available() {
        eprintln!("skipped: C compiler differential test (no `cc` installed)");
        return None;
    }
    let mut rng = SmallRng::seed_from_u64(seed);
    static RUNS: AtomicUsize = AtomicUsize::new(0);
    let dir: PathBuf = std::env::temp_dir().join(format!(
        "lpmc-cc-diff-{}-{}",
        std::process::id(),
        RUNS.fetch_add(1, Ordering::SeqCst)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let mut all = Vec::new();
    let mut file = 0;
    while all.len() < n {
        let cases: Vec<Case> = (0..PER_FILE.min(n - all.len()))
            .map(|_| gen(&mut rng))
            .collect();
        let out = compile_and_run(&dir, file, &printing_program(&cases), flag)?;
        file += 1;
        // Each case prints one line of values, after the sanitizer's reports for it.
        let mut lines = Vec::new();
        let mut overflowed = false;
        for l in out.lines() {
            if l.contains("runtime error") {
                overflowed = true;
            } else {
                lines.push((l, overflowed));
                overflowed = false;
            }
        }
        assert_eq!(lines.len(), cases.len());
        for (c, (line, overflowed)) in cases.into_iter().zip(lines) {
            let values = line.split_whitespace().map(str::to_string).collect();
            all.push((c, values, overflowed));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    Some(all)
}

/// The cases whose interpreter run disagrees with the compiler.
fn mismatches(cases: &[(Case, Vec<String>)], int_model: Option<IntModel>) -> Vec<String> {
    let mut bad = Vec::new();
    for (c, values) in cases {
        let vals: Vec<&str> = values.iter().map(String::as_str).collect();
        let src = asserting_program(c, &vals);
        let loaded = load(&src, c.uses_long, int_model, SignedOverflow::Wrap);
        let r = run_inputs(&loaded, Vec::new(), 10_000);
        if r.outcome != RunOutcome::Finished {
            bad.push(format!("{:?} on\n{src}", r.outcome));
        }
    }
    bad
}

#[test]
fn interpreter_agrees_with_the_c_compiler() {
    let Some(cases) = cases_with_values(0x005e_edc1, CASES) else {
        return;
    };
    assert_eq!(cases.len(), CASES);
    let bad = mismatches(&cases, None);
    assert!(
        bad.is_empty(),
        "{} of {CASES} cases differ from cc; first:\n{}",
        bad.len(),
        bad[0]
    );
}

/// The planted bug: the same programs under mathematical integers (no wraparound, no
/// conversions) must be caught.
#[test]
fn the_differential_test_catches_disabled_wraparound() {
    let Some(cases) = cases_with_values(0x005e_edc1, 300) else {
        return;
    };
    let bad = mismatches(&cases, Some(IntModel::Math));
    assert!(
        bad.len() > 30,
        "only {} of 300 cases differ under mathematical integers",
        bad.len()
    );
}

/// The symbolic back ends (abstraction and domain through `check`, the SSA encoder through
/// `check`'s trace check and `bmc`) agree with the compiler too: the program with the
/// compiler's values is SAFE, and with one value off by one it is UNSAFE.
#[test]
fn symbolic_engines_agree_with_the_c_compiler() {
    let Some(cases) = cases_with_values(0x00c0_ffee, SOLVER_CASES) else {
        return;
    };
    for (c, values) in &cases {
        let (good, bad) = good_and_bad(c, values);
        for (src, want) in [(&good, Verdict::Safe), (&bad, Verdict::Unsafe)] {
            let loaded = load(src, c.uses_long, None, SignedOverflow::Wrap);
            for o in symbolic_outcomes(&loaded) {
                assert_eq!(o.verdict(), want, "on\n{src}\n{o:?}");
            }
        }
    }
}

/// The case with the compiler's values as assertions (SAFE), and with the first value
/// off by one (UNSAFE: a value the compiler did not compute; for a `_Bool`, the other
/// value; elsewhere +1 unless it is the type's maximum).
fn good_and_bad(c: &Case, values: &[String]) -> (String, String) {
    let vals: Vec<&str> = values.iter().map(String::as_str).collect();
    let good = asserting_program(c, &vals);
    let first = &values[0];
    let off = if c.types[0].name == "_Bool" {
        if first == "0" { "1" } else { "0" }.to_string()
    } else if first.starts_with('-') || first == "0" {
        (first.parse::<i128>().unwrap() + 1).to_string()
    } else {
        (first.parse::<i128>().unwrap() - 1).to_string()
    };
    let mut bad_vals = vals.clone();
    bad_vals[0] = &off;
    (good, asserting_program(c, &bad_vals))
}

/// The outcomes of `check` (CEGAR) and `bmc` on a program.
fn symbolic_outcomes(loaded: &Loaded) -> [Outcome; 2] {
    let r = lpmc::check(
        loaded,
        &CheckOptions {
            timeout_s: Some(60.0),
            ..CheckOptions::default()
        },
    );
    let b = lpmc::bmc(
        loaded,
        &BmcOptions {
            unwind: Unwind::Fixed(2),
            timeout_s: Some(60.0),
            ..BmcOptions::default()
        },
    );
    [r.outcome, b.outcome]
}

/// Cases compiled with the overflow sanitizer, or `None` without a compiler (or without
/// the sanitizer's runtime).
fn sanitized_cases(seed: u64, n: usize) -> Option<Vec<Compiled>> {
    if !cc_available() {
        eprintln!("skipped: C compiler differential test (no `cc` installed)");
        return None;
    }
    let probe = std::env::temp_dir().join(format!("lpmc-ubsan-probe-{}", std::process::id()));
    let ok = Command::new("cc")
        .args(["-fsanitize=signed-integer-overflow", "-x", "c", "-o"])
        .arg(&probe)
        .arg("-")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child
                .stdin
                .take()
                .unwrap()
                .write_all(b"int main(void) { return 0; }\n")?;
            child.wait()
        })
        .is_ok_and(|s| s.success());
    let _ = std::fs::remove_file(&probe);
    if !ok {
        eprintln!("skipped: `cc -fsanitize=signed-integer-overflow` is not available");
        return None;
    }
    compiled_cases(seed, n, ub_case, "-fsanitize=signed-integer-overflow")
}

/// Under `--signed-overflow undefined` the interpreter stops at an overflow exactly where
/// the sanitizer reports one, and agrees with the compiler's values elsewhere.
#[test]
fn interpreter_agrees_with_the_overflow_sanitizer() {
    let Some(cases) = sanitized_cases(0x0bad_c0de, UB_CASES) else {
        return;
    };
    let mut bad = Vec::new();
    let mut overflowing = 0;
    for (c, values, overflowed) in &cases {
        overflowing += usize::from(*overflowed);
        let vals: Vec<&str> = values.iter().map(String::as_str).collect();
        let src = asserting_program(c, &vals);
        let loaded = load(&src, c.uses_long, None, SignedOverflow::Undefined);
        let r = run_inputs(&loaded, Vec::new(), 10_000);
        let ok = match r.outcome {
            RunOutcome::Undefined { .. } => *overflowed,
            RunOutcome::Finished => !*overflowed,
            _ => false,
        };
        if !ok {
            bad.push(format!(
                "{:?} (sanitizer: overflow {overflowed}) on\n{src}",
                r.outcome
            ));
        }
    }
    // The generator must exercise both kinds of cases.
    assert!(
        overflowing > UB_CASES / 20 && overflowing < UB_CASES / 2,
        "{overflowing} of {UB_CASES} cases overflow"
    );
    assert!(
        bad.is_empty(),
        "{} of {UB_CASES} cases differ from the sanitizer; first:\n{}",
        bad.len(),
        bad[0]
    );
}

/// The symbolic engines under `--signed-overflow undefined`: a case without overflow is
/// SAFE with the compiler's values and UNSAFE with one off by one; a case that overflows
/// has no defined execution, so it is SAFE either way, assuming no overflow at some line.
#[test]
fn symbolic_engines_agree_with_the_overflow_sanitizer() {
    let Some(cases) = sanitized_cases(0x5afe_0f10, UB_SOLVER_CASES) else {
        return;
    };
    for (c, values, overflowed) in &cases {
        let (good, bad) = good_and_bad(c, values);
        for (src, want) in [(&good, Verdict::Safe), (&bad, Verdict::Unsafe)] {
            let want = if *overflowed { Verdict::Safe } else { want };
            let loaded = load(src, c.uses_long, None, SignedOverflow::Undefined);
            for o in symbolic_outcomes(&loaded) {
                assert_eq!(o.verdict(), want, "on\n{src}\n{o:?}");
                if let (true, Outcome::Safe(p)) = (overflowed, &o) {
                    assert!(!p.assumed_no_overflow.is_empty(), "on\n{src}\n{o:?}");
                }
            }
        }
    }
}
